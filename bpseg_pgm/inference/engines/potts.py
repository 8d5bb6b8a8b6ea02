"""``"potts"``: sum-product on Potts factors with the Potts kernel (the default engine)."""

from __future__ import annotations

from ..engine import Engine, register_engine
from ..kernels.potts import potts_bp, potts_log_partition


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

        def log_z():
            return potts_log_partition(problem.log_unary, problem.u, problem.v, problem.coupling(), res)

        return self.result(res.beliefs, res.n_iter, res.converged, res.deltas, log_partition=log_z)
