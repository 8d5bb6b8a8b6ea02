"""How much memory the runs model's segmental programme needs, checked before it allocates.

The programme works on (n+1) x (n+1) float64 matrices: the cost matrix and, while it is built,
the Gram matrix of prefix sums and its temporaries, then one (n+1)^2 candidate matrix per number
of runs. Measured peak (tracemalloc, ``choose_structure`` on random rows): 9.4 such matrices at
n = 1000, 7.4 at 2000, 7.2 at 3000; the estimate takes 8 plus 64 MiB. Without the check a 20,000-
unit document asked for about 24 GiB and ended in a segfault (issue 22); now it is one ValueError.
"""

from __future__ import annotations

from bpseg_pgm.utils import memory as memory_probe

__all__ = ["MATRICES", "check_runs_memory", "estimate_runs_memory"]

GiB = 2**30
#: (n+1)^2 float64 matrices alive at the programme's peak (measured, rounded up).
MATRICES = 8
_BASE = 64 * 2**20
#: Below this the check does not read /proc/meminfo.
_SMALL = 256 * 2**20
_MARGIN = 0.9


def estimate_runs_memory(n: int) -> int:
    """Peak bytes of the segmental programme on n units."""
    return MATRICES * (int(n) + 1) ** 2 * 8 + _BASE


def check_runs_memory(n: int, available: int | None = None) -> int:
    """The estimate for n units; ValueError naming the GiB needed and available when it would not fit."""
    need = estimate_runs_memory(n)
    if need < _SMALL:
        return need
    free = memory_probe.available_bytes() if available is None else available
    if free is not None and need > _MARGIN * free:
        raise ValueError(
            f"the runs model on {n:,} units needs about {need / GiB:.1f} GiB (its segmental programme is quadratic "
            f"in the length) but only {free / GiB:.1f} GiB of memory is available; use structure='topics', or "
            "split the document"
        )
    return need
