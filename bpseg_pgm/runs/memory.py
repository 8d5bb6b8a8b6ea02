"""How much memory the runs model needs, checked before it allocates (one ValueError for what would not fit).

* the segmental programme: ``MATRICES`` (m+1) x (m+1) float64 matrices over m candidate positions;
* everything linear in the length: ``ROWS`` (n, d) float64 arrays;
* past the candidates, the programme in windows: one window's matrices at a time and the windows' int32 arg-min
  tables, kept (:func:`estimate_windows_memory` once the windows are cut; the bound
  :func:`estimate_windows_bound`, about 3 KiB per unit, before).
"""

from __future__ import annotations

import numpy as np

from bpseg_pgm.utils import memory as memory_probe

from .candidates import window_size

__all__ = [
    "MATRICES",
    "ROWS",
    "check_runs_memory",
    "check_windows_memory",
    "estimate_programme_memory",
    "estimate_runs_memory",
    "estimate_windows_bound",
    "estimate_windows_memory",
]

GiB = 2**30
#: (m+1)^2 float64 matrices alive at the programme's peak (measured, rounded up).
MATRICES = 8
#: (n, d) float64 arrays alive at the runs model's peak outside the programme (measured, rounded up).
ROWS = 10
_BASE = 64 * 2**20
#: Below this the check does not read /proc/meminfo.
_SMALL = 256 * 2**20
_MARGIN = 0.9


def estimate_programme_memory(m: int) -> int:
    """Peak bytes of the segmental programme over m candidate positions."""
    return MATRICES * (int(m) + 1) ** 2 * 8 + _BASE


def estimate_windows_memory(lengths, max_runs: int) -> int:
    """Bytes past the candidates for windows of the given lengths and ``max_runs`` runs: the windows' int32
    arg-min tables, kept (each at most (length + 1)^2), which window took each run, and the programme of
    the longest window while it is solved."""
    lengths = [int(x) for x in lengths]
    if not lengths:
        return 0
    tables = sum(4 * (x + 1) ** 2 for x in lengths) + 8 * (int(max_runs) + 1)
    return tables + estimate_programme_memory(max(lengths)) - _BASE


def estimate_windows_bound(n: int, max_candidates: int, window: int) -> int:
    """Bytes past the candidates at most, for n units (0 when the programme holds every position: n at most
    ``max_candidates``): windows of at most 3/2 ``window_size(n)`` units, at most 2 n / window + 1 of them, and up
    to n runs; linear in n. ``max_candidates`` and ``window``: the search's (``Policy.max_candidates``,
    ``Policy.window``)."""
    n = int(n)
    if n <= int(max_candidates):
        return 0
    window = window_size(n, max_candidates, window)
    longest = (3 * window) // 2
    count = int(np.ceil(2 * n / window)) + 1
    # sum over windows of (length + 1)^2 <= (longest + 1) x (n + count)
    tables = 4 * (longest + 1) * (n + count) + 8 * (n + 1)
    return tables + estimate_programme_memory(longest) - _BASE


def check_windows_memory(cuts, max_runs: int, available: int | None = None) -> int:
    """:func:`estimate_windows_memory` for the windows between ``cuts``; ValueError when it would not fit."""
    lengths = [b - a for a, b in zip(list(cuts)[:-1], list(cuts)[1:])]
    return _check(
        estimate_windows_memory(lengths, max_runs),
        available,
        f"its programme in {len(lengths):,} windows for {int(max_runs):,} runs",
    )


def estimate_runs_memory(n: int, d: int = 384, *, max_candidates: int, window: int) -> int:
    """Peak bytes of the runs model on n units of dimension d, searched with at most ``max_candidates`` candidate
    positions and windows of ``window`` units past them (``Policy.max_candidates``, ``Policy.window``)."""
    return (
        estimate_programme_memory(min(int(n), int(max_candidates)))
        + ROWS * int(n) * int(d) * 8
        + estimate_windows_bound(n, max_candidates, window)
    )


def check_runs_memory(
    n: int,
    d: int = 384,
    available: int | None = None,
    *,
    programme_only: bool = False,
    max_candidates: int | None = None,
    window: int | None = None,
) -> int:
    """The estimate for n units of dimension d (with ``programme_only``: n candidate positions, the programme alone;
    else the runs model searched with ``max_candidates`` and ``window``, the policy's, both required then: a TypeError
    without them); ValueError naming the GiB needed and available when it would not fit."""
    if not programme_only and (max_candidates is None or window is None):
        raise TypeError("check_runs_memory needs max_candidates and window (the policy's) unless programme_only")
    need = (
        estimate_programme_memory(n)
        if programme_only
        else estimate_runs_memory(n, d, max_candidates=max_candidates, window=window)
    )
    what = f"its segmental programme over {n:,} positions" if programme_only else f"the runs model on {n:,} units"
    return _check(need, available, what)


def _check(need: int, available: int | None, what: str) -> int:
    if need < _SMALL:
        return need
    free = memory_probe.available_bytes() if available is None else available
    if free is not None and need > _MARGIN * free:
        raise ValueError(
            f"{what} needs about {need / GiB:.1f} GiB but only {free / GiB:.1f} GiB of memory is available; "
            "split the document"
        )
    return need
