"""The null document: the same units shuffled in blocks, to tell structure from noise.

More runs always lower the cost, also on text with no structure at all. So k maximises the reduction the real
order gets from k runs minus the reduction the same units shuffled in blocks get (:func:`null_gain`; the blocks
keep the local persistence of neighbouring units). The shuffle is seeded, so the choice is deterministic.
"""

from __future__ import annotations

import numpy as np

__all__ = ["block_permutation", "noise_calibrated_k", "null_gain", "null_shuffles"]


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
