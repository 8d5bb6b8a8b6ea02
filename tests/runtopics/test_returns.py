"""The runs' best linkage cut: runs that fall into clear groups score a high silhouette, with their number of
topics and a threshold between them; runs of distinct topics score low; too few runs are not scored."""

import math

import numpy as np
import pytest
from planted import returning_runs

from bpseg_pgm.policy import DEFAULT_POLICY as P
from bpseg_pgm.runtopics import best_cut, summarize_runs


def _similarity(order, spread, size=20):
    X, runs, gold = returning_runs(order=order, spread=spread, size=size)
    return summarize_runs(X, np.ones(len(X)), runs).similarity()


@pytest.mark.parametrize("order", [(0, 1, 0, 1, 0, 1), (0, 1, 2, 0, 1, 2)])
def test_runs_of_topics_that_come_back_have_a_cut_with_their_number_of_topics(order):
    sim = _similarity(order, spread=0.5)
    cut = best_cut(sim)
    assert cut.silhouette >= P.returns_silhouette and cut.n_topics == max(order) + 1
    # the threshold separates the pairs of one topic from the pairs of two
    same = np.equal.outer(order, order) & ~np.eye(len(order), dtype=bool)
    assert sim[same].min() > cut.threshold > sim[~np.equal.outer(order, order)].max()


def test_runs_of_distinct_topics_have_no_good_cut():
    assert best_cut(_similarity((0, 1, 2, 3, 4), spread=0.5)).silhouette < P.returns_silhouette


@pytest.mark.parametrize("m", [1, 2])
def test_fewer_than_three_runs_have_no_cut(m):
    cut = best_cut(_similarity(((0, 1) * m)[:m], spread=0.5))
    assert cut.n_topics == 0 and math.isnan(cut.silhouette) and math.isnan(cut.threshold)
