"""Fit topics over runs: propose topics, then belief propagation over the runs' Markov network.

1. The runs are summarised (:mod:`.summary`): centred unit means and sizes.
2. Topics are proposed by average-linkage agglomeration of the run means, cut where the centred cosine falls below
   the potentials' threshold (which potentials is the decision layer's, after its returns test).
3. Each topic's centre is the size-weighted mean of its runs; the network (:mod:`.potentials`) is given to the
   engine as a :class:`~bpseg_pgm.inference.problem.Problem` made ``on_network`` (a pgmpy
   ``DiscreteMarkovNetwork`` solved through pgmpy's ``Inference`` API); every run takes its arg-max topic, topics
   left empty are dropped, and the centres are re-estimated, for at most ``max_rounds`` rounds or until the labels
   repeat. Every unit takes its run's topic and belief row.
"""

from __future__ import annotations

import warnings
from dataclasses import dataclass
from typing import Any

import numpy as np
from sklearn.cluster import AgglomerativeClustering
from sklearn.exceptions import ConvergenceWarning

from bpseg_pgm.inference.engine import Engine, EngineResult
from bpseg_pgm.inference.engines import make_engine
from bpseg_pgm.inference.problem import Problem
from bpseg_pgm.policy import DEFAULT_POLICY, Policy
from bpseg_pgm.potentials.base import Potentials
from bpseg_pgm.types.returns import Returns

from .potentials import RunTopicPotentials
from .summary import RunSummary, summarize_runs

__all__ = ["RunTopicsFit", "fit_run_topics", "propose_topics", "run_edges", "warn_unconverged"]


@dataclass
class RunTopicsFit:
    """What :func:`fit_run_topics` found.

    ``run_topics`` (m,): each run's topic, numbered in reading order of first appearance; ``run_beliefs`` (m, t): BP's
    topic beliefs per run, rows summing to 1; ``labels`` (n,) and ``beliefs`` (n, t): the same per unit; ``centers``
    (t, d): the topics' centres (centred space); ``proposed`` (m,): the topics the linkage proposed before BP;
    ``summary``: the runs' summaries; ``n_iter`` (sweeps, all rounds), ``n_rounds``, ``converged`` (last round),
    ``model`` (the pgmpy network when the engine built one), ``log_partition`` (the engine's log Z estimate for the
    last round, or None), ``returns``: the returns test the decision layer ran before choosing the potentials
    (:class:`~bpseg_pgm.types.returns.Returns`; None when none was run), ``potentials``: the potentials BP used.
    """

    run_topics: np.ndarray
    run_beliefs: np.ndarray
    labels: np.ndarray
    beliefs: np.ndarray
    centers: np.ndarray
    proposed: np.ndarray
    summary: RunSummary
    n_iter: int
    n_rounds: int
    converged: bool
    model: Any = None
    log_partition: float | None = None
    returns: Returns | None = None
    potentials: Potentials | None = None

    @property
    def n_topics(self) -> int:
        return int(self.run_beliefs.shape[1])

    def returning_topics(self) -> list[int]:
        """Topics that hold two or more runs that are not neighbours (they come back)."""
        t = self.run_topics
        merged = t[np.concatenate([[True], t[1:] != t[:-1]])]
        counts = np.bincount(merged, minlength=self.n_topics)
        return [int(i) for i in np.flatnonzero(counts > 1)]


def propose_topics(similarity: np.ndarray, threshold: float) -> np.ndarray:
    """Average-linkage agglomeration of the runs, cut where their similarity falls below ``threshold``."""
    m = similarity.shape[0]
    if m < 2:
        return np.zeros(m, dtype=np.int64)
    clusters = AgglomerativeClustering(
        n_clusters=None, metric="precomputed", linkage="average", distance_threshold=1.0 - threshold
    ).fit_predict(1.0 - similarity)
    return _reading_order(clusters)


def run_edges(similarity: np.ndarray, *, policy: Policy) -> np.ndarray:
    """Edges (i < j) of the runs' network: every pair up to ``Policy.group_max_dense_runs`` runs; beyond, each
    run's neighbours in reading order and its ``Policy.group_sparse_neighbors`` most similar runs (``policy``'s)."""
    max_dense, neighbors = policy.group_max_dense_runs, policy.group_sparse_neighbors
    m = similarity.shape[0]
    if m <= max_dense or neighbors >= m - 1:  # every other run a neighbour: the dense graph
        return np.stack(np.triu_indices(m, 1), axis=1).astype(np.int64)
    pairs = [np.stack([np.arange(m - 1), np.arange(1, m)], axis=1)]
    s = similarity.copy()
    np.fill_diagonal(s, -np.inf)
    near = np.argpartition(-s, neighbors, axis=1)[:, :neighbors]
    rows = np.repeat(np.arange(m), neighbors)
    pairs.append(np.stack([np.minimum(rows, near.ravel()), np.maximum(rows, near.ravel())], axis=1))
    return np.unique(np.concatenate(pairs), axis=0).astype(np.int64)


def _reading_order(labels: np.ndarray) -> np.ndarray:
    """Labels renumbered 0, 1, ... in order of first appearance."""
    _, first, inverse = np.unique(labels, return_index=True, return_inverse=True)
    rank = np.empty(first.size, dtype=np.int64)
    rank[np.argsort(first)] = np.arange(first.size)
    return rank[inverse.reshape(-1)]


