"""How much each unit counts: 1 - exp(-words / tau), about 0.2 for one word, 0.86 for ten, 1 from twenty on, so
ordinary sentences count alike and only very short units ("Yeah .", whose embedding is the same whatever the
meeting is about) are discounted."""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np

__all__ = ["unit_weights"]


def unit_weights(units: Sequence[str], tau: float) -> np.ndarray:
    """1 - exp(-(number of whitespace-separated words) / tau) per unit, float64 (n,); ``tau``: the policy's
    ``Policy.word_scale`` (``unit_weights(units, policy.word_scale)``), what :class:`~bpseg_pgm.features.Units`
    weighs its units by."""
    if not tau > 0:
        raise ValueError(f"tau must be > 0, got {tau!r}")
    words = np.array([len(u.split()) for u in units], dtype=np.float64)
    return np.maximum(1.0 - np.exp(-words / tau), 1e-3)
