"""``"appendix"`` (alias ``"fast"``, the paper's name): the paper's appendix Algorithm 2, Fast BP-Seg, with its own
potentials; an engine made from a name reports that name."""

from __future__ import annotations

from ..engine import Engine, register_engine
from ..kernels.fast_bp_seg import fast_bp_seg


@register_engine("appendix", aliases=("fast",))
class FastEngine(Engine):
    """Additive messages over T = ``max_iter`` sweeps (default 5); psi_i = cos(R_i, C_x), psi_ij = lam cos(R_i, R_j)
    exp(-|i-j|^2 / sigma). Not marginals: a softmax of scores, no log Z, no re-estimation rounds."""

    @classmethod
    def memory(cls, n, k, m, dense, couplings):
        """W and its decay as n x n matrices (no edge list of its own), and 4 n x k arrays."""
        return 4 * n * k * 8, 5 * n * n * 8

    uses_potentials = False
    supports_em = False
    default_max_iter = 5

    def infer(self, problem):
        if problem.X is None or problem.C is None:
            raise ValueError(f"engine {self.name!r} needs the embeddings and representatives (problem.X, problem.C)")
        _, beliefs = fast_bp_seg(problem.X, problem.C, lam=problem.lam, sigma=problem.sigma, n_iter=problem.max_iter)
        return self.result(beliefs, problem.max_iter, True)
