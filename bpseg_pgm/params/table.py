"""BPSeg's parameters, declared once: default, what each takes, what it does.

scikit-learn's ``_parameter_constraints`` is the anchor: one declared table that the estimator checks from
when ``fit`` starts. Here the table is read by

* :class:`~bpseg_pgm.estimator.BPSeg`: its ``__init__`` defaults are the table's, and
  ``check_params`` checks every parameter of the table, in the table's order (one check each, so a
  mistake reads the same wherever it is made: ``BPSeg``, ``segment_text``, ``prune``, ``bpseg corpus``,
  the CLI, which all funnel into it);
* the CLI (``bpseg segment --help`` and the other commands' BP-Seg options): the defaults and one-line
  help it prints come from here, without importing scikit-learn.

This module imports nothing of the package.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

__all__ = ["INITS", "PARAMETERS", "STRUCTURES", "Parameter"]

#: The values of ``structure``.
STRUCTURES = ("auto", "runs", "topics")
#: How the k initial representatives may be chosen (``init``), besides explicit indices.
INITS = ("random", "farthest", "all")


@dataclass(frozen=True)
class Parameter:
    """One parameter of BPSeg: its ``default``, what it ``takes`` (in words) and what it does (``help``)."""

    default: Any
    takes: str
    help: str


#: name -> Parameter, in the order the checks run (``BPSeg.check_params``).
PARAMETERS: dict[str, Parameter] = {
    "structure": Parameter(
        "auto",
        "'auto', 'runs' or 'topics'",
        "runs of consecutive sentences, topics that may return, or decided per document",
    ),
    "damping": Parameter(0.0, "a number in [0, 1)", "message damping, for an engine given by name"),
    "engine": Parameter(
        "potts", "a registered engine name or an Engine object", "the inference engine that computes the beliefs"
    ),
    "potentials": Parameter(
        "centered",
        "a registered potentials name or a Potentials object",
        "the pairwise model: 'paper' is the paper's eq. 1-2",
    ),
    "lam": Parameter(None, "None or a number >= 0", "strength of the pairwise term (None: the model's own)"),
    "sigma": Parameter(
        "auto",
        "'auto', None or a number > 0",
        "distance decay exp(-|i-j|^2 / sigma) of the pairwise term ('auto': the model's own)",
    ),
    "max_iter": Parameter(None, "None or an integer >= 1", "BP sweeps at most per run (None: the engine's own)"),
    "tol": Parameter(1e-6, "a number >= 0", "BP stops when no normalised log message changes by more"),
    "random_state": Parameter(None, "None, an integer >= 0 or a numpy Generator", "the seed of every random choice"),
    "em_rounds": Parameter(
        None, "None or an integer >= 0", "rounds of representative re-estimation (None: the model's own)"
    ),
    "context": Parameter(
        "auto", "'auto' or a number >= 0", "weight of each reading-order neighbour's embedding mixed into a sentence's"
    ),
    "merge_above": Parameter(
        0.9,
        "None or a number in [-1, 1]",
        "labels whose representatives have at least this cosine merge during re-estimation",
    ),
    "init": Parameter(
        "farthest", f"one of {INITS} or k distinct sentence indices", "how the k initial representatives are chosen"
    ),
    "neighbors": Parameter("auto", "'auto', 'all', None, (i, j) pairs or a callable", "the topic model's edges"),
    "n_segments": Parameter(
        "auto",
        "'auto' or an integer from 1 to the number of sentences",
        "how many segments (topics, or runs for structure='runs')",
    ),
    "group_runs": Parameter("auto", "'auto', True or False", "group the runs into topics that may return"),
    "policy": Parameter(None, "None or a bpseg_pgm.Policy", "the tuned numbers of every decision (None: the shipped)"),
    "cost": Parameter(
        "embeddings",
        "a registered run cost name or a RunCost object",
        "the runs model's cost of a run ('embeddings': the weighted scatter of the smoothed embeddings)",
    ),
}
