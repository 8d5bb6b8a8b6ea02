"""The words' cost of a run, beside the embeddings': where the boundaries go once k is chosen.

A sentence embedding smooths away the repeated terms, names and fillers that carry much of a topic's signal. Here
each run's words are a draw from its own multinomial, the multinomials from one symmetric Dirichlet(alpha) (the
DCM likelihood of BayesSeg, Eisenstein and Barzilay 2008, as in :mod:`~bpseg_pgm.runs.evidence`). The words' cost
of a run is minus its log evidence (:func:`word_cost_matrix`), and the boundaries of the k runs minimise

    cost(a, b) = run cost(a, b) / g_E  +  ``weight`` x words' cost(a, b) / g_W,

g_E and g_W being what each cost gains from one run to the k runs the run cost alone found (so that neither's
scale decides; :func:`word_levels`), alpha set by type-II maximum likelihood on those runs. k is not changed. So
the words' cost is registered as ``"words"`` (:class:`WordsCost`) but is not ``standalone``. Measured:
docs/research/words-boundaries.md.
"""

from __future__ import annotations

import numpy as np
import scipy.sparse as sp
from scipy.special import gammaln

from .cost_registry import RunCost, register_cost, run_cost_matrix
from .costs import EmbeddingsCost, segment_costs
from .evidence import ml_alpha
from .levels import Levels

__all__ = ["WordsCost", "word_cost_matrix", "word_levels"]


def word_cost_matrix(counts: sp.csr_matrix, alpha: float, positions: np.ndarray | None = None) -> np.ndarray:
    """(m+1, m+1) matrix W[i, j] = minus the DCM log evidence (symmetric Dirichlet(``alpha``) over the V
    columns, multinomial coefficients left out) of the words of units positions[i]..positions[j]-1; inf where
    j <= i. ``counts``: (n, V) non-negative counts (CSR, as :func:`~bpseg_pgm.runs.evidence.check_word_counts`
    gives them); ``positions`` as :func:`~bpseg_pgm.runs.costs.cost_matrix` takes them (None: every position).

    Each non-zero count x of a term that the run already holds c times before it adds
    log Gamma(c + x + alpha) - log Gamma(c + alpha); a row of the matrix is one pass over the counts after its
    start, so the whole is O(m x nnz) time and O(m^2 + nnz) memory.
    """
    C = sp.csr_matrix(counts, dtype=np.float64)
    n, V = C.shape
    if positions is None:
        positions = np.arange(n + 1)
    positions = np.asarray(positions, dtype=np.int64)
    m = positions.shape[0] - 1
    alpha = float(alpha)
    if not alpha > 0:
        raise ValueError(f"alpha must be positive, got {alpha!r}")
    terms, x = C.indices.astype(np.int64), C.data
    # held[e]: how much of entry e's term the units before it hold (a running sum per term, in unit order)
    order = np.argsort(terms, kind="stable")
    cum = np.cumsum(x[order])
    term_sorted = terms[order]
    first = np.r_[0, np.flatnonzero(np.diff(term_sorted)) + 1] if terms.size else np.zeros(0, dtype=np.int64)
    before_group = np.repeat(np.r_[0.0, cum][first], np.diff(np.r_[first, terms.size]))
    held = np.empty_like(x)
    held[order] = cum - x[order] - before_group
    totals = np.r_[0.0, np.cumsum(np.asarray(C.sum(axis=1)).ravel())][positions]
    entry_at = C.indptr[positions]  # the first count of each candidate position's unit
    W = np.full((m + 1, m + 1), np.inf)
    outside = np.zeros(V)  # counts of each term before the row's start
    for i in range(m):
        e0 = entry_at[i]
        if i > 0:
            np.add.at(outside, terms[entry_at[i - 1] : e0], x[entry_at[i - 1] : e0])
        c = held[e0:] - outside[terms[e0:]]
        gain = np.r_[0.0, np.cumsum(gammaln(c + x[e0:] + alpha) - gammaln(c + alpha))]
        T = totals[i + 1 :] - totals[i]
        W[i, i + 1 :] = -(gain[entry_at[i + 1 :] - e0] - (gammaln(T + V * alpha) - gammaln(V * alpha)))
    return W


