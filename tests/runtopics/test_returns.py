"""The returns test: runs that fall into clear groups are found and kept together by BP; runs of distinct
topics, or too few runs, are not taken for returns."""

import math

import numpy as np
import pytest
from planted import returning_runs

from bpseg_pgm.policy import DEFAULT_POLICY as P
from bpseg_pgm.runtopics import detect_returns, summarize_runs


def _similarity(order, spread, size=20):
    X, runs, gold = returning_runs(order=order, spread=spread, size=size)
    return X, runs, gold, summarize_runs(X, np.ones(len(X)), runs).similarity()


@pytest.mark.parametrize("order", [(0, 1, 0, 1, 0, 1), (0, 1, 2, 0, 1, 2)])
def test_runs_of_topics_that_come_back_are_found_with_their_number_of_topics(order):
    *_, sim = _similarity(order, spread=0.5)
    found = detect_returns(sim)
    assert found.detected and found.silhouette >= P.returns_silhouette and found.n_topics == max(order) + 1
    # the threshold separates the pairs of one topic from the pairs of two
    same = np.equal.outer(order, order) & ~np.eye(len(order), dtype=bool)
    assert sim[same].min() > found.threshold > sim[~np.equal.outer(order, order)].max()


def test_runs_of_distinct_topics_are_not_returns():
    *_, sim = _similarity((0, 1, 2, 3, 4), spread=0.5)
    found = detect_returns(sim)
    assert not found.detected and found.silhouette < P.returns_silhouette


@pytest.mark.parametrize("m", [1, 2, P.returns_min_runs - 1])
def test_too_few_runs_are_not_scored(m):
    *_, sim = _similarity(((0, 1) * m)[:m], spread=0.5)
    found = detect_returns(sim)
    assert not found.detected and found.n_topics == 0 and math.isnan(found.silhouette)
    assert detect_returns(sim, min_runs=3).detected == (m >= 3)


def test_too_many_runs_are_not_scored():
    *_, sim = _similarity((0, 1, 0, 1, 0, 1), spread=0.5)
    assert not detect_returns(sim, max_runs=5).detected
