"""``"loopy"``: sum-product on the pgmpy network with
:class:`~bpseg_pgm.inference.kernels.loopy.LoopyBeliefPropagation`."""

from __future__ import annotations

from ..engine import Engine, register_engine


@register_engine("loopy")
class LoopyEngine(Engine):
    """Loopy sum-product on a real pgmpy ``DiscreteMarkovNetwork`` (any pairwise tables).

    ``damping`` in [0, 1). ``log_partition`` is the Bethe estimate; the ``Inference`` object
    is returned in ``extra["inference"]`` (``BPSeg.inference_``).
    """

    @classmethod
    def memory(cls, n, k, m, dense, couplings):
        """Two message buffers, exp and log k x k tables and their copies, and pgmpy's factor objects."""
        return 2 * 2 * m * k * 8 + 4 * m * k * k * 8 + m * 2000, couplings

    def __init__(self, damping=0.0):
        self.damping = damping

    def infer(self, problem):
        from ..kernels.loopy import LoopyBeliefPropagation  # loads pgmpy on first use

        inf = LoopyBeliefPropagation(
            problem.network(), max_iter=problem.max_iter, tol=problem.tol, damping=self.damping
        )
        res = inf.run(callback=problem.callback)
        index = {name: i for i, name in enumerate(inf.variable_order)}
        order = [index[f"s{i}"] for i in range(problem.n)]
        log_z = None if inf.padded else (lambda: inf.bethe_log_partition(res))
        return self.result(
            res.beliefs[order], res.n_iter, res.converged, res.deltas, log_partition=log_z, inference=inf
        )
