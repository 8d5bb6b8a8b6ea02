"""BPSeg's parameters, declared once, as constraint objects: default, what each takes, what it does.

As scikit-learn's ``_parameter_constraints``: one declared table (:data:`PARAMETERS`), from which
:class:`~bpseg_pgm.estimator.BPSeg` takes its ``__init__`` defaults and its checks (one message per mistake,
wherever it is made), the CLI makes each BP-Seg option (:mod:`bpseg_pgm.cli.options`) and ``docs/gen_parameters.py``
writes the parameters page. A constraint may name a registry or a class higher in the package as a
``"module:attribute"`` string, read when a value is checked: this module imports only :mod:`bpseg_pgm.constraints`,
so ``bpseg --help`` does not load scikit-learn.
"""

from __future__ import annotations

from dataclasses import dataclass
from numbers import Integral, Real
from typing import Any

from bpseg_pgm.constraints import Callable, Instance, Interval, Options, StrOptions, describe

__all__ = ["INITS", "PARAMETERS", "STRUCTURES", "Parameter"]

#: The values of ``structure``.
STRUCTURES = ("auto", "runs", "topics")
#: How the k initial representatives may be chosen (``init``), besides explicit indices.
INITS = ("random", "farthest", "all")

_AUTO = StrOptions(("auto",))
_ARRAY = ("builtins:list", "builtins:tuple", "numpy:ndarray")


def _sequence(name: str) -> Instance:
    """A list, tuple or NumPy array (what it holds is checked when it is used), described by ``name``."""
    return Instance(tuple(_ARRAY), name)


@dataclass(frozen=True)
class Parameter:
    """One parameter of BPSeg.

    ``default``; ``constraints``: the values it takes (constraint objects, None for the value None);
    ``help``: one line, what it does (the CLI's help); ``doc``: what the parameters page says of it (``help``
    when empty); ``flag``: its command-line option ("" when it has none); ``words``: the words for what it
    takes in an error message, where they differ from the constraints' own (messages users and tests know).
    """

    default: Any
    constraints: tuple
    help: str
    doc: str = ""
    flag: str = ""
    words: str = ""

    @property
    def takes(self) -> str:
        """What the parameter takes, in words (the error message's and the docs')."""
        return self.words or describe(self.constraints)


