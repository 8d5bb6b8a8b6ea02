"""KernelCPD with its penalty chosen without labels: the automatic KCPD a user would run (Embed-KCPD).

Embed-KCPD (Jia & Diaz-Rodriguez 2026, "Unsupervised Text Segmentation via Kernel Change-Point
Detection on Sentence Embeddings", arXiv 2601.18788) minimises the kernel within-segment scatter
of the sentence embeddings plus a penalty per change point, solved by PELT, with the penalty
``beta_T = C * sqrt(T log T)`` for a document of T units, and picks the constant C without labels
by an elbow rule. The paper's text reachable from here gives the penalty's form and says that C
is taken at an elbow; it does not spell the elbow out, so the rule below is our reading of it,
the usual knee criterion (Kneedle, Satopaa et al. 2011) on the curve the paper's rule looks at:

1. solve the penalised problem for every C of a log-spaced grid (``DEFAULT_C_GRID``, 1e-4 to 10,
   51 values) and count the change points K(C), a non-increasing step function of C;
2. keep the part of the grid where K changes: drop the leading values of C that still give the
   largest count (every segment at ``min_size``) and the trailing ones that give no change point,
   keeping one of each, so the choice does not depend on how far the grid reaches beyond where
   anything happens;
3. rescale that part to the unit square, x = log C and y = K, each from 0 to 1; the chord from the
   first point (1 at x = 0) to the last (0 at x = 1) is y = 1 - x;
4. the elbow is the C whose point lies farthest below that chord (max of 1 - x - y; ties go to
   the smaller C): where the steep fall of K with C (change points that only fit noise vanish
   quickly) gives way to the slow one (real boundaries survive a wide range of penalties).

If K is the same over the whole grid, that segmentation is returned (at the smallest C). The
curve is read per document, from its embeddings alone; nothing is tuned on gold labels.

Cost: ruptures' ``KernelCPD`` is fitted once and ``predict(pen=...)`` is called per C (ruptures
runs its C implementation of PELT each time; its ``jump`` is fixed at 1, so ``min_size`` is the
knob). The number of change points never grows with the penalty (the penalised optimum is exact),
so the grid is walked upwards and stops at the first C with no change point: the large penalties,
where PELT prunes least and a call costs most (about 0.6 s at 1830 units on MiniLM embeddings,
against 0.04 s at 470), are not solved. A document costs one PELT run per grid value up to there.
"""

from __future__ import annotations

import numpy as np

from bpseg_bench.baselines._validation import check_embeddings

__all__ = ["DEFAULT_C_GRID", "KERNELS", "KCPDAuto", "elbow_index", "penalty_scale"]

#: The kernels offered: cosine (bandwidth-free on sentence embeddings) and rbf (median heuristic bandwidth).
KERNELS = ("cosine", "rbf")
#: The constants C tried, log-spaced; a wide range, since the elbow only reads where K(C) changes.
DEFAULT_C_GRID = tuple(float(c) for c in np.logspace(-4, 1, 51))


def penalty_scale(n: int) -> float:
    """``sqrt(T log T)`` for T = n units, the factor Embed-KCPD multiplies C by (0 for n < 2)."""
    return float(np.sqrt(n * np.log(n))) if n >= 2 else 0.0


def elbow_index(c_grid, counts) -> int:
    """Index of the elbow of the curve (log C, K(C)): see the module docstring, steps 2-4.

    Parameters
    ----------
    c_grid : array-like of float
        Increasing positive constants C.
    counts : array-like of int
        The number of change points at each C (non-increasing).

    Returns
    -------
    int
        Index into ``c_grid`` of the chosen C.
    """
    c = np.asarray(c_grid, dtype=np.float64)
    k = np.asarray(counts, dtype=np.float64)
    if k[0] == k[-1]:
        return 0
    lo = int(np.flatnonzero(k == k[0])[-1])  # last C still at the largest count
    hi = int(np.flatnonzero(k == 0)[0]) if k[-1] == 0 else k.size - 1  # first C with no change point
    x = np.log(c[lo : hi + 1])
    x = (x - x[0]) / (x[-1] - x[0])
    y = (k[lo : hi + 1] - k[-1]) / (k[0] - k[-1])
    below = 1.0 - x - y
    return lo + int(np.flatnonzero(below >= below.max() - 1e-9)[0])  # ties (up to rounding): the smaller C


