"""Every granularity at once: the best split into 1..K runs, kept so that any level can be read back.

:class:`Levels` holds what the segmental programme computed once over the candidate positions: the best total cost
with k runs for every k up to ``max_runs`` and the arg-min table, so a fitted document can be re-cut at another
number of runs without refitting. Past the programme's last level the levels come from the programme solved in
windows (:mod:`bpseg_pgm.runs.windows`).
"""

from __future__ import annotations

from dataclasses import dataclass, field

import numpy as np

from bpseg_pgm.utils.labels import bounds_labels

__all__ = ["Levels"]


@dataclass(frozen=True)
class Levels:
    """The segmental programme's result: ``positions`` (m+1,) candidate boundaries 0..n, ``costs`` (K+1,)
    best total cost with k runs (index k; inf where impossible), ``arg`` (P+1, m+1) its arg-min table for
    the programme's levels 1..P.

    Levels past P come from the programme in windows: ``windows``, each window's own levels, ``window_starts``
    (W,), the unit where each begins, and ``order``, the window that took each run past the first of every window
    (:func:`~bpseg_pgm.runs.windows.share_runs`)."""

    positions: np.ndarray
    costs: np.ndarray
    arg: np.ndarray
    windows: tuple[Levels, ...] | None = field(default=None, repr=False, compare=False)
    window_starts: np.ndarray | None = field(default=None, repr=False, compare=False)
    order: np.ndarray | None = field(default=None, repr=False, compare=False)

    @property
    def n_units(self) -> int:
        return int(self.positions[-1])

    @property
    def max_runs(self) -> int:
        """The most runs that can be read back."""
        return int(self.costs.shape[0] - 1)

    @property
    def programme_runs(self) -> int:
        """The most runs the programme placed over the candidates; past them, the windows."""
        return int(self.arg.shape[0] - 1)

    def starts(self, k: int) -> np.ndarray:
        """Unit indices where the k runs of the best split start (the first is 0)."""
        k = int(k)
        if not 1 <= k <= self.max_runs or not np.isfinite(self.costs[k]):
            raise ValueError(f"the levels hold 1 to {self.max_runs} runs, got {k}")
        if k > self.programme_runs:
            held = 1 + np.bincount(self.order[: k - len(self.windows)], minlength=len(self.windows))
            return np.concatenate(
                [start + window.starts(h) for start, window, h in zip(self.window_starts, self.windows, held)]
            )
        m = self.positions.shape[0] - 1
        idx = [m]
        for kk in range(k, 0, -1):
            idx.append(int(self.arg[kk, idx[-1]]))
        return self.positions[np.asarray(idx[::-1][:-1], dtype=np.int64)]

    def labels(self, k: int) -> np.ndarray:
        """Labels 0..k-1, one contiguous run each, of the best split into k runs."""
        return bounds_labels(np.append(self.starts(k), self.n_units))