def _centers(means: np.ndarray, sizes: np.ndarray, topics: np.ndarray) -> np.ndarray:
    c = np.zeros((int(topics.max()) + 1, means.shape[1]))
    np.add.at(c, topics, means * np.maximum(sizes, 1e-12)[:, None])
    norm = np.linalg.norm(c, axis=1, keepdims=True)
    return np.divide(c, norm, out=np.zeros_like(c), where=norm > 1e-12)


def warn_unconverged(max_iter: int, tol: float, stacklevel: int = 1, retried: tuple[float, int] | None = None) -> None:
    """The ConvergenceWarning of a grouping whose last round's BP stopped at ``max_iter`` sweeps (``stacklevel``
    counted from the caller of this function; ``retried``: the (damping, sweeps) of a second try that did not
    converge either)."""
    again = "" if retried is None else f", and again with damping {retried[0]:g} at {retried[1]} sweeps"
    warnings.warn(
        f"belief propagation over the runs stopped at max_iter={max_iter} sweeps before its messages "
        f"converged (tol={tol:g}){again}; the topics may not be final",
        ConvergenceWarning,
        stacklevel=stacklevel + 1,
    )


def fit_run_topics(
    Xn: np.ndarray,
    weights: np.ndarray,
    run_labels,
    *,
    engine: str | Engine = "potts",
    potentials: Potentials | None = None,
    max_rounds: int | None = None,
    max_iter: int | None = None,
    tol: float | None = None,
    random_state=None,
    warn: bool = True,
    policy: Policy = DEFAULT_POLICY,
) -> RunTopicsFit:
    """Group the runs of ``run_labels`` (n,) over unit rows ``Xn`` (n, d), weighted by ``weights`` (n,), into topics.

    ``engine``: a registered name or an :class:`~bpseg_pgm.inference.engine.Engine`; ``potentials``: default
    :class:`~.potentials.RunTopicPotentials` with the policy's numbers (its ``threshold`` also cuts the proposal).
    A ConvergenceWarning when the last round's BP stopped at ``max_iter`` before its messages converged
    (``warn=False``: none; :func:`warn_unconverged` raises it for a caller that keeps the result). ``policy``: the
    ``group_*`` numbers, of which ``max_rounds``, ``max_iter`` and ``tol`` default to the policy's.
    """
    max_rounds = policy.group_max_rounds if max_rounds is None else max_rounds
    max_iter = policy.group_max_iter if max_iter is None else max_iter
    tol = policy.group_tol if tol is None else tol
    if isinstance(max_rounds, bool) or not isinstance(max_rounds, (int, np.integer)) or max_rounds < 1:
        raise ValueError(f"max_rounds must be an integer >= 1, got {max_rounds!r}")
    engine = make_engine(engine)
    if not engine.uses_potentials:
        raise ValueError(f"engine {engine.name!r} brings its own potentials; topics over runs need one that takes them")
    pot = RunTopicPotentials.from_policy(policy) if potentials is None else potentials
    if not isinstance(pot, Potentials):
        raise ValueError(f"potentials must be a bpseg_pgm.potentials.Potentials, got {type(pot).__name__}")
    summary = summarize_runs(Xn, weights, run_labels)
    M, sizes, m = summary.means, summary.sizes, summary.n_runs
    sim = summary.similarity()
    proposed = propose_topics(sim, float(getattr(pot, "threshold", policy.group_threshold)))
    topics = proposed
    lengths = np.diff(summary.bounds)
    edges = run_edges(sim, policy=policy)
    shared: dict = {}  # the couplings do not depend on the centres: computed once
    n_iter, rounds, converged, model, log_z = 0, 0, True, None, None
    beliefs = np.ones((m, 1))  # one run: one topic, nothing to infer
    for rounds in range(1, max_rounds + 1) if m > 1 else ():
        C = _centers(M, sizes, topics)
        problem = Problem(
            pot.log_unary(M, C),
            edges,
            potentials=pot,
            X=M,
            C=C,
            max_iter=max_iter,
            tol=tol,
            random_state=random_state,
            shared=shared,
            on_network=True,  # the non-contiguous step: solved on the runs' pgmpy network
        )
        res = engine.infer(problem)
        if not isinstance(res, EngineResult) or np.shape(res.beliefs) != (m, C.shape[0]):
            raise ValueError(
                f"engine {engine.name or type(engine).__name__!r} must return self.result(beliefs=(n, k) array, ...)"
            )
        n_iter += int(res.n_iter)
        converged, model = bool(res.converged), problem.network_built or model
        log_z = res.log_partition() if callable(res.log_partition) else res.log_partition
        raw = np.asarray(res.beliefs, dtype=np.float64)
        best = np.argmax(raw, axis=1)
        new = _reading_order(best)
        # keep the columns of the topics still used, in the new numbering, rows renormalised
        first = np.unique(new, return_index=True)[1]  # the first run of each new topic, topics in order
        beliefs = raw[:, best[first]]
        beliefs /= beliefs.sum(axis=1, keepdims=True)
        if np.array_equal(new, topics):
            break
        topics = new
    topics = _reading_order(np.argmax(beliefs, axis=1))
    if warn and not converged:
        warn_unconverged(max_iter, tol, stacklevel=2)
    return RunTopicsFit(
        run_topics=topics,
        run_beliefs=beliefs,
        labels=np.repeat(topics, lengths),
        beliefs=np.repeat(beliefs, lengths, axis=0),
        centers=_centers(M, sizes, topics),
        proposed=proposed,
        summary=summary,
        n_iter=n_iter,
        n_rounds=rounds,
        converged=converged,
        model=model,
        log_partition=None if log_z is None else float(log_z),
        potentials=pot,
    )
