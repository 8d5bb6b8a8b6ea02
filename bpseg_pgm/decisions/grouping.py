"""Grouping runs into topics (``group_runs``): the returns test (:func:`detect_returns`, its gates the Policy's)
decides the grouping's potentials (how many topics: :func:`returning_potentials`), the runs' topics are fitted (:func:`~bpseg_pgm.runtopics.fit_run_topics`),
with a damped second try when BP does not converge."""

from __future__ import annotations

import dataclasses

import numpy as np

from bpseg_pgm.inference.engine import Engine
from bpseg_pgm.inference.engines import make_engine
from bpseg_pgm.policy import Policy
from bpseg_pgm.potentials import Potentials
from bpseg_pgm.runs.model import RunsFit
from bpseg_pgm.runtopics import RunTopicPotentials, RunTopicsFit, best_cut, fit_run_topics
from bpseg_pgm.runtopics.summary import summarize_runs
from bpseg_pgm.types.returns import Returns

__all__ = ["detect_returns", "group_engine", "group_runs", "retry_engine", "returning_potentials"]


def group_engine(engine: Engine) -> Engine:
    """The engine that groups the runs: the estimator's, or the default one for an engine with potentials of its
    own ("appendix"), which cannot take the runs' potentials."""
    return engine if engine.uses_potentials else make_engine("potts")


def retry_engine(group: Engine, policy: Policy) -> Engine | None:
    """The damped engine an unconverged grouping by ``group`` is run again with (``Policy.group_retry_damping``),
    or None when the engine has no damping (no name to make it by, or none it takes)."""
    if not group.name:
        return None
    try:
        return make_engine(group.name, policy.group_retry_damping)
    except ValueError:
        return None


def detect_returns(similarity: np.ndarray, policy: Policy) -> Returns:
    """The returns test on the runs' ``similarity`` (m, m): do the runs fall into clear groups, whatever their
    reading order? Scored only for ``Policy.returns_min_runs`` (at least 3) to ``returns_max_runs`` runs (where it
    was measured; otherwise nothing is detected); the runs model's best linkage cut
    (:func:`~bpseg_pgm.runtopics.best_cut`) is taken for returns when its silhouette reaches
    ``Policy.returns_silhouette``."""
    m = np.asarray(similarity).shape[0]
    if m < max(policy.returns_min_runs, 3) or m > policy.returns_max_runs:
        return Returns(float("nan"), 0, float("nan"), False)
    cut = best_cut(similarity)
    return Returns(cut.silhouette, cut.n_topics, cut.threshold, bool(cut.silhouette >= policy.returns_silhouette))


def returning_potentials(run_labels, Xn: np.ndarray, weights: np.ndarray, policy: Policy) -> tuple[Potentials, Returns]:
    """The grouping's default potentials for the runs of ``run_labels``, and the returns test that chose them.

    The returns test (:func:`detect_returns`, gated by ``Policy.returns_silhouette``, ``returns_min_runs`` and
    ``returns_max_runs``) scores the linkage cuts of the runs' similarity: when the runs
    fall into clear groups, the potentials attract at that cut's height with a weak reading-order prior
    (``Policy.returns_locality``); otherwise they are :class:`~bpseg_pgm.runtopics.RunTopicPotentials` with the
    policy's ``group_*`` numbers."""
    similarity = summarize_runs(Xn, weights, run_labels).similarity()
    returns = detect_returns(similarity, policy)
    if returns.detected:
        return RunTopicPotentials.from_policy(
            policy, threshold=returns.threshold, locality=policy.returns_locality
        ), returns
    return RunTopicPotentials.from_policy(policy), returns


def group_runs(
    fit: RunsFit,
    Xn: np.ndarray,
    weights: np.ndarray,
    *,
    engine: Engine,
    retry,
    seed: int,
    policy: Policy,
    potentials: Potentials | None = None,
) -> RunTopicsFit:
    """The runs of ``fit`` grouped into topics by ``engine`` (:func:`group_engine`); a grouping whose BP did not
    converge is run again with ``retry`` (an engine, None, or a function giving one, called only then)
    (damped, up to ``Policy.group_retry_sweeps`` sweeps), and the damped one kept if it converged. No warning:
    the caller raises it for the grouping whose labels it returns. ``potentials``: the grouping's potentials (None:
    those of the returns test: :func:`returning_potentials`; the result's ``returns`` is that test)."""
    returns = None
    if potentials is None:
        potentials, returns = returning_potentials(fit.labels, Xn, weights, policy)
    rt = fit_run_topics(
        Xn, weights, fit.labels, engine=engine, potentials=potentials, random_state=seed, warn=False, policy=policy
    )
    if not rt.converged and callable(retry) and not isinstance(retry, Engine):
        retry = retry()  # made only when needed
    if not rt.converged and retry is not None:
        damped = fit_run_topics(
            Xn,
            weights,
            fit.labels,
            engine=retry,
            potentials=potentials,
            max_iter=policy.group_retry_sweeps,
            random_state=seed,
            warn=False,
            policy=policy,
        )
        if damped.converged:  # its sweeps counted after the undamped run's
            rt = dataclasses.replace(damped, n_iter=rt.n_iter + damped.n_iter)
    return rt if returns is None else dataclasses.replace(rt, returns=returns)
