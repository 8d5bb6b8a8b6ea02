"""How much memory the runs model needs, checked before it allocates.

Two parts:

* the segmental programme works on (m+1) x (m+1) float64 matrices over m candidate positions
  (:mod:`bpseg_pgm.runs.candidates`: m = n up to ``MAX_CANDIDATES`` units, then ``MAX_CANDIDATES``):
  the cost matrix and, while it is built, the Gram matrix of prefix sums and its temporaries, then
  one candidate matrix per number of runs. Measured peak (tracemalloc, random rows): 9.4 such
  matrices at m = 1000, 7.4 at 2000; the estimate takes ``MATRICES``;
* everything linear in the length: the (n, d) rows in float64 (normalised, smoothed, their prefix
  sums, a null document's shuffled and smoothed copies, the statistics' FFT), ``ROWS`` of them.

Before the programme was bounded by candidates, a 20,000-unit document asked for about 24 GiB and
ended in a segfault (issue 22); the check turns what still would not fit into one ValueError.
"""

from __future__ import annotations

from bpseg_pgm.utils import memory as memory_probe

from .candidates import MAX_CANDIDATES

__all__ = ["MATRICES", "ROWS", "check_runs_memory", "estimate_programme_memory", "estimate_runs_memory"]

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


def estimate_runs_memory(n: int, d: int = 384) -> int:
    """Peak bytes of the runs model on n units of dimension d."""
    return estimate_programme_memory(min(int(n), MAX_CANDIDATES)) + ROWS * int(n) * int(d) * 8


def check_runs_memory(n: int, d: int = 384, available: int | None = None, *, programme_only: bool = False) -> int:
    """The estimate for n units of dimension d (with ``programme_only``: n candidate positions, the
    programme alone); ValueError naming the GiB needed and available when it would not fit."""
    need = estimate_programme_memory(n) if programme_only else estimate_runs_memory(n, d)
    if need < _SMALL:
        return need
    free = memory_probe.available_bytes() if available is None else available
    if free is not None and need > _MARGIN * free:
        what = f"its segmental programme over {n:,} positions" if programme_only else f"the runs model on {n:,} units"
        raise ValueError(
            f"{what} needs about {need / GiB:.1f} GiB but only {free / GiB:.1f} GiB of memory is available; "
            "split the document"
        )
    return need
