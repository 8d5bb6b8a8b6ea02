"""The runs model: every segment is one run of consecutive units, by exact inference on the chain.

Steps (:func:`fit_runs`):

1. features: each unit's embedding smoothed along reading order over ``Policy.smoothing`` persistence
   half-lives (:mod:`~bpseg_pgm.runs.statistics`), weighted by the unit weights;
2. boundaries: the exact best split into k runs by the segmental programme (:mod:`~bpseg_pgm.runs.search`); k given,
   or chosen against the document with its blocks shuffled (:mod:`~bpseg_pgm.runs.null`), up to :func:`auto_max_runs`;
3. beliefs: exact marginals of the left-to-right chain whose labels are the k runs, with a Gaussian unary
   -w_i |F_i - mu_j|^2 / (2 s^2) (mu_j the run's mean, s^2 the scatter per unit), by forward-backward
   (:func:`~bpseg_pgm.runs.chain.run_chain_bp`). The labels are the programme's runs; the beliefs say how
   sure each boundary is.
"""

from __future__ import annotations

from dataclasses import dataclass, field, replace

import numpy as np
import scipy.sparse as sp

from bpseg_pgm.policy import DEFAULT_POLICY, Policy
from bpseg_pgm.utils.labels import bounds_labels

from .candidates import check_starts
from .chain import ChainResult, run_chain_bp
from .cost_registry import RunCost, check_cost
from .hierarchy import hierarchy_runs, nested_levels
from .levels import Levels
from .memory import check_runs_memory
from .null import block_permutation, null_gain, null_shuffles
from .search import null_costs, segmental_levels
from .statistics import persistence_halflife, policy_correlation_length, smoothed_embeddings
from .wordcost import word_levels

__all__ = ["RunsFit", "auto_max_runs", "fit_runs", "null_documents", "runs_at"]


