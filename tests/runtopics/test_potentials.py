"""The runs' potentials: similar runs attract, dissimilar repel, neighbours pay to differ."""

import numpy as np

from bpseg_pgm.policy import DEFAULT_POLICY as P
from bpseg_pgm.runtopics import RunTopicPotentials
from bpseg_pgm.runtopics.summary import summarize_runs


def test_coupling_sign_follows_the_threshold_and_neighbours_pay_locality():
    M = np.array([[1.0, 0.0], [1.0, 0.0], [0.0, 1.0]])
    pot = RunTopicPotentials.from_policy(P, threshold=0.4, lam=10.0, locality=3.0)
    w = pot.log_coupling(M, np.array([0, 0, 1]), np.array([1, 2, 2]))
    # (0, 1): alike, neighbours; (0, 2): unrelated, not neighbours; (1, 2): unrelated, neighbours
    np.testing.assert_allclose(w, [-10 * 0.6 / 2 - 3.0, 10 * 0.4 / 2, 10 * 0.4 / 2 - 3.0])
    np.testing.assert_allclose(pot.log_unary(M, M[[0, 2]]), [[1, 0], [1, 0], [0, 1]])


def test_summary_centres_the_means_on_the_document():
    X = np.array([[1.0, 0.0], [1.0, 0.0], [0.0, 1.0], [0.0, 1.0]])
    s = summarize_runs(X, np.ones(4), [0, 0, 1, 1])
    np.testing.assert_array_equal(s.bounds, [0, 2, 4])
    np.testing.assert_allclose(s.means @ s.means.T, [[1, -1], [-1, 1]], atol=1e-12)  # opposite once centred
    np.testing.assert_allclose(s.sizes, [2, 2])
    one = summarize_runs(X, np.ones(4), [0, 0, 0, 0])
    np.testing.assert_array_equal(one.means, 0.0)  # the only run is the document's mean: no direction
