"""GraphSeg: the published worked example by hand, the port's merging, planted blocks."""

from __future__ import annotations

import numpy as np
import pytest
from sklearn.metrics import adjusted_rand_score

from bpseg_bench.baselines.graphseg import (
    GraphSeg,
    maximal_cliques,
    merge_small_segments,
    paper_segments,
    port_segments,
)

# The GraphSeg paper's example (1-based there): cliques {1,2,6} {2,4,7} {3,4,5} {1,8,9}.
EXAMPLE_CLIQUES = [[0, 1, 5], [1, 3, 6], [2, 3, 4], [0, 7, 8]]


def example_similarity(value=0.5):
    S = np.zeros((9, 9))
    for clique in EXAMPLE_CLIQUES:
        for a in clique:
            for b in clique:
                if a != b:
                    S[a, b] = value
    np.fill_diagonal(S, 1.0)
    return S


def test_cliques_of_the_thresholded_graph():
    S = example_similarity()
    assert maximal_cliques(S, 0.2) == sorted(EXAMPLE_CLIQUES)
    assert maximal_cliques(S, 0.6) == [[i] for i in range(9)]  # no edge: isolated sentences


def test_paper_merging_reproduces_the_worked_example():
    # initial: {1,2} {3,4,5} {6} {7} {8,9}; {2,4,7} joins the first two; nothing else merges
    assert paper_segments(EXAMPLE_CLIQUES, 9) == [[0, 1, 2, 3, 4], [5], [6], [7, 8]]


def test_merge_small_goes_to_the_more_similar_neighbour():
    S = example_similarity()
    segs = [[0, 1, 2, 3, 4], [5], [6], [7, 8]]
    # [5]: left mean (S[5,0] + S[5,1]) / 5 = 0.2 > right 0; then [6]: left 1.0 / 6 > right 0
    assert merge_small_segments(segs, S, 2) == [[0, 1, 2, 3, 4, 5, 6], [7, 8]]
    assert merge_small_segments(segs, S, 1) == segs
    assert merge_small_segments(segs, S, 100) == [list(range(9))]


def test_port_merging_grows_segments_but_never_joins_them():
    S = example_similarity()
    # {1,2} and {8,9} start from adjacent pairs, {3,4,5} grows from {3,4}; 6 and 7 are left
    # alone and each joins the side it is more similar to: 6 ties at 0 (goes left), 7 has 0.5
    # to sentence 4 -> left; {1,2} is never merged with {3,...} although a clique connects them
    assert port_segments(EXAMPLE_CLIQUES, S) == [[0, 1], [2, 3, 4, 5, 6], [7, 8]]


@pytest.mark.parametrize("variant", ["paper", "graphseg-python"])
def test_recovers_planted_contiguous_blocks(planted, variant):
    X, labels = planted([5, 7, 4, 6])
    model = GraphSeg(tau=0.2, min_size=1, variant=variant)
    pred = model.fit_predict(X)
    assert adjusted_rand_score(labels, pred) == 1.0
    assert np.all(np.diff(pred) >= 0)  # contiguous, numbered left to right


def test_returning_topic_is_a_new_segment(planted):
    X, _ = planted([4, 4, 4], order=[0, 1, 0])
    assert GraphSeg().fit_predict(X).tolist() == [0] * 4 + [1] * 4 + [2] * 4


def test_single_sentence_and_bad_parameters():
    assert GraphSeg().fit_predict(np.ones((1, 3))).tolist() == [0]
    assert GraphSeg(variant="graphseg-python").fit_predict(np.ones((1, 3))).tolist() == [0]
    for params in ({"tau": 2.0}, {"min_size": 0}, {"variant": "java"}):
        with pytest.raises(ValueError):
            GraphSeg(**params).fit_predict(np.eye(3))
    with pytest.raises(ValueError):
        GraphSeg().fit_predict(np.zeros((0, 3)))
