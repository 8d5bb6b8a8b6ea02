"""``"mplp"``: pgmpy's ``Mplp`` (Sontag et al. 2008) for the MAP labelling, as an engine
(the kernel, with its fix for leaves: :mod:`bpseg_pgm.inference.kernels.mplp`)."""

from __future__ import annotations

import numpy as np

from ..engine import Engine, register_engine
from ..kernels.mplp import mplp_map


@register_engine("mplp")
class MplpEngine(Engine):
    """MAP by max-product linear programming (pgmpy ``Mplp.map_query``); ``init_iter`` and
    ``tighten_triplet`` are passed on. Beliefs are the MAP labelling one-hot;
    ``extra["integrality_gap"]`` is pgmpy's (0: certified exact MAP)."""

    def __init__(self, init_iter=1000, tighten_triplet=True):
        self.init_iter = init_iter
        self.tighten_triplet = tighten_triplet

    def infer(self, problem):
        tables = problem.tables() if len(problem.edges) else None
        labels, gap = mplp_map(
            problem.log_unary, problem.edges, tables, init_iter=self.init_iter, tighten_triplet=self.tighten_triplet
        )
        return self.result(np.eye(problem.k)[labels], 1, True, integrality_gap=gap)
