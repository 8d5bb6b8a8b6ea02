"""``"gibbs"``: Gibbs sampling; beliefs are label frequencies after burn-in, seeded.

pgmpy's ``GibbsSampling`` builds n k^(n-1) conditional tables, so ``backend="auto"`` uses it (one chain) only up
to ``PGMPY_LIMIT`` of them; otherwise, and with ``backend="vectorised"``,
:func:`~bpseg_pgm.inference.kernels.gibbs.gibbs_frequencies` runs ``n_chains`` chains at once.
"""

from __future__ import annotations

import numpy as np

from ..engine import Engine, register_engine
from ..kernels.gibbs import gibbs_frequencies, pgmpy_gibbs_frequencies

#: Largest n k^(n-1) (conditional tables pgmpy's sampler builds) for which "auto" picks pgmpy.
PGMPY_LIMIT = 20_000
BACKENDS = ("auto", "pgmpy", "vectorised")


def _seed(random_state) -> int:
    if random_state is None:
        return 0
    return int(np.random.default_rng(random_state).integers(2**31 - 1))


@register_engine("gibbs")
class GibbsEngine(Engine):
    """Gibbs sampling: ``burn_in`` sweeps discarded, then ``n_samples`` sweeps counted, over
    ``n_chains`` chains (vectorised backend). ``random_state`` None takes the estimator's,
    and if that is None too, seed 0: same seed, same beliefs."""

    def __init__(self, n_samples=500, burn_in=100, n_chains=16, random_state=None, backend="auto"):
        self.n_samples = n_samples
        self.burn_in = burn_in
        self.n_chains = n_chains
        self.random_state = random_state
        self.backend = backend

    def _check(self):
        for name, low in (("n_samples", 1), ("burn_in", 0), ("n_chains", 1)):
            value = getattr(self, name)
            if isinstance(value, bool) or not isinstance(value, (int, np.integer)) or value < low:
                raise ValueError(f"GibbsEngine: {name} must be an integer >= {low}, got {value!r}")
        if self.backend not in BACKENDS:
            raise ValueError(f"GibbsEngine: backend must be one of {BACKENDS}, got {self.backend!r}")

    def infer(self, problem):
        self._check()
        seed = _seed(self.random_state if self.random_state is not None else problem.random_state)
        n, k = problem.n, problem.k
        use_pgmpy = self.backend == "pgmpy" or (self.backend == "auto" and n * float(k) ** (n - 1) <= PGMPY_LIMIT)
        if use_pgmpy:
            beliefs = pgmpy_gibbs_frequencies(
                problem.network(), n, k, n_samples=self.n_samples, burn_in=self.burn_in, seed=seed
            )
        else:
            beliefs = gibbs_frequencies(
                problem.log_unary, problem.u, problem.v, n_samples=self.n_samples, burn_in=self.burn_in,
                n_chains=self.n_chains, seed=seed, **problem.pairwise_kwargs(),
            )  # fmt: skip
        return self.result(beliefs, self.burn_in + self.n_samples, True, backend="pgmpy" if use_pgmpy else "vectorised")
