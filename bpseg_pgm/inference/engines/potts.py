"""``"potts"``: sum-product on Potts factors with the Potts kernel (the default engine)."""

from __future__ import annotations

import numpy as np

from ..bethe import bethe_log_partition
from ..engine import Engine, register_engine
from ..potts import potts_bp
from ..potts.layouts import EdgeLayout


def potts_bethe(problem, res) -> float:
    """The Bethe log Z from a :func:`potts_bp` result, whichever message layout it used."""
    n, k = problem.n, problem.k
    u, v = problem.u, problem.v
    msgs = res.log_messages
    if msgs.shape[0] == n * n and n > 1 and u.size == n * (n - 1) // 2:  # the dense (n, n, k) layout
        incoming = msgs.reshape(n, n, k).sum(axis=0)
        slot_uv, slot_vu = u * n + v, v * n + u
    else:  # EdgeLayout: u -> v in slot e, v -> u in slot e + m
        incoming = EdgeLayout(n, u, v).incoming(msgs)
        slot_uv, slot_vu = np.arange(u.size), np.arange(u.size) + u.size
    log_b = problem.log_unary + incoming
    return bethe_log_partition(problem.log_unary, u, v, log_b, msgs, slot_uv, slot_vu,
                               log_coupling=problem.coupling())


@register_engine("potts")
class PottsEngine(Engine):
    """Loopy sum-product with the Potts kernel: O(|E| k) a sweep, no factor objects.

    ``damping`` in [0, 1): geometric damping of messages; ``backend``: "compiled" (numba
    sweeps) or "numpy" (the readable path, same messages). ``log_partition`` is the Bethe
    estimate (exact on trees).
    """

    def __init__(self, damping=0.0, backend="compiled"):
        self.damping = damping
        self.backend = backend

    def infer(self, problem):
        res = potts_bp(
            problem.log_unary, problem.u, problem.v, problem.coupling(), max_iter=problem.max_iter,
            tol=problem.tol, damping=self.damping, callback=problem.callback, backend=self.backend,
        )  # fmt: skip
        return self.result(res.beliefs, res.n_iter, res.converged, res.deltas, log_partition=lambda: potts_bethe(problem, res))
