"""Document statistics along reading order: how long a topic's signal persists, how long a segment is, and the
smoothed features (:func:`smoothed_embeddings`); :func:`lagged_dot_means` is the FFT both statistics use."""

from __future__ import annotations

import numpy as np

from bpseg_pgm.policy import Policy
from bpseg_pgm.potentials.base import mean_pair_cosine
from bpseg_pgm.utils.validation import check_nonnegative, normalize_rows

__all__ = [
    "correlation_length",
    "lagged_dot_means",
    "persistence_halflife",
    "policy_correlation_length",
    "smoothed_embeddings",
]


def lagged_dot_means(R: np.ndarray, max_lag: int) -> np.ndarray:
    """For lags d = 1..max_lag, the mean over i of the dot product R_i . R_{i+d} (rows of R).

    One real FFT along reading order instead of a product per lag: O(d n log n) rather than
    O(d n max_lag), equal to the direct sums up to rounding.
    """
    from scipy.fft import irfft, next_fast_len, rfft

    R = np.asarray(R, dtype=np.float64)
    m = R.shape[0]
    max_lag = int(max_lag)
    if not 1 <= max_lag < m:
        raise ValueError(f"max_lag must be in [1, {m - 1}], got {max_lag}")
    size = next_fast_len(2 * m, real=True)
    spectrum = rfft(R, n=size, axis=0)
    power = (spectrum.real**2 + spectrum.imag**2).sum(axis=1)
    sums = irfft(power, n=size)[1 : max_lag + 1]  # sum over i of R_i . R_{i+d}
    return sums / (m - np.arange(1, max_lag + 1))


def persistence_halflife(X: np.ndarray) -> float:
    """Lag (in units) at which the excess similarity of units that far apart halves.

    The excess at lag d is the mean cosine of rows d apart minus the mean cosine of all pairs; its half-life measures
    how long a topic's signal persists in reading order. Lags up to a third of the document are examined
    (3-point smoothed); 1 when adjacent units are no more similar than average pairs.
    """
    R = normalize_rows(np.asarray(X, dtype=np.float64))
    n = R.shape[0]
    if n < 4:
        return 1.0
    mu = mean_pair_cosine(R)
    lags = np.arange(1, max(2, n // 3) + 1)
    excess = lagged_dot_means(R, lags[-1]) - mu
    if excess[0] <= 1e-9:  # not > 0 alone: identical rows leave a rounding excess of ~1e-16
        return 1.0
    smooth = np.convolve(excess, np.ones(3) / 3, mode="same")
    smooth[0] = excess[0]
    below = np.flatnonzero(smooth < excess[0] / 2)
    return float(lags[below[0]]) if below.size else float(lags[-1])


def smoothed_embeddings(
    X: np.ndarray, width: float, weights: np.ndarray | None = None, *, min_width: float
) -> np.ndarray:
    """Unit rows of the weighted Gaussian moving average of the unit rows of X.

    Row i becomes normalise(sum_j g(i - j) w_j R_j), g a Gaussian of standard deviation
    ``width`` units cut at 3 widths (the document's ends truncate it); ``weights`` (default 1)
    let informative units (long sentences, substantive meeting turns) count more than short
    ones. ``width`` below ``min_width`` (``Policy.smoothing_min_width``) returns the rows unsmoothed.
    """
    from scipy.ndimage import convolve1d

    R = normalize_rows(np.asarray(X, dtype=np.float64))
    width = check_nonnegative(width, "width")
    if width < min_width or R.shape[0] < 2:
        return R
    w = np.ones(R.shape[0]) if weights is None else np.asarray(weights, dtype=np.float64)
    r = int(min(np.ceil(3 * width), R.shape[0] - 1))  # past the document's length the kernel meets only zeros
    d = np.arange(-r, r + 1)
    kernel = np.exp(-0.5 * (d / width) ** 2)
    out = convolve1d(R * w[:, None], kernel, axis=0, mode="constant")
    norms = np.linalg.norm(out, axis=1, keepdims=True)
    degenerate = norms[:, 0] <= 1e-12
    out[degenerate] = R[degenerate]
    norms[degenerate] = 1.0
    return out / norms


def correlation_length(
    X: np.ndarray, weights: np.ndarray | None, window: int, *, min_weight: float, min_units: int
) -> float:
    """Lag (in units) at which the reading-order autocorrelation of the embeddings dies out.

    The rows are unit-normalised and centred on their mean; the autocorrelation at lag d is the mean of
    (R_i - m).(R_{i+d} - m) over i, 5-point smoothed, and its first lag at or below 0 is returned. For a document of
    unrelated passages of length L the autocorrelation falls roughly linearly to 0 at lag L, so this estimates the
    length of a segment (docs/research/real-documents.md).

    With ``weights`` only the substantive units (weight >= ``min_weight`` of the largest) are used, and the lag
    is scaled back to all units: short meeting turns ("Yeah .") resemble each other wherever they are and would
    hide the slow decay. Lags up to half the document are examined; at most that half (in units of the whole
    document) is returned, and the document's length when fewer than ``min_units`` units are substantive.

    A text of more than ``window`` substantive units is measured in equal windows of half ``window`` to ``window``,
    each centred on its own mean, and the median of their lags is returned: the correlation length is a local
    property, which the slow drift between the parts of a long text would hide (docs/research/granularity.md).
    """
    R = normalize_rows(np.asarray(X, dtype=np.float64))
    n = R.shape[0]
    if weights is not None:
        w = np.asarray(weights, dtype=np.float64)
        R = R[w >= min_weight * w.max()] if w.max() > 0 else R[:0]
    m = R.shape[0]
    if m < min_units:
        return float(n)
    n_windows = max(1, int(np.ceil(m / window)))
    bounds = np.linspace(0, m, n_windows + 1).round().astype(int)
    lag = float(np.median([_first_uncorrelated_lag(R[a:b]) for a, b in zip(bounds[:-1], bounds[1:])]))
    return lag * n / m


def _first_uncorrelated_lag(R: np.ndarray) -> float:
    """First lag (up to half the rows) at which the 5-point smoothed autocorrelation of the rows, centred
    on their mean, is at or below 0; half the rows when it never is."""
    R0 = R - R.mean(axis=0)
    lags = np.arange(1, R.shape[0] // 2 + 1)
    acf = lagged_dot_means(R0, lags[-1])
    smooth = np.convolve(acf, np.ones(5) / 5, mode="same")
    below = np.flatnonzero(smooth <= 0)
    return float(lags[below[0]]) if below.size else float(lags[-1])


def policy_correlation_length(X: np.ndarray, weights: np.ndarray | None, policy: Policy) -> float:
    """:func:`correlation_length` with the policy's numbers (``correlation_window``, ``correlation_min_weight``,
    ``correlation_min_units``)."""
    return correlation_length(
        X,
        weights,
        policy.correlation_window,
        min_weight=policy.correlation_min_weight,
        min_units=policy.correlation_min_units,
    )
