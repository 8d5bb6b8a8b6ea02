"""Topics over runs: runs of one topic far apart get one label; unrelated runs keep theirs; any engine plugs in."""

import numpy as np
import pytest
from planted import returning_runs as returning
from sklearn.exceptions import ConvergenceWarning

from bpseg_pgm.policy import DEFAULT_POLICY as P
from bpseg_pgm.runtopics import RunTopicPotentials, fit_run_topics
from bpseg_pgm.runtopics.fit import propose_topics, run_edges


def test_a_topic_that_returns_gets_its_earlier_label_and_the_others_keep_theirs():
    X, runs, gold = returning()
    fit = fit_run_topics(X, np.ones(len(X)), runs)
    np.testing.assert_array_equal(fit.run_topics, [0, 1, 0, 2])
    np.testing.assert_array_equal(fit.labels, gold)
    assert fit.returning_topics() == [0] and fit.n_topics == 3 and fit.converged
    assert fit.beliefs.shape == (len(X), 3)
    np.testing.assert_allclose(fit.beliefs.sum(axis=1), 1.0)
    assert np.all(np.isfinite(fit.beliefs)) and np.all(fit.beliefs[np.arange(len(X)), fit.labels] > 0.5)


def test_unrelated_runs_are_not_grouped():
    X, runs, _ = returning(order=(0, 1, 2, 3, 4))
    fit = fit_run_topics(X, np.ones(len(X)), runs)
    np.testing.assert_array_equal(fit.run_topics, np.arange(5))
    assert fit.returning_topics() == []


def test_neighbouring_runs_of_one_topic_merge_into_one_segment():
    X, runs, gold = returning(order=(0, 0, 1, 1, 2))  # the runs model over-cut topics 0 and 1
    fit = fit_run_topics(X, np.ones(len(X)), runs)
    np.testing.assert_array_equal(fit.run_topics, [0, 0, 1, 1, 2])
    assert fit.returning_topics() == []  # adjacent runs joined: nothing comes back


@pytest.mark.parametrize("engine", ["loopy", "exact", "reference", "max-product"])
def test_every_engine_that_takes_potentials_groups_the_same_way(engine):
    X, runs, _ = returning(order=(0, 1, 0, 2, 1))
    base = fit_run_topics(X, np.ones(len(X)), runs)
    other = fit_run_topics(X, np.ones(len(X)), runs, engine=engine)
    np.testing.assert_array_equal(other.run_topics, base.run_topics)
    np.testing.assert_array_equal(base.run_topics, [0, 1, 0, 2, 1])


def test_loopy_builds_the_pgmpy_network_of_runs():
    X, runs, _ = returning()
    fit = fit_run_topics(X, np.ones(len(X)), runs, engine="loopy")
    assert type(fit.model).__name__ == "DiscreteMarkovNetwork" and len(fit.model.nodes()) == 4


def test_the_threshold_decides_what_groups():
    X, runs, _ = returning(order=(0, 1, 2, 3))
    everything = fit_run_topics(X, np.ones(len(X)), runs, potentials=RunTopicPotentials.from_policy(P, threshold=-1.0))
    assert everything.n_topics == 1  # every pair is "alike" at -1: one topic
    nothing = fit_run_topics(
        X, np.ones(len(X)), runs, potentials=RunTopicPotentials.from_policy(P, threshold=1.0, locality=0.0)
    )
    assert nothing.n_topics == 4


def test_one_run_is_one_topic():
    X, runs, _ = returning(order=(0,))
    fit = fit_run_topics(X, np.ones(len(X)), runs)
    assert fit.n_topics == 1 and np.all(fit.labels == 0) and fit.n_iter == 0


def test_weights_count_in_the_means():
    X, runs, _ = returning(order=(0, 1))
    w = np.ones(len(X))
    w[:5] = 0.0  # zero-weight units leave the run's mean to the others
    fit = fit_run_topics(X, w, runs)
    assert fit.summary.sizes[0] == pytest.approx(25.0)


def test_bad_arguments_are_one_clear_error():
    X, runs, _ = returning()
    with pytest.raises(ValueError, match="max_rounds"):
        fit_run_topics(X, np.ones(len(X)), runs, max_rounds=0)
    with pytest.raises(ValueError, match="own potentials"):
        fit_run_topics(X, np.ones(len(X)), runs, engine="appendix")
    with pytest.raises(ValueError, match="potentials must be"):
        fit_run_topics(X, np.ones(len(X)), runs, potentials="centered")
    with pytest.raises(ValueError, match="threshold"):
        RunTopicPotentials.from_policy(P, threshold=2.0)


def test_an_unconverged_last_round_warns():
    X, runs, _ = returning(order=(0, 1, 0, 2, 1, 2))
    with pytest.warns(ConvergenceWarning, match="over the runs"):
        fit_run_topics(X, np.ones(len(X)), runs, engine="loopy", max_iter=1, tol=1e-300)


def test_proposal_and_edges():
    sim = np.array([[1.0, 0.9, 0.0], [0.9, 1.0, 0.0], [0.0, 0.0, 1.0]])
    np.testing.assert_array_equal(propose_topics(sim, 0.5), [0, 0, 1])
    assert run_edges(sim, policy=P).tolist() == [[0, 1], [0, 2], [1, 2]]
    big = np.eye(30)
    sparse = run_edges(big, policy=P.replace(group_max_dense_runs=10, group_sparse_neighbors=2))
    assert {(i, i + 1) for i in range(29)} <= {tuple(e) for e in sparse}  # reading-order neighbours always
    assert len(sparse) < 30 * 29 // 2 and np.all(sparse[:, 0] < sparse[:, 1])
