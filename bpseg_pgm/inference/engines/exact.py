"""``"exact"``: pgmpy's junction-tree ``BeliefPropagation``: exact marginals and log Z (tiny inputs)."""

from __future__ import annotations

from ..engine import Engine, register_engine
from ..kernels.exact import MAX_CLIQUE_ENTRIES, exact_inference


@register_engine("exact")
class ExactEngine(Engine):
    """Exact marginals and the exact log Z; refuses a clique table above ``max_entries``."""

    @classmethod
    def memory(cls, n, k, m, dense, couplings):
        """A k x k table per edge and pgmpy's factor objects (the junction tree itself is not counted)."""
        return 2 * m * k * k * 8 + m * 2000, couplings

    def __init__(self, max_entries=MAX_CLIQUE_ENTRIES):
        self.max_entries = max_entries

    def infer(self, problem):
        n, k = problem.n, problem.k
        if len(problem.edges) == n * (n - 1) // 2 and float(k) ** n > self.max_entries:
            raise ValueError(
                f"exact inference on the fully connected graph needs a clique table of k^n = "
                f"{k}^{n} = {float(k) ** n:.3g} entries (limit {self.max_entries:.3g}); "
                "use engine='loopy' or 'potts'"
            )
        model = problem.network()
        marg, log_z = exact_inference(model, self.max_entries)
        index = {name: i for i, name in enumerate(model.nodes())}
        order = [index[f"s{i}"] for i in range(n)]
        return self.result(marg[order], 1, True, log_partition=log_z)
