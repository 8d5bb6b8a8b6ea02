"""``"potts"``: sum-product on Potts factors with the Potts kernel (the default engine)."""

from __future__ import annotations

from ..engine import Engine, register_engine
from ..kernels.potts import potts_bp, potts_log_partition


@register_engine("potts")
class PottsEngine(Engine):
    """Loopy sum-product with the Potts kernel: O(|E| k) a sweep, no factor objects.

    ``damping`` in [0, 1): geometric damping of messages; ``backend``: "compiled" (numba sweeps) or "numpy" (the
    readable path, same messages). ``log_partition`` is the Bethe estimate (exact on trees). On a problem made with
    ``on_network=True`` (the grouping of runs) it builds the pgmpy network and infers through pgmpy's ``Inference``
    API (:class:`~bpseg_pgm.inference.kernels.potts_network.PottsBeliefPropagation`, ``extra["inference"]``).
    """

    @classmethod
    def memory(cls, n, k, m, dense, couplings):
        """Dense: an (n, n, k) message array, and W, scale, offset and extremes as n x n; else 2m messages."""
        if dense:
            return n * n * k * 8, couplings + 6 * n * n * 8
        return 2 * m * k * 8, couplings

    def __init__(self, damping=0.0, backend="compiled"):
        self.damping = damping
        self.backend = backend

    def infer(self, problem):
        if problem.on_network:  # the problem's pgmpy network, solved through pgmpy's Inference API, same kernel
            from ..kernels.potts_network import PottsBeliefPropagation  # loads pgmpy on first use

            inf = PottsBeliefPropagation(
                problem.network(), max_iter=problem.max_iter, tol=problem.tol, damping=self.damping,
                backend=self.backend,
            )  # fmt: skip
            res = inf.run(callback=problem.callback)
            index = {name: i for i, name in enumerate(inf.variable_order)}
            order = [index[f"s{i}"] for i in range(problem.n)]
            return self.result(
                res.beliefs[order], res.n_iter, res.converged, res.deltas,
                log_partition=lambda: inf.bethe_log_partition(res), inference=inf,
            )  # fmt: skip
        res = potts_bp(
            problem.log_unary, problem.u, problem.v, problem.coupling(), max_iter=problem.max_iter,
            tol=problem.tol, damping=self.damping, callback=problem.callback, backend=self.backend,
        )  # fmt: skip

        def log_z():
            return potts_log_partition(problem.log_unary, problem.u, problem.v, problem.coupling(), res)

        return self.result(res.beliefs, res.n_iter, res.converged, res.deltas, log_partition=log_z)
