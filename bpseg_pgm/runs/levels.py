"""Every granularity at once: the best split into 1..K runs, kept so that any level can be read back.

:class:`Levels` holds what the segmental programme (:mod:`bpseg_pgm.runs.costs`) computed once over the
candidate positions (:mod:`bpseg_pgm.runs.candidates`): the best total cost with k runs for every k up
to ``max_runs`` and the arg-min table. :meth:`Levels.labels` reads the split into k runs back in
O(k), so a fitted document can be re-cut at another number of runs without refitting.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

__all__ = ["Levels"]


@dataclass(frozen=True)
class Levels:
    """The segmental programme's result: ``positions`` (m+1,) candidate boundaries 0..n, ``costs`` (K+1,)
    best total cost with k runs (index k; inf where impossible), ``arg`` (K+1, m+1) its arg-min table."""

    positions: np.ndarray
    costs: np.ndarray
    arg: np.ndarray

    @property
    def n_units(self) -> int:
        return int(self.positions[-1])

    @property
    def max_runs(self) -> int:
        """The most runs that can be read back."""
        return int(self.costs.shape[0] - 1)

    def starts(self, k: int) -> np.ndarray:
        """Unit indices where the k runs of the best split start (the first is 0)."""
        k = int(k)
        if not 1 <= k <= self.max_runs or not np.isfinite(self.costs[k]):
            raise ValueError(f"the levels hold 1 to {self.max_runs} runs, got {k}")
        m = self.positions.shape[0] - 1
        idx = [m]
        for kk in range(k, 0, -1):
            idx.append(int(self.arg[kk, idx[-1]]))
        return self.positions[np.asarray(idx[::-1][:-1], dtype=np.int64)]

    def labels(self, k: int) -> np.ndarray:
        """Labels 0..k-1, one contiguous run each, of the best split into k runs."""
        labels = np.zeros(self.n_units, dtype=np.int64)
        for j, start in enumerate(self.starts(k)[1:], start=1):
            labels[start:] = j
        return labels
