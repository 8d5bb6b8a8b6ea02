"""Input checks shared by the estimator, the graph builder and the engines.

One place decides what a valid embedding matrix is, so every entry point gives the
same clear ValueError instead of a NumPy warning or a NaN deep inside BP.
"""

from __future__ import annotations

import numpy as np


def check_embeddings(X, name: str = "embeddings") -> np.ndarray:
    """Return X as a float64 (n, d) array, or raise ValueError explaining what is wrong."""
    try:
        arr = np.asarray(X, dtype=np.float64)
    except (TypeError, ValueError) as exc:
        raise ValueError(f"{name} must be a numeric (n, d) array: {exc}") from None
    if arr.ndim != 2:
        raise ValueError(f"{name} must be a 2-D (n_sentences, dim) array, got shape {arr.shape}")
    if arr.shape[0] == 0 or arr.shape[1] == 0:
        raise ValueError(f"{name} is empty (shape {arr.shape}); need at least one sentence and one dimension")
    if not np.all(np.isfinite(arr)):
        raise ValueError(f"{name} contains NaN or inf values")
    norms = np.linalg.norm(arr, axis=1)
    zero = np.flatnonzero(norms == 0)
    if zero.size:
        raise ValueError(f"{name} row {int(zero[0])} is a zero vector; cosine similarity is undefined for it")
    return arr


def normalize_rows(X: np.ndarray) -> np.ndarray:
    """Unit-normalise rows so that dot products are cosine similarities."""
    return X / np.linalg.norm(X, axis=1, keepdims=True)


def check_nonnegative(value, name: str) -> float:
    """A finite, non-negative float parameter."""
    try:
        v = float(value)
    except (TypeError, ValueError):
        raise ValueError(f"{name} must be a number, got {value!r}") from None
    if not np.isfinite(v) or v < 0:
        raise ValueError(f"{name} must be a finite number >= 0, got {value!r}")
    return v


def check_sigma(sigma):
    """sigma is None (no distance decay) or a finite positive number."""
    if sigma is None:
        return None
    try:
        v = float(sigma)
    except (TypeError, ValueError):
        raise ValueError(f"sigma must be None or a positive number, got {sigma!r}") from None
    if not np.isfinite(v) or v <= 0:
        raise ValueError(f"sigma must be None or a positive number, got {sigma!r}")
    return v


def check_representatives(idx, n: int) -> np.ndarray:
    """Representative sentence indices: integers in [0, n), all distinct, at least one."""
    arr = np.asarray(idx)
    if arr.ndim != 1 or arr.size == 0:
        raise ValueError("representatives must be a non-empty 1-D sequence of sentence indices")
    if not np.issubdtype(arr.dtype, np.integer):
        if arr.dtype.kind == "f" and np.all(np.isfinite(arr)) and np.all(arr == np.round(arr)):
            arr = arr.astype(np.int64)
        else:
            raise ValueError(f"representatives must be integer sentence indices, got dtype {arr.dtype}")
    if arr.min() < 0 or arr.max() >= n:
        raise ValueError(f"representatives must lie in [0, {n - 1}], got values in [{arr.min()}, {arr.max()}]")
    if np.unique(arr).size != arr.size:
        raise ValueError("representatives must be distinct sentences (the paper requires C_i != C_j)")
    return arr.astype(np.int64)
