"""TextTiling on embeddings: depth scores by hand, planted blocks recovered."""

from __future__ import annotations

import numpy as np
import pytest
from sklearn.metrics import adjusted_rand_score

from bpseg_bench.baselines.texttiling import TextTiling, depth_scores, gap_scores, smooth


def test_depth_scores_by_hand():
    assert depth_scores(np.array([1.0, 0.5, 1.0])).tolist() == [0.0, 1.0, 0.0]
    # climbing: gap 2 has left peak 0.9 (via 0.6) and right peak 0.8 -> 0.9 + 0.8 - 0.4
    assert depth_scores(np.array([0.9, 0.6, 0.2, 0.8]))[2] == pytest.approx(1.3)


def test_gap_scores_and_smoothing_by_hand():
    X = np.array([[1.0, 0.0], [1.0, 0.0], [0.0, 1.0], [0.0, 1.0]])
    assert gap_scores(X, 1).tolist() == pytest.approx([1.0, 0.0, 1.0])
    assert gap_scores(X, 2)[1] == pytest.approx(0.0)
    assert smooth(np.array([0.0, 3.0, 0.0]), 1).tolist() == pytest.approx([1.5, 1.0, 1.5])
    assert smooth(np.array([0.0, 3.0, 0.0]), 0).tolist() == [0.0, 3.0, 0.0]


def test_recovers_planted_blocks(planted):
    X, labels = planted([8, 9, 7, 10])
    pred = TextTiling().fit_predict(X)
    assert adjusted_rand_score(labels, pred) == 1.0
    assert np.all(np.diff(pred) >= 0)


def test_min_gap_suppresses_close_boundaries(planted):
    X, _ = planted([3, 3, 3, 3])
    assert TextTiling(window=1, min_gap=1).fit_predict(X).max() == 3
    assert TextTiling(window=1, min_gap=5).fit_predict(X).max() < 3


def test_short_inputs_and_bad_parameters():
    assert TextTiling().fit_predict(np.eye(2)).tolist() == [0, 0]
    for params in ({"window": 0}, {"min_gap": 0}, {"smoothing_width": -1}, {"cutoff": "x"}):
        with pytest.raises(ValueError):
            TextTiling(**params).fit_predict(np.eye(4))
    with pytest.raises(ValueError):
        TextTiling().fit_predict(np.array([[np.inf, 0.0]]))
