"""``"mean-field"``: naive mean-field by coordinate ascent; log Z estimate = its ELBO (a lower bound)."""

from __future__ import annotations

from ..engine import Engine, register_engine
from ..kernels.mean_field import mean_field


@register_engine("mean-field")
class MeanFieldEngine(Engine):
    """q(x) = prod_i q_i(x_i), updated one sentence at a time until no q_i moves by ``tol``;
    ``log_partition`` is the ELBO, a lower bound on log Z."""

    def infer(self, problem):
        res = mean_field(
            problem.log_unary, problem.u, problem.v, max_iter=problem.max_iter, tol=problem.tol,
            callback=problem.callback, **problem.pairwise_kwargs(),
        )  # fmt: skip
        return self.result(res.beliefs, res.n_iter, res.converged, res.deltas, log_partition=res.elbo)
