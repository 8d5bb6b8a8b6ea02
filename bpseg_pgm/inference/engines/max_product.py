"""``"max-product"``: loopy max-product (max-sum) in log space: approximate MAP, max-marginal beliefs."""

from __future__ import annotations

from ..engine import Engine, register_engine
from ..kernels.max_product import max_product_bp


@register_engine("max-product")
class MaxProductEngine(Engine):
    """Flooding max-product; beliefs are the normalised max-marginals, whose arg-max is the
    MAP on a tree. ``damping`` in [0, 1) (max-product oscillates more readily than sum-product)."""

    def __init__(self, damping=0.0):
        self.damping = damping

    def infer(self, problem):
        res = max_product_bp(
            problem.log_unary, problem.u, problem.v, max_iter=problem.max_iter, tol=problem.tol,
            damping=self.damping, callback=problem.callback, **problem.pairwise_kwargs(),
        )  # fmt: skip
        return self.result(res.beliefs, res.n_iter, res.converged, res.deltas)
