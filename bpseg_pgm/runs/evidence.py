"""How many runs the words support: lexical model evidence over the levels of the runs programme.

Each run's words are a draw from its own multinomial, the multinomials drawn from one symmetric
Dirichlet(alpha): the Dirichlet-compound-multinomial likelihood BayesSeg (Eisenstein and Barzilay, 2008)
segments with. The log marginal likelihood of the split into k runs, at the alpha that maximises it
(type-II maximum likelihood, so nothing is fitted to an annotation), is the evidence that the words
change k - 1 times. It is weighed against ``penalty`` x log C(n - 1, k - 1), the number of ways of
placing the k - 1 boundaries, and the level of highest penalised evidence is taken.

The decision layer uses it wherever the span rule sets the count, as a floor-raiser: the span rule's count does not
grow with a text made of many parts, the words' evidence lets it grow (docs/research/words-evidence.md). Counts come
from the text layer (:func:`bpseg_pgm.features.words.unit_word_counts`); this module sees only a unit x term matrix.
"""

from __future__ import annotations

import numpy as np
import scipy.sparse as sp
from scipy.optimize import minimize_scalar
from scipy.special import gammaln

__all__ = ["check_word_counts", "dcm_log_evidence", "evidence_runs", "level_evidence", "log_placements", "ml_alpha"]


#: log alpha is searched in this interval (alpha from 3e-4 to 20 pseudo-counts per term).
_LOG_ALPHA_BOUNDS = (-8.0, 3.0)


def check_word_counts(counts, n: int) -> sp.csr_matrix:
    """``counts`` as a float CSR matrix (n, V) of finite, non-negative word counts per unit, the terms that never
    occur dropped (so the evidence does not depend on a vocabulary larger than the text); a ValueError otherwise."""
    try:
        C = sp.csr_matrix(counts, dtype=np.float64)
    except (TypeError, ValueError) as exc:
        raise ValueError(f"word_counts must be a 2-D array or sparse matrix of counts: {exc}") from None
    if C.ndim != 2 or C.shape[0] != n:
        raise ValueError(f"word_counts must have one row per unit ({n}), got shape {C.shape}")
    if C.nnz and (not np.all(np.isfinite(C.data)) or C.data.min() < 0):
        raise ValueError("word_counts must be finite and non-negative")
    C.eliminate_zeros()
    used = np.flatnonzero(np.asarray(C.getnnz(axis=0)) > 0)
    return C[:, used].tocsr()


def dcm_log_evidence(S: sp.csr_matrix, alpha: float) -> float:
    """Log marginal likelihood of the rows of the run x term counts ``S`` (CSR), each a multinomial drawn
    from a symmetric Dirichlet(alpha) over its V columns (multinomial coefficients, equal at every level,
    left out). Only the non-zero counts are visited: a zero count contributes gammaln(alpha) - gammaln(alpha)."""
    V = S.shape[1]
    totals = np.asarray(S.sum(axis=1)).ravel()
    return float(
        S.shape[0] * gammaln(V * alpha)
        - np.sum(gammaln(totals + V * alpha))
        + np.sum(gammaln(S.data + alpha))
        - S.nnz * gammaln(alpha)
    )


def log_placements(n: int, k):
    """log C(n - 1, k - 1): the number of ways of placing k - 1 boundaries between n units (k may be an array)."""
    return gammaln(n) - gammaln(k) - gammaln(n - k + 1)


def _run_counts(C: sp.csr_matrix, labels: np.ndarray) -> sp.csr_matrix:
    n = C.shape[0]
    k = int(labels.max()) + 1
    return (sp.csr_matrix((np.ones(n), (labels, np.arange(n))), shape=(k, n)) @ C).tocsr()


def ml_alpha(C: sp.csr_matrix, labels: np.ndarray) -> tuple[float, float]:
    """The alpha that maximises the DCM log evidence of the runs ``labels`` (0..k-1 per unit; type-II maximum
    likelihood) and that evidence; (1.0, 0.0) when the runs hold no word."""
    S = _run_counts(C, np.asarray(labels))
    if S.nnz == 0:
        return 1.0, 0.0
    res = minimize_scalar(
        lambda la: -dcm_log_evidence(S, float(np.exp(la))),
        bounds=_LOG_ALPHA_BOUNDS,
        method="bounded",
        options={"xatol": 1e-3},
    )
    return float(np.exp(res.x)), float(-res.fun)


def level_evidence(C: sp.csr_matrix, labels: np.ndarray) -> float:
    """The DCM log evidence of the runs ``labels`` (0..k-1 per unit) at the alpha that maximises it."""
    return ml_alpha(C, labels)[1]


def evidence_runs(
    C: sp.csr_matrix, levels, low: int, high: int, penalty: float, max_levels: int
) -> tuple[int, dict[int, float]]:
    """The level k in [low, high] of ``levels`` (:class:`~bpseg_pgm.runs.levels.Levels`) whose penalised
    evidence is highest (the lowest such k on a tie), and the penalised evidence of every level weighed.

    ``C``: the unit x term counts (:func:`check_word_counts`). A text with no word left has no evidence:
    ``low`` is returned. At most ``max_levels`` levels are weighed, evenly spaced from ``low`` to ``high``.
    ``penalty`` and ``max_levels``: the policy's (``Policy.evidence_penalty``, ``Policy.max_evidence_levels``).
    """
    n = levels.n_units
    if C.shape[0] != n:
        raise ValueError(f"word counts have {C.shape[0]} rows for levels over {n} units")
    if int(max_levels) < 2:
        raise ValueError(f"max_levels must be at least 2 (the lowest and the highest level), got {max_levels!r}")
    low, high = max(1, int(low)), min(int(high), levels.max_runs)
    if C.nnz == 0 or high <= low:
        return low, {}
    ks = np.unique(np.linspace(low, high, min(max_levels, high - low + 1)).round().astype(int))
    scores = {}
    for k in ks:
        if not np.isfinite(levels.costs[k]):
            continue
        scores[int(k)] = level_evidence(C, levels.labels(int(k))) - penalty * float(log_placements(n, k))
    if not scores:
        return low, {}
    best = max(scores, key=lambda k: (scores[k], -k))
    return best, scores
