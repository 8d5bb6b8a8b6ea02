"""Where a run may start: every unit on short documents, the boundaries of binary segmentation on long ones.

The segmental programme is exact over a set of candidate boundary positions, in O(K m^2) time and O(m^2)
memory for m candidates. On a document of more than ``Policy.max_candidates`` units the candidates are the first
``Policy.max_candidates`` boundaries of greedy binary segmentation with the same cost (:func:`binary_segmentation`;
Scott & Knott 1974, the ``Binseg`` of ``ruptures``, vectorised and weighted): coarse to fine, each split one pass
over prefix sums. Past them the programme is solved in windows (:mod:`bpseg_pgm.runs.windows`). A document whose
own structure says where runs may start (``starts``) is cut there only, binary segmentation trying splits at the
starts alone.
"""

from __future__ import annotations

import heapq

import numpy as np

__all__ = ["binary_segmentation", "candidate_positions", "check_starts", "window_size"]

#: Rows per block when a split is scanned (bounds the temporaries to this many x d floats).
_BLOCK = 8192


class _Prefix:
    """Prefix sums of the weighted rows: P (n+1, d), W (n+1,), and the scatter of any run from them."""

    def __init__(self, P: np.ndarray, W: np.ndarray):
        self.P, self.W = P, W

    @classmethod
    def of(cls, F: np.ndarray, w: np.ndarray) -> _Prefix:
        """The prefix sums of the rows F (n, d) weighted by w (n,)."""
        F = np.asarray(F, dtype=np.float64)
        w = np.asarray(w, dtype=np.float64)
        n, d = F.shape
        P = np.zeros((n + 1, d))
        np.cumsum(F * w[:, None], axis=0, out=P[1:])
        return cls(P, np.concatenate([[0.0], np.cumsum(w)]))

    def restricted(self, positions: np.ndarray) -> _Prefix:
        """The same sums read only at ``positions`` (0, the allowed starts, n): each stretch between two of
        them one block, so a split falls at an allowed start only and each block's cost is unchanged."""
        return _Prefix(self.P[positions], self.W[positions])

    def explained(self, a: int, b: int) -> float:
        """|sum of the run's weighted rows|^2 / its weight: what the run's mean explains (0 for no weight)."""
        wt = self.W[b] - self.W[a]
        if wt <= 0:
            return 0.0
        diff = self.P[b] - self.P[a]
        return float(diff @ diff) / wt

    def best_split(self, a: int, b: int) -> tuple[float, int]:
        """The split a < t < b that lowers the run's cost most, and by how much (0, -1 when none does)."""
        if b - a < 2:
            return 0.0, -1
        whole = self.explained(a, b)
        best_gain, best_t = 0.0, -1
        for lo in range(a + 1, b, _BLOCK):
            hi = min(lo + _BLOCK, b)
            t = np.arange(lo, hi)
            left = self.P[lo:hi] - self.P[a]
            right = self.P[b] - self.P[lo:hi]
            wl = self.W[lo:hi] - self.W[a]
            wr = self.W[b] - self.W[lo:hi]
            with np.errstate(divide="ignore", invalid="ignore"):
                gain = (
                    np.where(wl > 0, np.einsum("ij,ij->i", left, left) / np.where(wl > 0, wl, 1.0), 0.0)
                    + np.where(wr > 0, np.einsum("ij,ij->i", right, right) / np.where(wr > 0, wr, 1.0), 0.0)
                    - whole
                )
            j = int(np.argmax(gain))
            if gain[j] > best_gain:
                best_gain, best_t = float(gain[j]), int(t[j])
        return best_gain, best_t


def binary_segmentation(
    F: np.ndarray, weights: np.ndarray, max_boundaries: int, starts: np.ndarray | None = None
) -> np.ndarray:
    """Up to ``max_boundaries`` boundaries (unit indices where a run starts, 1..n-1) in the order greedy
    binary segmentation finds them, coarse to fine: the first k-1 split the document into k runs.

    Splitting stops early when no run can be split with a gain (e.g. identical rows). Ties go to
    the earliest position, so the result is deterministic. ``starts`` (sorted, within 1..n-1, as
    :func:`check_starts` gives them; None: every position): the only positions where a split may fall.
    """
    F = np.asarray(F, dtype=np.float64)
    n = F.shape[0]
    prefix = _Prefix.of(F, weights)
    positions = None
    if starts is not None:
        positions = np.concatenate([[0], np.asarray(starts, dtype=np.int64), [n]])
        prefix, n = prefix.restricted(positions), positions.shape[0] - 1
    limit = max(0, min(int(max_boundaries), n - 1))
    if limit == 0:
        return np.zeros(0, dtype=np.int64)
    heap: list[tuple[float, int, int, int]] = []

    def push(a: int, b: int) -> None:
        gain, t = prefix.best_split(a, b)
        if t >= 0 and gain > 1e-12:
            heapq.heappush(heap, (-gain, a, b, t))

    push(0, n)
    found: list[int] = []
    while heap and len(found) < limit:
        _, a, b, t = heapq.heappop(heap)
        found.append(t)
        push(a, t)
        push(t, b)
    found = np.asarray(found, dtype=np.int64)
    return found if positions is None else positions[found]


def candidate_positions(
    F: np.ndarray,
    weights: np.ndarray,
    max_candidates: int,
    hierarchy: np.ndarray | None = None,
    starts: np.ndarray | None = None,
) -> np.ndarray:
    """Sorted positions 0 = p_0 < ... < p_m = n where runs may start (and the document end): every position when
    n <= ``max_candidates``, else 0, n and the first ``max_candidates`` - 1 boundaries of :func:`binary_segmentation`
    (``hierarchy``: its boundaries when already computed). ``starts``: the only positions where a run may start (the
    document's own structure: its paragraphs or sections, :func:`check_starts`), used as they are when there are at
    most ``max_candidates`` of them, else the first ``max_candidates`` - 1 boundaries of binary segmentation among
    them (``hierarchy``, when given, must have been found among them)."""
    n = int(np.asarray(F).shape[0])
    if starts is not None and len(starts) <= max_candidates:
        return np.unique(np.concatenate([[0, n], np.asarray(starts, dtype=np.int64)])).astype(np.int64)
    if n <= max_candidates:
        return np.arange(n + 1, dtype=np.int64)
    inner = (
        binary_segmentation(F, weights, max_candidates - 1, starts)
        if hierarchy is None
        else hierarchy[: max_candidates - 1]
    )
    return np.unique(np.concatenate([[0, n], inner])).astype(np.int64)


def window_size(n: int, max_candidates: int, window: int) -> int:
    """Units per window at most for n units: ``window``, wider on a document so long that its windows would
    outnumber half the candidates (the windows are cut at the candidates' boundaries). ``max_candidates`` and
    ``window``: the search's (``Policy.max_candidates``, ``Policy.window``)."""
    return max(int(window), int(np.ceil(4 * int(n) / max(int(max_candidates), 1))))


def check_starts(starts, n: int) -> np.ndarray | None:
    """``starts`` (the positions where a run may start: a document's paragraphs or sections) as a sorted int
    array within 1..n-1 (0 is always a start), or None for every position. A ValueError when one lies outside."""
    if starts is None:
        return None
    s = np.unique(np.asarray(starts, dtype=np.int64).reshape(-1))
    if s.size and (s[0] < 0 or s[-1] >= n):
        raise ValueError(f"run starts must lie in 0..{n - 1}, got {int(s[0])}..{int(s[-1])}")
    return s[s > 0]
