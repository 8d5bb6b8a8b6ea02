"""Input checks shared by the estimator, the graph builder and the engines.

One place decides what a valid embedding matrix is, so every entry point gives the
same clear ValueError instead of a NumPy warning or a NaN deep inside BP.
"""

from __future__ import annotations

import numbers
from collections.abc import Iterable

import numpy as np


class NonNumericError(TypeError, ValueError):
    """Entries that are not numbers: a ValueError like every bad input here, and a TypeError as
    scikit-learn's conventions (``check_estimator``) expect for non-numeric data."""


def check_embeddings(X, name: str = "embeddings") -> np.ndarray:
    """Return X as a float64 (n, d) array, or raise ValueError explaining what is wrong.

    Complex input is refused rather than cast: NumPy would drop the imaginary part with
    only a ComplexWarning, and cosine similarity means something else for complex vectors.
    """
    if hasattr(X, "toarray") and hasattr(X, "nnz"):  # scipy.sparse, without importing it
        raise ValueError(f"{name} must be a dense array: sparse input is not supported (use X.toarray())")
    try:
        raw = np.asarray(X)
    except (TypeError, ValueError) as exc:
        raise ValueError(f"{name} must be a numeric (n, d) array: {' '.join(str(exc).split())}") from None
    if raw.dtype.kind == "c":
        raise ValueError(
            f"{name} must be real numbers, got complex values (dtype {raw.dtype}): Complex data not supported"
        )
    if raw.dtype.kind in "USVMm":
        raise ValueError(f"{name} must be a numeric (n, d) array, got dtype {raw.dtype}")
    try:
        arr = raw.astype(np.float64)
    except (TypeError, ValueError) as exc:
        raise NonNumericError(f"{name} must be a numeric (n, d) array: {' '.join(str(exc).split())}") from None
    if arr.ndim != 2:
        raise ValueError(f"{name} must be a 2-D (n_sentences, dim) array, got shape {arr.shape}")
    if arr.shape[0] == 0 or arr.shape[1] == 0:
        what = "0 sample(s)" if arr.shape[0] == 0 else "0 feature(s)"
        raise ValueError(
            f"{name} is empty (shape {arr.shape}); need at least one sentence and one dimension: "
            f"{what} (shape={arr.shape}) while a minimum of 1 is required."
        )
    if not np.all(np.isfinite(arr)):
        raise ValueError(f"{name} contains NaN or inf values")
    zero = np.flatnonzero(~arr.any(axis=1))  # every entry 0 (not a norm that underflows: 1e-300 is a direction)
    if zero.size:
        raise ValueError(f"{name} row {int(zero[0])} is a zero vector; cosine similarity is undefined for it")
    return arr


# Below this norm a row's squares lose digits to underflow (they approach the subnormal range, 2**-1022).
_SMALL_NORM = 2.0**-460