#: name -> Parameter, in the order the checks run (``BPSeg.check_params``).
PARAMETERS: dict[str, Parameter] = {
    "structure": Parameter(
        "auto",
        (StrOptions(STRUCTURES),),
        "every segment one run of consecutive sentences, segments that may return, or decided per document",
        '`"auto"` (default): decided per document; `"topics"`: always the topic model; `"runs"`: every segment '
        "one run. See [below](#structure).",
        flag="--contiguous, --topics",
    ),
    "damping": Parameter(
        0.0,
        (Interval(Real, 0, 1, closed="left"),),
        "message damping in [0, 1), for an engine given by name",
        "in [0, 1): mixes each new message with the previous one; helps BP converge on hard inputs.",
        flag="--damping",
        words="in [0, 1)",
    ),
    "engine": Parameter(
        "potts",
        (
            StrOptions("bpseg_pgm.inference.engines:engine_names"),
            Instance("bpseg_pgm.inference.engine:Engine", "a bpseg_pgm.inference.Engine"),
        ),
        "the inference engine that computes the beliefs, any registered name",
        "how the beliefs are computed (see [engines](#engine)); in Python also an `Engine` object.",
        flag="--engine",
    ),
    "potentials": Parameter(
        "centered",
        (
            StrOptions("bpseg_pgm.potentials.registry:potentials_names"),
            Instance("bpseg_pgm.potentials.base:Potentials", "a bpseg_pgm.potentials.Potentials"),
        ),
        "the pairwise model: 'paper' is the paper's eq. 1-2",
        'the pairwise model: `"centered"` (default: pairs more similar than the document\'s average attract, less '
        "similar ones repel, normalised for length; the paper's factor lets long documents collapse into one "
        'segment) or `"paper"` (the paper\'s eq. 1–2, used by `bpseg demo`), or a `Potentials` object of your own '
        "([plug-ins](howto/plugins.md)).",
        flag="--potentials",
    ),
    "lam": Parameter(
        None,
        (None, Interval(Real, 0, None)),
        "strength of the pairwise term (default: the model's own)",
        "weight λ of the pairwise term: how strongly similar sentences are pushed into the same segment. Default: "
        "the model's own (the paper uses 0.12 on its illustrative example).",
        flag="--lam",
        words="a finite number >= 0 or None",
    ),
    "sigma": Parameter(
        "auto",
        (_AUTO, None, Interval(Real, 0, None, closed="neither")),
        "distance decay exp(-|i-j|^2/sigma) of the pairwise term: a number, 'none' or 'auto' "
        "(default: the model's own)",
        "distance decay exp(−\\|i−j\\|²/σ) of the pairwise term, so that nearby sentences interact more than "
        'distant ones; `None` (`--sigma none`) for none, `"auto"` (default) for the model\'s own.',
        flag="--sigma",
        words="None or a positive number, or 'auto'",
    ),
    "max_iter": Parameter(
        None,
        (None, Interval(Integral, 1, None)),
        "maximum BP sweeps (default: the engine's own)",
        "the most BP sweeps per run (for `appendix`/`fast`, the fixed number of iterations T).",
        flag="--max-iter",
        words="an integer >= 1 or None (the engine's own)",
    ),
    "tol": Parameter(
        1e-6,
        (Interval(Real, 0, None, closed="neither"),),
        "convergence tolerance on messages",
        "convergence threshold on the change of the messages.",
        flag="--tol",
    ),
    "random_state": Parameter(
        None,
        (
            None,
            Interval(Integral, 0, None),
            Instance(
                ("numpy.random:Generator", "numpy.random:SeedSequence", "numpy.random:BitGenerator"),
                "a numpy Generator",
            ),
            _sequence("a sequence of ints >= 0"),
        ),
        "random seed for --init random and the runs' null documents",
        'seed for `init="random"` (and for the null documents of `structure="runs"` and `"auto"`).',
        flag="--seed",
        words="None, an int >= 0 or a numpy Generator",
    ),
    "em_rounds": Parameter(
        None,
        (None, Interval(Integral, 0, None)),
        "rounds of representative re-estimation (default: the model's own)",
        "rounds of re-estimating the representatives from the beliefs after BP (dropping labels that emptied "
        "out), each followed by BP again. Default: the model's own.",
        flag="--em-rounds",
    ),
    "context": Parameter(
        "auto",
        (_AUTO, Interval(Real, 0, None)),
        "weight of each reading-order neighbour's embedding mixed into a sentence's: a number >= 0 (0: each "
        "sentence alone, as in the paper) or 'auto' (default: the model's own)",
        "reading-order context: the potentials see each sentence's embedding mixed with its two neighbours', "
        'normalise(R_i + c·(R_{i−1} + R_{i+1})). `"auto"` (default): c = 0.2 for the centred model, scaled down to '
        "0 when adjacent sentences are no more similar than average pairs (a prompt whose subjects alternate "
        "sentence by sentence keeps every sentence alone); 0 for the paper's model. A number is used as given.",
        flag="--context",
        words="a finite number >= 0 or 'auto'",
    ),
    "merge_above": Parameter(
        0.9,
        (None, Interval(Real, -1, 1)),
        "merge labels whose representatives have at least this cosine during re-estimation: a number in [-1, 1] "
        "or 'none'",
        "during re-estimation, labels whose representatives have at least this cosine similarity become one "
        "(default 0.9; `None`/`none`: never). Keeps a long segment from being cut into several.",
        flag="--merge-above",
    ),
    "init": Parameter(
        "farthest",
        (StrOptions(INITS), _sequence("k distinct sentence indices")),
        "how the k representatives are chosen",
        "how the k representatives are chosen: `farthest` (default; deterministic farthest-point spread), "
        "`random` (the paper), `all` (every sentence is a representative, k = n, as in the paper's Choi runs).",
        flag="--init",
    ),
    "neighbors": Parameter(
        "auto",
        (StrOptions(("auto", "all")), None, _sequence("(i, j) pairs"), Callable()),
        "the topic model's edges",
        'which pairs of sentences get a pairwise factor: `"auto"` (default: all pairs up to 400 sentences, then a '
        "reading-order window plus each sentence's 10 nearest neighbours), `\"all\"` (the paper's complete graph), "
        "explicit pairs, or a callable.",
    ),
    "n_segments": Parameter(
        "auto",
        (_AUTO, Interval(Integral, 1, None)),
        "how many segments (labels; a segment may return, so it can span several runs)",
        'k, the number of labels, or `"auto"` (default): start from ⌈2√n⌉ labels (at most 40) and let the '
        "unneeded ones empty out. Segments can come out empty, so the result may have fewer than k.",
        flag="-k",
        words="a positive int or 'auto'",
    ),
    "group_runs": Parameter(
        "auto",
        (_AUTO, Options((True, False))),
        "group the runs into segments that may return (a segment that comes back keeps its label): 'auto' does it "
        "when both the structure and k are chosen automatically, 'on' always for runs, 'off' never: every run its "
        "own segment",
        "segments over runs; see [below](#group_runs).",
        flag="--group-runs",
        words="'auto', True or False",
    ),
    "policy": Parameter(
        None,
        (None, Instance("bpseg_pgm.policy:Policy", "a bpseg_pgm.Policy")),
        "the tuned numbers of every decision (None: the shipped)",
        "the tuned numbers of every decision: `None` (default: the shipped `Policy()`) or a "
        "`bpseg_pgm.Policy(...)`, e.g. `Policy(run_scale=2.0)` for finer runs on gradual text; each field's reason "
        "and measurement: `Policy.explain(name)`, the [Policy](policy.md) page. On the command line a TOML or "
        "JSON file of the fields to change.",
        flag="--policy",
    ),
    "cost": Parameter(
        "embeddings",
        (
            StrOptions("bpseg_pgm.runs.cost_registry:cost_names"),
            Instance("bpseg_pgm.runs.cost_registry:RunCost", "a bpseg_pgm.runs.cost_registry.RunCost"),
        ),
        "the runs model's cost of a run, any registered name ('embeddings': the weighted scatter of the smoothed "
        "embeddings)",
        "the runs model's cost of a run; see [below](#cost).",
        flag="--cost",
    ),
    "granularity": Parameter(
        "auto",
        (_AUTO, Interval(Real, 0, None)),
        "how sure each further run must be, where the runs model chooses the count: 'auto' (the shipped rule) or "
        "z >= 0, the fewest runs whose gain over shuffled copies is within z standard errors of the best (0: "
        "finest; 1: the one-standard-error rule; larger: coarser)",
        'the reader\'s granularity where the runs model chooses the count (`n_segments="auto"`, on gradual text '
        'or with `structure="runs"`): `"auto"` (default: the shipped rule) or a number z >= 0, the fewest runs '
        "whose gain over the document's block-shuffled copies is within z standard errors of the largest (0: "
        "every run that beats the shuffles; 1: the one-standard-error rule, which on the development tutoring "
        "transcripts gives 1.00 runs per gold segment against the default's 0.47; larger: coarser). "
        "[How many segments](howto/segments.md#finer-or-coarser-granularity) has what each gives per genre.",
        flag="--granularity",
        words="a finite number >= 0 or 'auto'",
    ),
}
