"""``"loopy"``: sum-product on the pgmpy network with :class:`~bpseg_pgm.inference.loopy.LoopyBeliefPropagation`."""

from __future__ import annotations

import numpy as np

from ..bethe import bethe_log_partition
from ..engine import Engine, register_engine
from ..potts.layouts import EdgeLayout


@register_engine("loopy")
class LoopyEngine(Engine):
    """Loopy sum-product on a real pgmpy ``DiscreteMarkovNetwork`` (any pairwise tables).

    ``damping`` in [0, 1). ``log_partition`` is the Bethe estimate; the ``Inference`` object
    is returned in ``extra["inference"]`` (``BPSeg.inference_``).
    """

    def __init__(self, damping=0.0):
        self.damping = damping

    def infer(self, problem):
        from ..loopy import LoopyBeliefPropagation

        model = problem.network()
        inf = LoopyBeliefPropagation(model, max_iter=problem.max_iter, tol=problem.tol, damping=self.damping)
        res = inf.run(callback=problem.callback)
        index = {name: i for i, name in enumerate(inf._vars)}
        order = [index[f"s{i}"] for i in range(problem.n)]

        def log_z():
            m = inf._u.size
            layout = EdgeLayout(len(inf._vars), inf._u, inf._v)
            log_b = inf._log_unary + layout.incoming(res.log_messages)
            return bethe_log_partition(inf._log_unary, inf._u, inf._v, log_b, res.log_messages,
                                       np.arange(m), np.arange(m) + m, log_tables=inf._log_tables)

        return self.result(res.beliefs[order], res.n_iter, res.converged, res.deltas,
                           log_partition=log_z if inf._valid is None else None, inference=inf)