def _row_norms(X: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """``(X', norms)``: ``X'`` is ``X`` with each row whose norm overflows (inf) or underflows (0 or nearly)
    multiplied by a power of two that brings its largest entry into [0.5, 1), and ``norms`` are the row norms of
    ``X'`` as a column.  Cosine does not depend on scale, and a power of two scales exactly, so ``X' / norms`` is
    ``X``'s direction; ordinary rows (every row of ordinary embeddings) are not touched, so their normalised
    values are bit for bit those of ``X / np.linalg.norm(X, axis=1)``."""
    with np.errstate(over="ignore", under="ignore"):  # an overflow or underflow is what is looked for next
        norms = np.linalg.norm(X, axis=1, keepdims=True)
    bad = ~((norms[:, 0] >= _SMALL_NORM) & (norms[:, 0] < np.inf))
    if not bad.any():
        return X, norms
    X = np.array(X, dtype=X.dtype if X.dtype.kind == "f" else np.float64)
    rows = X[bad]
    peak = np.max(np.abs(rows), axis=1) if rows.shape[1] else np.zeros(len(rows))
    _, exponent = np.frexp(peak)  # peak = m * 2**exponent, m in [0.5, 1)
    exponent = np.where(np.isfinite(peak) & (peak > 0), exponent, 0)
    rows = np.ldexp(rows, -exponent[:, None].astype(np.int64)).astype(X.dtype, copy=False)
    X[bad] = rows
    norms = norms.copy()
    norms[bad] = np.linalg.norm(rows, axis=1, keepdims=True)
    return X, norms


def normalize_rows(X: np.ndarray) -> np.ndarray:
    """Unit-normalise rows so that dot products are cosine similarities.

    Safe for any finite scale: a row whose norm would overflow (entries above about 1e154) or underflow
    (below about 1e-154) is first scaled by an exact power of two (:func:`_row_norms`)."""
    X, norms = _row_norms(X)
    return X / norms


def normalize_nonzero_rows(X: np.ndarray) -> np.ndarray:
    """Unit-normalise rows, leaving a row of zeros as it is (where :func:`normalize_rows` gives NaN)."""
    X, norms = _row_norms(X)
    return X / np.where(norms > 0, norms, 1.0)


def weighted_mean(X: np.ndarray, weights: np.ndarray) -> np.ndarray:
    """The ``weights``-weighted mean of the rows of X; their plain mean when the weights sum to 0."""
    total = weights.sum()
    return (weights @ X) / total if total > 0 else X.mean(axis=0)


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


def check_random_state(random_state):
    """A seed NumPy's ``default_rng`` takes: None, an int >= 0, a sequence of them, or a Generator/SeedSequence.

    Returned unchanged; anything else is a ValueError now rather than a TypeError from NumPy later.
    """
    if random_state is None or isinstance(
        random_state, (np.random.Generator, np.random.SeedSequence, np.random.BitGenerator)
    ):
        return random_state
    if isinstance(random_state, np.random.RandomState):
        raise ValueError(
            "random_state must be None, an int >= 0 or a numpy Generator; a legacy RandomState is not supported"
        )
    seeds = [random_state] if not isinstance(random_state, (list, tuple, np.ndarray)) else list(np.ravel(random_state))
    for s in seeds:
        if isinstance(s, (bool, np.bool_)) or not isinstance(s, (numbers.Integral, np.integer)) or s < 0:
            raise ValueError(f"random_state must be None, an int >= 0 or a numpy Generator, got {random_state!r}")
    if not seeds:
        raise ValueError("random_state must be None, an int >= 0 or a numpy Generator, got an empty sequence")
    return random_state


def check_unicode(text: str, name: str = "text") -> str:
    """``text`` if it can be written as UTF-8; a lone surrogate (e.g. from a bad decode) is a ValueError.

    Tokenizers fail on such strings with a TypeError deep inside the model, after the slow part.
    """
    try:
        text.encode("utf-8")
    except UnicodeEncodeError as exc:
        raise ValueError(
            f"{name} contains a lone surrogate {text[exc.start]!r} at position {exc.start}; it is not valid "
            "Unicode text"
        ) from None
    return text


def check_sample_weight(sample_weight, n: int) -> np.ndarray:
    """Unit weights: None (all 1) or n finite numbers >= 0, not all 0; float64 (n,)."""
    if sample_weight is None:
        return np.ones(n)
    try:
        w = np.asarray(sample_weight, dtype=np.float64)
    except (TypeError, ValueError):
        raise ValueError("sample_weight must be a sequence of numbers") from None
    if w.shape != (n,):
        raise ValueError(f"sample_weight must have one weight per row ({n}), got shape {w.shape}")
    if not np.all(np.isfinite(w)) or np.any(w < 0) or not np.any(w > 0):
        raise ValueError("sample_weight must be finite, >= 0 and not all zero")
    return w


def check_list(values, message: str, *, any_iterable: bool = False) -> list:
    """``values`` as a list, or ``ValueError(message)``: a list or tuple (with ``any_iterable``, any iterable,
    a generator say); a single str or bytes is refused, being one text where many are meant."""
    if isinstance(values, (str, bytes)) or not isinstance(values, Iterable if any_iterable else (list, tuple)):
        raise ValueError(message)
    return list(values)


def check_str_list(
    values,
    what: str,
    item: str = "item",
    *,
    any_iterable: bool = False,
    unicode: bool = False,
    nonblank: bool = False,
    not_a_list: str = "{what} must be a list of strings, got {type}",
    not_a_str: str = "{name} is {type}, not a string",
) -> tuple[str, ...]:
    """``values`` as a tuple of str, or a ValueError: ``<what> must be a list of strings, got <type>``
    (a single str is refused too) or ``<item> <i> is <type>, not a string``.

    Item ``i`` is called ``<item> <i>``, or ``item`` formatted with ``i`` when it holds ``{i}`` (``"units[{i}]"``).
    ``any_iterable`` accepts any iterable (see :func:`check_list`); ``unicode`` refuses an item that is not valid
    Unicode (:func:`check_unicode`, under the item's name), ``nonblank`` an empty or whitespace-only one
    (``<name> is empty``), each item checked in turn.  ``not_a_list`` and ``not_a_str`` word the errors (fields
    ``what``, ``name`` and ``type``, the type of the value refused), so that every caller keeps its own messages.
    """
    values = check_list(values, not_a_list.format(what=what, type=type(values).__name__), any_iterable=any_iterable)
    for i, value in enumerate(values):
        name = item.format(i=i) if "{i}" in item else f"{item} {i}"
        if not isinstance(value, str):
            raise ValueError(not_a_str.format(what=what, name=name, type=type(value).__name__))
        if unicode:
            check_unicode(value, name)
        if nonblank and not value.strip():
            raise ValueError(f"{name} is empty")
    return tuple(values)


def check_limit(limit) -> None:
    """``limit`` (how many documents at most) is None or a positive int (not a bool); else a ValueError."""
    if limit is not None and (isinstance(limit, bool) or not isinstance(limit, int) or limit < 1):
        raise ValueError(f"limit must be a positive integer, got {limit!r}")


def check_n_segments(n_segments, n: int | None = None):
    """``n_segments`` as the whole package takes it: "auto", or an int from 1 to ``n`` (the number of units, when
    known). One message per mistake, wherever it is made (``BPSeg``, ``segment_text``, ``prune``, the CLI)."""
    if isinstance(n_segments, str) and n_segments == "auto":
        return n_segments
    if isinstance(n_segments, (bool, np.bool_)) or not isinstance(n_segments, (int, np.integer)) or n_segments < 1:
        raise ValueError(f"n_segments must be a positive int or 'auto', got {n_segments!r}")
    if n is not None and n_segments > n:
        raise ValueError(f"n_segments={n_segments} is larger than the number of sentences ({n})")
    return int(n_segments)
