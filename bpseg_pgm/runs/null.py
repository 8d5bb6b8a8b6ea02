"""The null document: the same units shuffled in blocks, to tell structure from noise.

More runs always lower the cost, also on text with no structure at all. So k maximises the reduction the real
order gets from k runs minus the reduction the same units shuffled in blocks get (:func:`null_gain`; the blocks
keep the local persistence of neighbouring units). The shuffle is seeded, so the choice is deterministic.

A reader's granularity (``BPSeg(granularity=z)``) moves along the same gains: :func:`count_within` takes the fewest
runs whose gain is within z standard errors of the largest, the error read from the null documents' own spread
(z = 1 is Breiman's one-standard-error rule; measured in docs/howto/segments.md).
"""

from __future__ import annotations

import numpy as np

__all__ = ["block_permutation", "count_within", "noise_calibrated_k", "null_gain", "null_shuffles"]


def null_shuffles(n: int, units: int, most: int) -> int:
    """How many null documents are averaged for a document of n units: ceil(units / n), between 1 and ``most``
    (``Policy.null_units``, ``Policy.null_max_shuffles``)."""
    return int(np.clip(np.ceil(units / max(n, 1)), 1, most))


def block_permutation(n: int, block: float, random_state=0) -> np.ndarray:
    """A permutation of range(n) that shuffles consecutive blocks of ``round(block)`` (>= 1) units."""
    size = max(1, int(round(block)))
    starts = np.arange(0, n, size)
    order = np.random.default_rng(random_state).permutation(len(starts))
    return np.concatenate([np.arange(starts[o], min(starts[o] + size, n)) for o in order])


def null_gain(costs: np.ndarray, shuffled_costs: np.ndarray) -> np.ndarray:
    """The gain of k runs over the null document, for k = 1 .. K (index k - 1): (cost(1) - cost(k)) - (shuffled
    cost(1) - shuffled cost(k)); -inf where either cost is infinite (k runs cannot be placed). 0 at k = 1."""
    real = costs[1] - costs[1:]
    noise = shuffled_costs[1] - shuffled_costs[1:]
    return np.where(np.isfinite(real) & np.isfinite(noise), real - noise, -np.inf)


def noise_calibrated_k(costs: np.ndarray, shuffled_costs: np.ndarray) -> int:
    """argmax_k of :func:`null_gain`, k >= 1: the k whose runs gain most over the null document's."""
    return 1 + int(np.argmax(null_gain(costs, shuffled_costs)))


def count_within(costs: np.ndarray, shuffled_rows: np.ndarray, z: float) -> int:
    """The fewest runs whose gain over the null documents is within ``z`` standard errors of the largest gain.

    ``costs``: the document's best costs for 0..K runs; ``shuffled_rows``: (B, K + 1) the same for each of B >= 2
    null documents. The gain is :func:`null_gain` over the nulls' mean; its standard error at k is the nulls' own
    standard deviation of their gain C_b(1) - C_b(k), times sqrt(1 + 1/B) (as the gap statistic scales it). z = 0
    is the k of the largest gain (:func:`noise_calibrated_k` over these nulls); a larger z, fewer runs or as many.
    """
    rows = np.asarray(shuffled_rows, dtype=np.float64)
    if rows.ndim != 2 or rows.shape[0] < 2:
        raise ValueError(f"count_within needs the costs of at least two null documents, got shape {rows.shape}")
    gain = null_gain(costs, rows.mean(axis=0))
    best = int(np.argmax(gain))
    if best == 0:
        return 1
    spread = rows[:, 1] - rows[:, best + 1]  # each null's own gain at the best k
    error = float(np.std(spread, ddof=1)) * np.sqrt(1.0 + 1.0 / rows.shape[0])
    return 1 + int(np.argmax(gain >= gain[best] - float(z) * error))
