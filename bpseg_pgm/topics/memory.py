"""How much memory a fit will need, estimated from its sizes before anything large is allocated.

A fit that does not fit is refused in a millisecond with the number of GiB it needs, not by NumPy's MemoryError or
the out-of-memory killer. The big allocations follow from n (sentences), d (dimensions), K (labels) and m (edges):
the edge list, the couplings, the messages (per engine) and the similarity matrices (:func:`estimate_fit_memory`).
The estimate is on the high side of what was measured (within a factor of about 1.5), and the check refuses only
what would take more than 90% of the memory available now.
"""

from __future__ import annotations

import numbers

import numpy as np

from bpseg_pgm.inference.engine import REGISTRY, Engine
from bpseg_pgm.policy import DEFAULT_POLICY, Policy
from bpseg_pgm.utils.memory import available_bytes  # called as this module's global: tests patch it here

from .defaults import auto_labels

__all__ = ["FitMemory", "estimate_fit_memory", "check_fit_memory", "planned_edges", "planned_labels", "available_bytes"]

GiB = 2**30
_FLOAT = 8
_EDGE_BYTES = 48  # triu_indices (2 x int64) + stack + astype at the peak
_COUPLING_BYTES = 6 * _FLOAT
_MARGIN = 0.9
#: Below this the check does not even read /proc/meminfo.
_SMALL = 64 * 2**20


def planned_labels(n: int, n_segments="auto", init="farthest", *, policy: Policy) -> int:
    """K, the number of labels BP will run with: n for ``init="all"``, len(init) for explicit indices."""
    if isinstance(init, str):
        if init == "all":
            return n
    elif init is not None:
        return max(1, int(np.size(init)))
    if isinstance(n_segments, str):
        return max(1, auto_labels(n, policy.auto_max_segments, policy.auto_segments_per_root))
    if isinstance(n_segments, numbers.Integral) and not isinstance(n_segments, bool):
        return max(1, min(int(n_segments), n))
    return 1  # invalid values are refused by the estimator's own checks


def planned_edges(n: int, neighbors="auto", sigma: float | None = None, *, policy: Policy) -> int | None:
    """Upper bound on the number of edges (pairs i < j) a fit will use; None if unknown (a callable)."""
    complete = n * (n - 1) // 2
    if neighbors is None or (isinstance(neighbors, str) and neighbors == "all"):
        return complete
    if isinstance(neighbors, str):  # "auto" (anything else is refused by the estimator)
        if n <= policy.topic_dense_units:
            return complete
        width = 10 if sigma is None else int(np.ceil(np.sqrt(27.6 * float(sigma))))
        width = min(width, n - 1)
        window = width * n - width * (width + 1) // 2
        return min(complete, window + policy.topic_sparse_neighbors * n)
    if callable(neighbors):
        return None
    try:
        return min(complete, len(neighbors))
    except TypeError:
        return None


class FitMemory(dict):
    """Bytes per part of a fit (``edges``, ``couplings``, ``messages``, ``similarity``, ``embeddings``)."""

    @property
    def total(self) -> int:
        return int(sum(self.values()))

    def describe(self) -> str:
        parts = ", ".join(f"{name} {nbytes / GiB:.1f}" for name, nbytes in self.items() if nbytes >= 0.05 * GiB)
        return f"{self.total / GiB:.1f} GiB" + (f" ({parts} GiB)" if parts else "")


def _engine_class(engine) -> type:
    """The Engine class of ``engine`` (a registered name or alias, an Engine, or its class); the base class, whose
    estimate is two messages per edge, for a name that is not registered."""
    if isinstance(engine, str):
        import bpseg_pgm.inference.engines  # noqa: F401  (the built-ins register themselves there)

        return REGISTRY.get(engine, Engine)
    return engine if isinstance(engine, type) else type(engine)


def estimate_fit_memory(n: int, d: int, k: int, m: int | None, engine="potts") -> FitMemory:
    """Peak bytes of a fit with n sentences of dimension d, k labels, m edges (None: unknown) and ``engine`` (a name,
    an Engine or its class: its messages are the engine's own estimate, :meth:`Engine.memory
    <bpseg_pgm.inference.engine.Engine.memory>`)."""
    n, d, k = int(n), int(d), int(k)
    complete = n * (n - 1) // 2
    m_known = 0 if m is None else int(m)
    dense = m is not None and n > 1 and m_known >= complete
    nn = n * n * _FLOAT
    est = FitMemory()
    est["embeddings"] = 6 * n * d * _FLOAT  # input, normalised, context-mixed, representatives
    est["edges"] = m_known * _EDGE_BYTES
    est["couplings"] = m_known * _COUPLING_BYTES + (nn if m_known * 8 >= n * n else 0)  # + the cosine matrix
    est["messages"], est["couplings"] = _engine_class(engine).memory(n, k, m_known, dense, est["couplings"])
    est["similarity"] = 3 * k * k * _FLOAT + 8 * n * k * _FLOAT  # merging labels; beliefs, unary, copies
    return est


def _advice(n: int, k: int, m: int | None, init, neighbors, engine: str) -> str:
    tips = []
    if m is not None and n > 1 and m >= n * (n - 1) // 2 and n > 400:
        tips.append("a sparse graph (neighbors='auto', the default, or bpseg_pgm.graph.sparse_pairs)")
    if isinstance(init, str) and init == "all":
        tips.append("fewer labels (n_segments=..., not init='all')")
    elif k > 40:
        tips.append("fewer labels (n_segments)")
    if engine in ("loopy", "exact", "reference"):
        tips.append("engine='potts'")
    tips.append("a shorter document")
    return "use " + ", or ".join(tips)


def check_fit_memory(
    n: int,
    d: int,
    *,
    n_segments="auto",
    init="farthest",
    neighbors="auto",
    sigma: float | None = None,
    engine="potts",
    available: int | None = None,
    policy: Policy = DEFAULT_POLICY,
) -> FitMemory:
    """Refuse, before any large allocation, a fit that would not fit in the memory available.

    Takes the estimator's own parameters (``sigma`` as resolved for the model, None for no decay; ``engine`` a name
    or the Engine itself, whose :meth:`~bpseg_pgm.inference.engine.Engine.memory` counts its messages). Returns the
    estimate; raises ValueError naming the GiB needed, the GiB available and what to change.
    """
    k = planned_labels(n, n_segments, init, policy=policy)
    m = planned_edges(n, neighbors, sigma, policy=policy)
    est = estimate_fit_memory(n, d, k, m, engine)
    engine = engine if isinstance(engine, str) else getattr(engine, "name", None) or "custom"
    if est.total < _SMALL:
        return est
    free = available_bytes() if available is None else available
    if free is not None and est.total > _MARGIN * free:
        edges = "unknown number of" if m is None else f"{m:,}"
        raise ValueError(
            f"fitting {n:,} sentences with {k:,} labels on {edges} edges (engine '{engine}') needs about "
            f"{est.describe()} but only {free / GiB:.1f} GiB of memory is available; "
            f"{_advice(n, k, m, init, neighbors, engine)}"
        )
    return est
