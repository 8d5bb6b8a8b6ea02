"""The grouping's potentials are the decision layer's: the returns test (``detect_returns``, its gates the Policy's)
chooses them (``returning_potentials``),
the runs' topics are fitted with them (``fit_run_topics`` computes, with the potentials it is given)."""

import math

import numpy as np
import pytest
from planted import returning_runs

from bpseg_pgm.decisions.grouping import detect_returns, group_engine, group_runs, returning_potentials
from bpseg_pgm.inference.engines import make_engine
from bpseg_pgm.policy import DEFAULT_POLICY as P
from bpseg_pgm.runtopics import RunTopicPotentials, best_cut, fit_run_topics, summarize_runs


def _runs(order, spread):
    X, runs, gold = returning_runs(order=order, spread=spread, size=20)
    return X, runs, gold


def test_returns_that_the_locality_prior_would_split_are_kept_together():
    # weakly separated topics (spread 0.3): the shipped threshold and locality cut them into more topics
    X, runs, gold = _runs((0, 1, 0, 1, 0, 1), spread=0.3)
    w = np.ones(len(X))
    without = fit_run_topics(X, w, runs)  # the policy's potentials, no returns test
    assert without.returns is None and without.n_topics > 2
    pot, returns = returning_potentials(runs, X, w, P)
    assert returns.detected and pot.locality == P.returns_locality and pot.threshold == pytest.approx(returns.threshold)
    fit = fit_run_topics(X, w, runs, potentials=pot)
    np.testing.assert_array_equal(fit.run_topics, [0, 1, 0, 1, 0, 1])
    np.testing.assert_array_equal(fit.labels, gold)


def test_group_runs_decides_the_potentials_and_keeps_the_test():
    X, runs, gold = _runs((0, 1, 0, 1, 0, 1), spread=0.3)
    fit = type("Runs", (), {"labels": runs})()
    rt = group_runs(fit, X, np.ones(len(X)), engine=group_engine(make_engine("potts")), retry=None, seed=0, policy=P)
    assert rt.returns is not None and rt.returns.detected
    np.testing.assert_array_equal(rt.labels, gold)
    # no returns: the policy's own potentials
    X, runs, _ = _runs((0, 1, 2, 3, 4), spread=0.5)
    pot, returns = returning_potentials(runs, X, np.ones(len(X)), P)
    own = RunTopicPotentials.from_policy(P)
    assert not returns.detected and (pot.threshold, pot.locality) == (own.threshold, own.locality)


def test_given_potentials_are_used_as_they_are():
    X, runs, _ = _runs((0, 1, 0, 1, 0, 1), spread=0.3)
    pot = RunTopicPotentials.from_policy(P, threshold=0.9, locality=0.0)
    fit = fit_run_topics(X, np.ones(len(X)), runs, potentials=pot)
    assert fit.returns is None and fit.potentials is pot
    rt = group_runs(
        type("Runs", (), {"labels": runs})(),
        X,
        np.ones(len(X)),
        engine=make_engine("potts"),
        retry=None,
        seed=0,
        policy=P,
        potentials=pot,
    )
    assert rt.returns is None and rt.potentials is pot


# -- the returns test: the runs' best cut, gated by the Policy -----------------------------------------


def _similarity(order, spread=0.5):
    X, runs, _ = _runs(order, spread)
    return summarize_runs(X, np.ones(len(X)), runs).similarity()


@pytest.mark.parametrize("order", [(0, 1, 0, 1, 0, 1), (0, 1, 2, 0, 1, 2)])
def test_runs_of_topics_that_come_back_are_detected_at_the_best_cut(order):
    sim = _similarity(order)
    found, cut = detect_returns(sim, P), best_cut(sim)
    assert found.detected and (found.silhouette, found.n_topics, found.threshold) == (
        cut.silhouette,
        cut.n_topics,
        cut.threshold,
    )
    # the silhouette gate is the Policy's
    assert not detect_returns(sim, P.replace(returns_silhouette=min(1.0, cut.silhouette + 0.01))).detected


def test_runs_of_distinct_topics_are_not_returns():
    found = detect_returns(_similarity((0, 1, 2, 3, 4)), P)
    assert not found.detected and found.silhouette < P.returns_silhouette


@pytest.mark.parametrize("m", [1, 2, P.returns_min_runs - 1])
def test_too_few_runs_are_not_scored(m):
    sim = _similarity(((0, 1) * m)[:m])
    found = detect_returns(sim, P)
    assert not found.detected and found.n_topics == 0 and math.isnan(found.silhouette)
    assert detect_returns(sim, P.replace(returns_min_runs=3)).detected == (m >= 3)


def test_too_many_runs_are_not_scored():
    sim = _similarity((0, 1, 0, 1, 0, 1))
    assert detect_returns(sim, P).detected
    assert not detect_returns(sim, P.replace(returns_max_runs=5)).detected