@register_cost
class WordsCost(RunCost):
    """The words' cost of a run, ``"words"``: minus the DCM log evidence of its words (:func:`word_cost_matrix`)
    under a symmetric Dirichlet(``alpha``), for the units' word ``counts`` (n, V) (CSR, as
    :func:`~bpseg_pgm.runs.evidence.check_word_counts` gives them). Not standalone (module docstring): the runs
    model adds it beside the run cost, scaled, where word counts are given (:func:`word_levels`,
    :meth:`~bpseg_pgm.runs.model.RunsFit.with_words`); ``fit_runs(cost="words")`` is refused."""

    name = "words"
    standalone = False

    def __init__(self, counts: sp.csr_matrix | None = None, alpha: float | None = None):
        self.counts, self.alpha = counts, alpha

    def fit(self, features: np.ndarray, weights: np.ndarray) -> WordsCost:
        super().fit(features, weights)
        if self.counts is None or self.alpha is None:
            raise ValueError("the words' cost needs the units' word counts and an alpha: WordsCost(counts, alpha)")
        if self.counts.shape[0] != self.features.shape[0]:
            raise ValueError(f"word counts have {self.counts.shape[0]} rows for {self.features.shape[0]} units")
        return self

    def matrix(self, positions: np.ndarray | None = None) -> np.ndarray:
        return word_cost_matrix(self.counts, self.alpha, positions)

    def __repr__(self) -> str:
        return f"WordsCost(alpha={self.alpha!r})"


def _split_cost(M: np.ndarray, index: np.ndarray) -> float:
    """The cost of the runs between consecutive entries of ``index`` (candidate indices, 0 first and m last)."""
    return float(M[index[:-1], index[1:]].sum())


def word_levels(
    F: np.ndarray,
    weights: np.ndarray,
    levels: Levels,
    counts: sp.csr_matrix,
    k: int,
    weight: float,
    cost: RunCost | None = None,
) -> tuple[Levels, float] | None:
    """The programme's levels again, over the same candidate positions as ``levels`` (the run cost's alone,
    ``F`` its features, ``weights`` the units'), with the words' cost added (module docstring), up to the same
    number of runs; and the alpha used. ``k``: the chosen number of runs, the reference for the two scales and
    for alpha. ``weight``: the words' weight (``Policy.word_weight``). ``cost``: the run cost ``levels`` were cut
    by (None: the embeddings', :class:`~bpseg_pgm.runs.costs.EmbeddingsCost`).

    None where the words cannot weigh in: ``weight`` 0, k below 2, levels solved in windows (more runs
    than candidates), no word, or a cost that gains nothing at k (docs/research/words-boundaries.md: why no
    guard leaves out words that carry no topic).
    """
    k = int(k)
    if not weight > 0 or k < 2 or levels.windows is not None or counts.nnz == 0 or k > levels.programme_runs:
        return None
    positions = levels.positions
    m = positions.shape[0] - 1
    reference = np.searchsorted(positions, np.append(levels.starts(k), levels.n_units))
    whole = np.array([0, m])
    alpha = ml_alpha(counts, levels.labels(k))[0]
    E = run_cost_matrix(EmbeddingsCost() if cost is None else cost, F, weights, positions)
    g_e = _split_cost(E, whole) - _split_cost(E, reference)
    D = run_cost_matrix(WordsCost(counts, alpha), F, weights, positions)
    g_w = _split_cost(D, whole) - _split_cost(D, reference)
    if not (g_e > 0 and g_w > 0 and np.isfinite(g_e) and np.isfinite(g_w)):
        return None
    E /= g_e
    D *= float(weight) / g_w
    E += D
    del D
    costs, arg = segment_costs(E, levels.programme_runs)
    return Levels(positions, costs, arg), alpha
