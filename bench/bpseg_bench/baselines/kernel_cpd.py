"""Kernel change-point detection (``ruptures.KernelCPD``) on the sentence embeddings.

The modern unsupervised contiguous anchor: exact dynamic programming (or PELT with a penalty)
over a kernel's within-segment scatter (Arlot, Celisse & Harchaoui 2019; Embed-KCPD applies it
to sentence embeddings). Two forms:

* ``n_segments=k``: the best segmentation into exactly k contiguous segments (true k);
* ``penalty=beta``: PELT with a penalty per change point, scaled here by the number of units
  so one value serves documents of every length: ``pen = beta * n`` on the cosine kernel
  (the cost of a segment is its size times one minus its mean pairwise cosine, so it grows
  with n). ``beta`` was chosen on the development sets.
"""

from __future__ import annotations

import numpy as np

from bpseg_bench.baselines._validation import check_embeddings

#: Penalty per change point, relative to the number of units (chosen on Choi set 1 + QMSum train).
DEFAULT_PENALTY = 0.03
#: The kernels ``ruptures.KernelCPD`` knows.
KERNELS = ("linear", "rbf", "cosine")


class KernelCPD:
    """Contiguous segments from ``ruptures.KernelCPD`` with the cosine kernel."""

    def __init__(
        self, n_segments: int | None = None, penalty: float | None = None, kernel: str = "cosine", min_size: int = 2
    ):
        self.n_segments = n_segments
        self.penalty = penalty
        self.kernel = kernel
        self.min_size = min_size

    def _check_params(self) -> tuple[int | None, float | None]:
        """n_segments or the penalty, checked before anything else (also for short documents)."""
        if self.n_segments is not None and self.penalty is not None:
            raise ValueError("give n_segments or penalty, not both")
        if self.kernel not in KERNELS:  # ruptures itself would fail an assert
            raise ValueError(f"kernel must be one of {KERNELS}, got {self.kernel!r}")
        if self.n_segments is not None:
            k = self.n_segments
            if isinstance(k, bool) or not isinstance(k, (int, np.integer)) or k < 1:
                raise ValueError(f"n_segments must be a positive integer, got {k!r}")
            return int(k), None
        beta = DEFAULT_PENALTY if self.penalty is None else self.penalty
        if (
            isinstance(beta, bool)
            or not isinstance(beta, (int, float, np.integer, np.floating))
            or not beta > 0
            or not np.isfinite(beta)
        ):
            raise ValueError(f"penalty must be a finite number > 0, got {self.penalty!r}")
        return None, float(beta)

    def fit_predict(self, X) -> np.ndarray:
        from bpseg_bench.extras import require

        ruptures = require("ruptures", "the KernelCPD baseline")
        X = check_embeddings(X)
        k, beta = self._check_params()
        m = self.min_size
        if isinstance(m, bool) or not isinstance(m, (int, np.integer)) or m < 1:
            raise ValueError(f"min_size must be a positive integer, got {m!r}")
        n = X.shape[0]
        min_size = max(1, min(int(m), n // 2 or 1))
        if n < 2 * min_size:
            self.labels_ = np.zeros(n, dtype=np.int64)
            return self.labels_
        algo = ruptures.KernelCPD(kernel=self.kernel, min_size=min_size).fit(X)
        if k is not None:
            k = min(k, n // min_size)
            bkps = algo.predict(n_bkps=k - 1) if k > 1 else [n]
        else:
            bkps = algo.predict(pen=beta * n)
        labels = np.zeros(n, dtype=np.int64)
        for j, b in enumerate(bkps[:-1]):
            labels[b:] = j + 1
        self.labels_ = labels
        return labels