def auto_max_runs(n: int, corr_length: float, floor: int) -> int:
    """The most runs the noise-calibrated programme considers for n units: ``floor`` (``Policy.auto_max_runs``), or one
    per correlation length when the document holds more; at most n // 2, at least 1. A long abrupt text whose k
    reaches it is searched further (docs/research/long-abrupt-text.md)."""
    per_length = int(np.ceil(n / max(float(corr_length), 1.0)))
    return max(1, min(max(int(floor), per_length), n // 2))


@dataclass(eq=False)
class RunsFit:
    """A fitted runs model: ``labels`` (runs 0..k-1 in reading order), ``centers`` (unit mean direction of
    each run's features), ``smoothing_width`` (units), ``levels``: the best split into every number of runs
    (:class:`~bpseg_pgm.runs.levels.Levels`), to re-cut without refitting, and, computed on first use,
    ``beliefs`` (n, k) chain marginals and ``log_partition`` (exact log Z of the chain)."""

    labels: np.ndarray
    centers: np.ndarray
    smoothing_width: float
    levels: Levels | None = None
    features: np.ndarray | None = field(default=None, repr=False)
    weights: np.ndarray | None = field(default=None, repr=False)
    #: the runs' weighted mean features (k, d) and the scatter per unit of weight the chain's unary uses
    means: np.ndarray | None = field(default=None, repr=False)
    scatter: float = 1e-6
    #: the alpha of the words' model when the boundaries weigh the words too (:meth:`with_words`), else None
    word_alpha: float | None = None
    #: the run cost the levels were cut by (:class:`~bpseg_pgm.runs.cost_registry.RunCost`; None: the embeddings')
    cost: RunCost | None = field(default=None, repr=False)
    #: after :meth:`with_words`: the units' word counts and the words' weight, and the run cost's own levels
    #: (before the words), so that :meth:`at` weighs the words again at the new number of runs; else None
    word_counts: sp.csr_matrix | None = field(default=None, repr=False)
    word_weight: float | None = field(default=None, repr=False)
    cost_levels: Levels | None = field(default=None, repr=False)
    #: a noise-calibrated fit's gain over its null documents for k = 1 .. ``levels.max_runs`` (index k - 1:
    #: :func:`~bpseg_pgm.runs.null.null_gain`; k is its argmax); None for a fit given k
    null_gain: np.ndarray | None = field(default=None, repr=False)
    #: with ``spread`` (:func:`fit_runs`): every null document's best costs for 0..K runs, (B, K + 1), from which
    #: :func:`~bpseg_pgm.runs.null.count_within` reads the gain's standard error; else None
    null_rows: np.ndarray | None = field(default=None, repr=False)
    _chain: ChainResult | None = field(default=None, init=False, repr=False)

    def _solved(self) -> ChainResult:
        if self._chain is None:
            F, w, mu = self.features, self.weights, self.means
            sq = np.einsum("ij,ij->i", F, F)[:, None] - 2.0 * F @ mu.T + np.einsum("ij,ij->i", mu, mu)[None, :]
            self._chain = run_chain_bp(-w[:, None] * np.maximum(sq, 0.0) / (2.0 * max(self.scatter, 1e-6)), 0.0)
        return self._chain

    @property
    def beliefs(self) -> np.ndarray:
        """(n, k) exact chain marginals (rows sum to 1), computed on first use."""
        return self._solved().beliefs

    @property
    def log_partition(self) -> float:
        """Exact log Z of the chain, computed on first use."""
        return float(self._solved().log_partition)

    def at(self, n_runs: int) -> RunsFit:
        """The same document cut into ``n_runs`` runs (1 to ``levels.max_runs``), without refitting. A fit whose
        boundaries weigh the words (:meth:`with_words`) weighs them again at ``n_runs``, so ``fit.at(k)`` is what a
        fit given k gives (``fit_runs(..., k)`` then ``with_words``)."""
        if self.levels is None or self.features is None:
            raise ValueError("this fit keeps no levels to re-cut")
        if isinstance(n_runs, bool) or not isinstance(n_runs, (int, np.integer)):
            raise ValueError(f"n_runs must be an integer, got {n_runs!r}")
        if self.word_counts is not None:
            base = runs_at(
                self.features, self.weights, self.cost_levels, int(n_runs), self.smoothing_width, cost=self.cost
            )
            fit = base.with_words(self.word_counts, self.word_weight)
        else:
            fit = runs_at(self.features, self.weights, self.levels, int(n_runs), self.smoothing_width, cost=self.cost)
            fit.word_alpha = self.word_alpha
        fit.null_gain, fit.null_rows = self.null_gain, self.null_rows
        return fit

    def with_words(self, counts, weight: float) -> RunsFit:
        """The same number of runs, their boundaries placed by the run cost and the words' cost together
        (:mod:`~bpseg_pgm.runs.wordcost`; ``weight``: ``Policy.word_weight``; ``counts`` as
        :func:`~bpseg_pgm.runs.evidence.check_word_counts` gives them). The fit also keeps the counts, the weight
        and the run cost's own levels, so :meth:`at` weighs the words again at another k. ``self`` where the words
        never weigh in (``weight`` 0, no word, no levels kept); where they cannot at this k
        (:func:`~bpseg_pgm.runs.wordcost.word_levels` is None) the same runs, in a copy that keeps the words."""
        if self.levels is None or self.features is None or not weight > 0 or counts.nnz == 0:
            return self
        base = self.levels if self.cost_levels is None else self.cost_levels
        k = int(self.labels.max()) + 1
        found = word_levels(self.features, self.weights, base, counts, k, weight, cost=self.cost)
        kept = {"word_counts": counts, "word_weight": weight, "cost_levels": base}
        if found is None:
            return replace(self, word_alpha=None, **kept)
        levels, alpha = found
        fit = runs_at(self.features, self.weights, levels, k, self.smoothing_width, cost=self.cost)
        fit.word_alpha = alpha
        fit.word_counts, fit.word_weight, fit.cost_levels = counts, weight, base
        fit.null_gain, fit.null_rows = self.null_gain, self.null_rows
        return fit


def null_documents(
    Xn: np.ndarray, weights: np.ndarray, width: float, block: float, random_state=0, *, policy: Policy, count=None
):
    """The block-shuffled null documents of :mod:`~bpseg_pgm.runs.null` as the programme sees them:
    (smoothed features, weights) pairs, ``null_shuffles(n)`` of them (``policy``: ``null_units``,
    ``null_max_shuffles``, ``smoothing_min_width``) or ``count``, generated one at a time (the first ones the same
    whatever their number)."""
    n = Xn.shape[0]
    rng = np.random.default_rng(random_state)
    count = null_shuffles(n, policy.null_units, policy.null_max_shuffles) if count is None else int(count)
    for _ in range(count):
        p = block_permutation(n, block, rng)
        yield smoothed_embeddings(Xn[p], width, weights[p], min_width=policy.smoothing_min_width), weights[p]


def _run_mean(F: np.ndarray, w: np.ndarray) -> np.ndarray:
    """Weighted mean of a run's rows; the plain mean for a run whose units all weigh 0 (such a run
    costs nothing, so the programme may place one when there is nothing better to cut)."""
    return np.average(F, axis=0, weights=w) if w.sum() > 0 else F.mean(axis=0)


def fit_runs(
    Xn: np.ndarray,
    weights: np.ndarray,
    n_segments,
    random_state=0,
    corr_length: float | None = None,
    *,
    policy: Policy = DEFAULT_POLICY,
    max_runs: int | None = None,
    max_candidates: int | None = None,
    cost="embeddings",
    starts=None,
    finer=(),
    spread: bool = False,
) -> RunsFit:
    """Runs of the unit rows Xn (n, d) with unit weights (n,).

    ``n_segments``: k, or "auto" (noise-calibrated: the k of the levels up to ``max_runs`` whose gain over the null
    documents is largest, kept as ``RunsFit.null_gain``). ``max_runs`` is the decision layer's; called alone (None)
    it is :func:`auto_max_runs` of the correlation length ``corr_length``, computed when None. ``policy`` holds the
    model's tuned numbers. ``max_candidates`` (None: the policy's): a document longer than this is solved over
    binary segmentation's boundaries, and past them in windows (:func:`~bpseg_pgm.runs.search.segmental_levels`).
    ``cost``: the cost of a run the programme minimises, a registered name or a
    :class:`~bpseg_pgm.runs.cost_registry.RunCost` object, fitted on the smoothed features and the weights (and on
    each null document the same way); what it does not drive: :mod:`~bpseg_pgm.runs.cost_registry`.

    ``starts`` (None: every position): the only units where a run may start (the document's paragraphs or
    sections): the runs, every re-cut and the null documents are cut there only.

    ``finer`` (with ``starts`` and k given): finer levels of the same structure, coarse to fine (a sectioned text's
    sub-headings, then its paragraphs). The levels are then nested (:func:`~bpseg_pgm.runs.hierarchy.nested_levels`),
    so k may reach the finest level's starts plus one and a re-cut (:meth:`RunsFit.at`) splits sections at their
    sub-headings. Ignored with k "auto"; when ``starts`` are more than ``max_candidates``, the runs start at
    ``starts`` alone, or when k exceeds them at the starts of the coarsest finer level that allows k runs.

    ``spread`` (k "auto"): also keep every null document's costs (``RunsFit.null_rows``), at least
    ``Policy.null_max_shuffles`` of them, for a reader's granularity (:func:`~bpseg_pgm.runs.null.count_within`);
    k and the gain stay those of the usual nulls, which are the first of them.
    """
    n = Xn.shape[0]
    cost = check_cost(cost)
    starts = check_starts(starts, n)
    max_candidates = policy.max_candidates if max_candidates is None else int(max_candidates)
    # before anything of size n x d, for the candidates and windows this search will use
    check_runs_memory(n, Xn.shape[1], max_candidates=max_candidates, window=policy.window)
    search = {"max_candidates": max_candidates, "policy": policy, "cost": cost, "starts": starts}
    halflife = persistence_halflife(Xn)
    width = policy.smoothing * halflife
    F = smoothed_embeddings(Xn, width, weights, min_width=policy.smoothing_min_width)
    if max_runs is None:
        if corr_length is None:
            corr_length = policy_correlation_length(Xn, weights, policy)
        cap = auto_max_runs(n, corr_length, policy.auto_max_runs)
    else:
        cap = max(1, min(int(max_runs), n // 2))
    full = cap  # before the starts cap it: what nested levels may hold
    if starts is not None:
        cap = min(cap, len(starts) + 1)
    if isinstance(n_segments, str):
        levels = segmental_levels(F, weights, cap, **search)
        K = levels.max_runs
        usual = null_shuffles(n, policy.null_units, policy.null_max_shuffles)
        count = max(usual, policy.null_max_shuffles, 2) if spread else usual
        nulls = null_documents(
            Xn, weights, width, policy.null_block * halflife, random_state, policy=policy, count=count
        )
        rows = null_costs(nulls, K, **search, each=True) if K > 1 else None
        gain = null_gain(levels.costs, np.mean(rows[:usual], axis=0)) if K > 1 else np.zeros(1)
        k = 1 + int(np.argmax(gain))
    else:
        k = int(n_segments)
        nested = starts is not None and bool(len(finer)) and len(starts) <= max_candidates
        if starts is not None and len(finer) and not nested and k > len(starts) + 1:
            # more sections than the nested levels solve, and more runs than sections: at the starts of the
            # coarsest finer level that allows k runs
            level = next((f for f in finer if np.union1d(starts, f).size + 1 >= k), finer[-1])
            starts = search["starts"] = check_starts(np.union1d(starts, level), n)
        most = hierarchy_runs((starts, *finer), n) if nested else None if starts is None else len(starts) + 1
        if most is not None and k > most:
            raise ValueError(f"{k} runs asked for, but runs may start at only {most} units")
        if nested:
            # as many runs past the sections as the noise-calibrated count would consider, and at least the next
            # level's sections when it is not the last (a sectioned text's sub-headings, before its paragraphs)
            reach = max(k, len(starts) + 1 + full, len(finer[0]) + 1 if len(finer) > 1 else 0)
            levels = nested_levels(F, weights, (starts, *finer), reach, cost, max_candidates, policy=policy)
        else:
            levels = segmental_levels(F, weights, max(k, min(cap, n)), **search)
        gain = rows = None
    fit = runs_at(F, weights, levels, k, width, cost=cost)
    fit.null_gain = gain
    if spread and isinstance(n_segments, str) and rows is not None:
        fit.null_rows = rows
    return fit


def runs_at(
    F: np.ndarray, weights: np.ndarray, levels: Levels, k: int, width: float, *, cost: RunCost | None = None
) -> RunsFit:
    """The runs model at k runs of ``levels`` (the programme's best split of the features F): means and centres
    now, chain beliefs when first asked for. ``cost``: the run cost ``levels`` were cut by, kept on the fit."""
    starts = levels.starts(k)
    ends = np.append(starts[1:], F.shape[0])
    labels = bounds_labels(np.append(starts, F.shape[0]))
    mu = np.stack([_run_mean(F[a:b], weights[a:b]) for a, b in zip(starts, ends)])
    # the embeddings' scatter per unit of weight (not levels.costs[k]: levels that weigh the words cost more)
    spread = sum(
        float(np.dot(weights[a:b], np.einsum("ij,ij->i", F[a:b] - m, F[a:b] - m))) for a, b, m in zip(starts, ends, mu)
    )
    scatter = spread / max(float(np.sum(weights)), 1e-12)
    centers = mu / np.maximum(np.linalg.norm(mu, axis=1, keepdims=True), 1e-12)
    return RunsFit(labels, centers, width, levels, F, weights, mu, scatter, cost=cost)
