"""The grouping's potentials are the decision layer's: the returns test chooses them (``returning_potentials``),
the runs' topics are fitted with them (``fit_run_topics`` computes, with the potentials it is given)."""

import numpy as np
import pytest
from planted import returning_runs

from bpseg_pgm.decisions.grouping import group_engine, group_runs, returning_potentials
from bpseg_pgm.inference.engines import make_engine
from bpseg_pgm.policy import DEFAULT_POLICY as P
from bpseg_pgm.runtopics import RunTopicPotentials, fit_run_topics


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
    pot = RunTopicPotentials(threshold=0.9, locality=0.0)
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
