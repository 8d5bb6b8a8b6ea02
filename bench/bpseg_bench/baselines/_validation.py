"""Shared input check for the baselines: a finite, non-empty (n, d) embedding matrix."""

from __future__ import annotations

import numpy as np


def check_embeddings(X) -> np.ndarray:
    """Return ``X`` as a float64 (n, d) array; ValueError if it is empty, not 2-D or not finite."""
    arr = np.asarray(X, dtype=np.float64)
    if arr.ndim != 2:
        raise ValueError(f"X must be a 2-D (n_sentences, dim) array, got shape {arr.shape}")
    if arr.shape[0] == 0 or arr.shape[1] == 0:
        raise ValueError(f"X must be non-empty, got shape {arr.shape}")
    if not np.all(np.isfinite(arr)):
        raise ValueError("X contains NaN or infinite values")
    return arr


def cosine_similarity_matrix(X: np.ndarray) -> np.ndarray:
    """Cosine similarities between rows; an all-zero row has similarity 0 to everything."""
    norms = np.linalg.norm(X, axis=1, keepdims=True)
    unit = np.divide(X, norms, out=np.zeros_like(X), where=norms > 0)
    return np.clip(unit @ unit.T, -1.0, 1.0)