class KCPDAuto:
    """Automatic KernelCPD: PELT with penalty ``C * sqrt(T log T)``, C at the elbow of K(C).

    Parameters
    ----------
    kernel : {"cosine", "rbf"}, default "cosine"
        The kernel on the sentence embeddings (rbf: ruptures' median-heuristic bandwidth).
    min_size : int, default 2
        Fewest units in a segment (cut to ``n // 2`` on short documents).
    c_grid : sequence of float, optional
        The constants C tried, at least 3, positive, finite and strictly increasing
        (default :data:`DEFAULT_C_GRID`).

    Attributes
    ----------
    labels_ : ndarray of int64, shape (n,)
        Contiguous segment labels 0, 0, ..., 1, 1, ...
    c_ : float
        The chosen constant C (nan when the document is too short to cut).
    penalty_ : float
        The penalty per change point used, ``c_ * sqrt(T log T)``.
    c_grid_ : ndarray
        The grid of C.
    n_change_points_ : ndarray of int
        K(C) over the grid (empty when the document is too short to cut).
    """

    def __init__(self, kernel: str = "cosine", min_size: int = 2, c_grid=None):
        self.kernel = kernel
        self.min_size = min_size
        self.c_grid = c_grid

    def _check_params(self) -> tuple[int, np.ndarray]:
        if self.kernel not in KERNELS:
            raise ValueError(f"kernel must be one of {KERNELS}, got {self.kernel!r}")
        m = self.min_size
        if isinstance(m, bool) or not isinstance(m, (int, np.integer)) or m < 1:
            raise ValueError(f"min_size must be a positive integer, got {m!r}")
        grid = DEFAULT_C_GRID if self.c_grid is None else self.c_grid
        try:
            c = np.asarray(grid, dtype=np.float64)
        except (TypeError, ValueError):
            raise ValueError(f"c_grid must be a sequence of numbers, got {grid!r}") from None
        if c.ndim != 1 or c.size < 3 or not np.all(np.isfinite(c)) or not np.all(c > 0) or not np.all(np.diff(c) > 0):
            raise ValueError(f"c_grid must hold at least 3 finite, positive, strictly increasing numbers, got {grid!r}")
        return int(m), c

    def fit(self, X, y=None) -> KCPDAuto:
        """Segment the rows of ``X`` (sentence embeddings in document order); returns self."""
        X = check_embeddings(X)
        m, c_grid = self._check_params()
        from bpseg_bench.extras import require

        ruptures = require("ruptures", "the kcpd-auto baseline")
        n = X.shape[0]
        min_size = max(1, min(m, n // 2 or 1))
        self.c_grid_ = c_grid
        if n < 2 * min_size:
            self.c_, self.penalty_ = float("nan"), float("nan")
            self.n_change_points_ = np.zeros(0, dtype=np.int64)
            self.labels_ = np.zeros(n, dtype=np.int64)
            return self
        algo = ruptures.KernelCPD(kernel=self.kernel, min_size=min_size).fit(X)  # fitted once, solved per C
        scale = penalty_scale(n)
        solutions: list[list[int]] = []
        for c in c_grid:  # increasing C: once no change point is left, every larger C gives none either
            solutions.append(solutions[-1] if solutions and len(solutions[-1]) == 1 else algo.predict(pen=c * scale))
        self.n_change_points_ = np.array([len(b) - 1 for b in solutions], dtype=np.int64)
        i = elbow_index(c_grid, self.n_change_points_)
        self.c_ = float(c_grid[i])
        self.penalty_ = self.c_ * scale
        labels = np.zeros(n, dtype=np.int64)
        for b in solutions[i][:-1]:
            labels[b:] += 1
        self.labels_ = labels
        return self

    def fit_predict(self, X, y=None) -> np.ndarray:
        """``fit(X)`` and return ``labels_``."""
        return self.fit(X).labels_
