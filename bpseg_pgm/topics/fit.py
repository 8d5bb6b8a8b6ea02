"""The topic model's fit (:func:`fit_topics`): reading-order context, k representatives, the model as a
:class:`~bpseg_pgm.inference.problem.Problem` given to an engine, then ``em_rounds`` rounds of re-estimating the
representatives from the beliefs, each followed by BP again. Segments may return."""

from __future__ import annotations

import warnings
from dataclasses import dataclass, field
from typing import Any, Callable

import numpy as np
from sklearn.exceptions import ConvergenceWarning

from bpseg_pgm.graph import auto_pairs, resolve_edges
from bpseg_pgm.inference.engine import Engine, EngineResult
from bpseg_pgm.inference.problem import Problem
from bpseg_pgm.policy import DEFAULT_POLICY, Policy
from bpseg_pgm.potentials import Potentials, context_embeddings
from bpseg_pgm.utils.validation import check_representatives

from .defaults import auto_labels
from .reestimate import reestimate_centers
from .representatives import choose_representatives

__all__ = ["TopicsFit", "check_beliefs", "engine_label", "fit_topics", "warn_unconverged"]


def engine_label(engine: Engine) -> str:
    """How errors name an engine: its registered name, else its class."""
    return engine.name or type(engine).__name__


@dataclass
class TopicsFit:
    """What :func:`fit_topics` found (the estimator's fitted attributes of the same names + ``_``)."""

    labels: np.ndarray
    beliefs: np.ndarray
    centers: np.ndarray
    representatives: np.ndarray
    n_iter: int
    converged: bool
    edges: np.ndarray
    deltas: list
    model: Any
    log_partition: float | None
    engine_extra: dict
    inference: Any = field(default=None)


def check_beliefs(beliefs, engine: Engine) -> None:
    """An engine's beliefs must be probabilities: finite, >= 0, each row summing to 1 (``Engine.result``
    makes them so; an ``EngineResult`` built by hand may not be)."""
    b = np.asarray(beliefs, dtype=np.float64)
    if not np.all(np.isfinite(b)) or np.any(b < 0) or not np.allclose(b.sum(axis=1), 1.0, rtol=0, atol=1e-6):
        raise ValueError(
            f"engine {engine_label(engine)!r} returned beliefs that are not probabilities (NaN or inf, negative, "
            "or rows not summing to 1); build its answer with self.result(beliefs=...), which normalises them"
        )


def warn_unconverged(engine, max_iter: int, tol: float, stacklevel: int = 1) -> None:
    """The ConvergenceWarning of a topic fit whose BP stopped at ``max_iter`` sweeps (``stacklevel`` counted from
    the caller of this function)."""
    warnings.warn(
        f"belief propagation (engine {engine_label(engine)!r}) stopped at max_iter={max_iter} sweeps before its "
        f"messages converged (tol={tol:g}); the labels may not be final: raise max_iter, or add damping",
        ConvergenceWarning,
        stacklevel=stacklevel + 1,
    )


def fit_topics(
    Xn: np.ndarray,
    *,
    engine: Engine,
    potentials: Potentials | None,
    lam: float,
    sigma,
    max_iter: int,
    tol: float,
    em_rounds: int,
    context: float,
    merge_above: float | None,
    neighbors,
    init,
    n_segments,
    random_state,
    callback: Callable | None = None,
    warn: bool = True,
    policy: Policy = DEFAULT_POLICY,
) -> TopicsFit:
    """Fit the topic model to the unit rows Xn (n, d) with settings already checked and resolved.

    ``neighbors`` is "auto", "all", pairs or a callable; ``context`` the mixing weight used; ``potentials`` None
    for an engine with its own (``fast``). A ConvergenceWarning when BP stopped at ``max_iter`` before its messages
    converged, unless ``warn`` is False (a caller that may discard the fit raises it with :func:`warn_unconverged`
    when it keeps it). ``policy``: the topic model's tuned numbers.
    """
    round_sweeps = policy.em_round_sweeps
    Xn = context_embeddings(Xn, context)
    edges = resolve_edges(
        Xn,
        auto_pairs(Xn, sigma, policy.topic_dense_units, policy.topic_sparse_neighbors)
        if isinstance(neighbors, str) and neighbors == "auto"
        else (None if isinstance(neighbors, str) else neighbors),
    )
    if isinstance(init, str):  # the k initial representatives: "auto" starts from auto_labels with the policy's numbers
        k = (
            auto_labels(Xn.shape[0], policy.auto_max_segments, policy.auto_segments_per_root)
            if isinstance(n_segments, str) and n_segments == "auto"
            else n_segments
        )
        reps = choose_representatives(Xn, k, init, random_state)
    else:
        reps = check_representatives(init, Xn.shape[0])
    C = Xn[reps]
    state: dict[str, Any] = {"model": None, "deltas": [], "inference": None}
    shared: dict = {}  # what the rounds share: the pairwise couplings do not depend on C
    last: list = []
    pot = potentials

    def run(C, round_, reps=None):
        # rounds before the last only move the representatives: a few sweeps suffice
        sweeps = max_iter if round_ == em_rounds else min(max_iter, round_sweeps)
        problem = Problem(
            pot.log_unary(Xn, C) if pot is not None else Xn @ C.T, edges, potentials=pot, X=Xn, C=C,
            representatives=reps, lam=lam, sigma=sigma, max_iter=sweeps, tol=tol, callback=callback,
            random_state=random_state, shared=shared,
        )  # fmt: skip
        last.clear()  # the previous round's messages go before this round allocates its own
        res = engine.infer(problem)
        if not isinstance(res, EngineResult) or np.shape(res.beliefs) != (problem.n, problem.k):
            raise ValueError(f"engine {engine_label(engine)!r} must return self.result(beliefs=(n, k) array, ...)")
        check_beliefs(res.beliefs, engine)
        state["deltas"] += res.deltas
        if problem.network_built is not None:
            state["model"] = problem.network_built
        if "inference" in res.extra:
            state["inference"] = res.extra["inference"]
        last[:] = [res]
        return res.beliefs, res.n_iter, res.converged

    beliefs, n_iter, converged = run(C, 0, reps)
    for r in range(1, em_rounds + 1):
        # re-estimate the representatives from the beliefs: drop emptied labels, merge duplicates
        C_new = reestimate_centers(beliefs, Xn, min_mass=policy.topic_min_mass, merge_above=merge_above)
        if C_new is None:
            break
        if C_new.shape == C.shape and float(np.max(np.abs(C_new - C))) <= tol:
            # the representatives no longer move: further rounds would repeat this one; finish with the last
            # round's full sweep budget if the capped run before it had not converged
            if not converged and max_iter > round_sweeps:
                beliefs, it, converged = run(C, em_rounds)
                n_iter += it
            break
        C = C_new
        beliefs, it, converged = run(C, r)
        n_iter += it

    if warn and not converged:
        warn_unconverged(engine, max_iter, tol, stacklevel=3)
    log_z = last[0].log_partition
    beliefs = np.asarray(beliefs, dtype=np.float64)
    return TopicsFit(
        labels=np.argmax(beliefs, axis=1),
        beliefs=beliefs,
        centers=C,
        representatives=reps,
        n_iter=int(n_iter),
        converged=bool(converged),
        edges=edges,
        deltas=state["deltas"],
        model=state["model"],
        log_partition=float(log_z()) if callable(log_z) else log_z,
        engine_extra=last[0].extra,
        inference=state["inference"],
    )
