"""Each unit's calibrated confidence: the probability that it lies where the segmentation put it.

The raw beliefs of a fit are not probabilities of being right (docs/concepts.md, "What confidence means").
:func:`calibrated_confidence` maps what the fit knows of a unit to the probability that it lies in the gold
segment matched to its label (:func:`~bpseg_pgm.confidence.reliability.matched_correct`)::

    z = logit(base[structure]) + confidence_belief * logit(belief) + confidence_distance * log(distance)
    confidence = 1 / (1 + exp(-z))

``belief`` is the unit's raw belief in its own label, ``distance`` its :func:`boundary_distance`, and
``base[structure]`` the confidence of a unit of belief 1/2 at the edge of its segment, one per structure. Both
weights are >= 0, so the confidence never falls when the belief or the distance grows. The numbers are the
"confidence" fields of the :class:`~bpseg_pgm.policy.Policy`, measured in docs/research/confidence-calibration.md.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import numpy as np

from bpseg_pgm.policy import DEFAULT_POLICY, Policy
from bpseg_pgm.utils.labels import run_bounds

__all__ = ["STRUCTURES", "boundary_distance", "calibrated_confidence", "structure_base"]

#: The structures a segmentation may have, each with its own base confidence in the Policy.
STRUCTURES = ("runs", "topics", "run-topics", "sections")

#: Beliefs are clipped to [_EPS, 1 - _EPS] before their logit (a belief of exactly 0 or 1 stays finite).
_EPS = 1e-6


def boundary_distance(labels: Sequence[int]) -> np.ndarray:
    """Each unit's distance, in units, to the nearer end of its contiguous segment (run of one label).

    Parameters
    ----------
    labels : sequence of int, length n
        The label of each unit, in reading order.

    Returns
    -------
    ndarray of int64, shape (n,)
        1 for the first and the last unit of each run of equal labels (a run of one or two units is all 1s),
        2 for the units next to them, and so on: ``min(i - start, end - 1 - i) + 1``.  The document's own
        first and last units count as ends.
    """
    lab = np.asarray(labels).reshape(-1)
    n = lab.shape[0]
    if n == 0:
        return np.zeros(0, dtype=np.int64)
    bounds = run_bounds(lab)
    lengths = np.diff(bounds)
    start = np.repeat(bounds[:-1], lengths)
    end = np.repeat(bounds[1:], lengths)
    i = np.arange(n)
    return (np.minimum(i - start, end - 1 - i) + 1).astype(np.int64)


def structure_base(structure: str | None, labels: Sequence[int], policy: Policy = DEFAULT_POLICY) -> float:
    """The Policy's base confidence for ``structure``.

    ``structure`` None (a segmentation not made by the pipeline) is read from the labels: "runs" when every
    label is one contiguous segment, else "topics".  Any other string is a ValueError.
    """
    if structure is None:
        lab = np.asarray(labels).reshape(-1)
        structure = "runs" if len(run_bounds(lab)) - 1 == len(np.unique(lab)) else "topics"
    if structure == "runs":
        return float(policy.confidence_runs)
    if structure == "topics":
        return float(policy.confidence_topics)
    if structure == "run-topics":
        return float(policy.confidence_run_topics)
    if structure == "sections":  # runs cut at the text's headings
        return float(policy.confidence_sections)
    raise ValueError(f"structure must be one of {STRUCTURES} or None, got {structure!r}")


def calibrated_confidence(
    belief: Sequence[float], labels: Sequence[int], structure: str | None = None, policy: Policy | None = None
) -> np.ndarray:
    """The probability that each unit lies in the gold segment matched to its label, as calibrated on the
    development sets (see the module docstring for the map and ``docs/policy.md`` for its numbers).

    Parameters
    ----------
    belief : sequence of float, length n
        Each unit's raw belief in its own label (``beliefs[i, labels[i]]``).  NaN counts as 0, values
        outside [0, 1] are clipped.
    labels : sequence of int, length n
        The labels, in reading order (their runs give each unit's :func:`boundary_distance`).
    structure : {"runs", "topics", "run-topics"} or None, default=None
        What the fit chose (``Segmentation.structure``); None: read from the labels (see :func:`structure_base`).
    policy : Policy or None, default=None
        The numbers of the map (None: :data:`~bpseg_pgm.policy.DEFAULT_POLICY`).

    Returns
    -------
    ndarray of float64, shape (n,)
        Confidences in [0, 1], finite for any input, non-decreasing in the belief and in the distance to the
        nearer end of the unit's contiguous segment. A document of one unit has confidence 1.

    Notes
    -----
    How well it is calibrated, and its limits: docs/concepts.md, "What confidence means".
    """
    p = DEFAULT_POLICY if policy is None else policy
    if not isinstance(p, Policy):
        raise ValueError(f"policy must be None or a bpseg_pgm.Policy, got {type(p).__name__}")
    b = np.asarray(belief, dtype=np.float64).reshape(-1)
    lab = np.asarray(labels).reshape(-1)
    if b.shape[0] != lab.shape[0]:
        raise ValueError(f"{b.shape[0]} beliefs for {lab.shape[0]} labels")
    if b.size == 0:
        return np.zeros(0, dtype=np.float64)
    if b.size == 1:  # a document of one unit: it lies in the one segment there is
        return np.ones(1, dtype=np.float64)
    b = np.clip(np.nan_to_num(b, nan=0.0, posinf=1.0, neginf=0.0), _EPS, 1.0 - _EPS)
    base = min(max(structure_base(structure, lab, p), _EPS), 1.0 - _EPS)
    z = (
        np.log(base / (1.0 - base))
        + p.confidence_belief * np.log(b / (1.0 - b))
        + p.confidence_distance * np.log(boundary_distance(lab))
    )
    return _sigmoid(z)


def _sigmoid(z: Any) -> np.ndarray:
    """1 / (1 + exp(-z)) without overflow warnings."""
    z = np.asarray(z, dtype=np.float64)
    out = np.empty_like(z)
    pos = z >= 0
    out[pos] = 1.0 / (1.0 + np.exp(-z[pos]))
    e = np.exp(z[~pos])
    out[~pos] = e / (1.0 + e)
    return out
