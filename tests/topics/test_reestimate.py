"""Re-estimation of the representatives: emptied labels dropped, duplicate labels merged."""

from __future__ import annotations

import numpy as np
import pytest

from bpseg_pgm.policy import DEFAULT_POLICY as P
from bpseg_pgm.topics.reestimate import merge_similar, reestimate_centers


def test_merge_similar_sums_groups_and_keeps_order():
    a, b = np.array([1.0, 0.0, 0.0]), np.array([0.0, 1.0, 0.0])
    M = np.stack([2 * a, b, a + 0.01 * b, 3 * b + 0.02 * a])
    out = merge_similar(M, 0.9)
    assert out.shape == (2, 3)
    np.testing.assert_allclose(out[0], M[0] + M[2])  # first group first
    np.testing.assert_allclose(out[1], M[1] + M[3])
    # a threshold above every pair's similarity merges nothing
    np.testing.assert_allclose(merge_similar(M, 0.99999), M)


def test_merge_is_complete_linkage():
    # x ~ y and y ~ z above 0.9 but x, z below: complete linkage does not chain them
    ang = np.deg2rad([0.0, 20.0, 40.0])
    M = np.stack([np.cos(ang), np.sin(ang)], axis=1)
    assert np.cos(np.deg2rad(20)) > 0.9 > np.cos(np.deg2rad(40))
    assert merge_similar(M, 0.9).shape[0] == 2


@pytest.mark.parametrize("bad", [1.5, -2.0])
def test_bad_threshold(bad):
    with pytest.raises(ValueError, match="merge_above"):
        merge_similar(np.eye(3), bad)


def test_reestimate_drops_emptied_labels_and_merges():
    X = np.eye(4)[[0, 0, 1, 1]].astype(float)
    beliefs = np.array(
        [[0.5, 0.5, 0.0, 0.0], [0.4, 0.6, 0.0, 0.0], [0.0, 0.0, 0.9, 0.1], [0.0, 0.0, 0.8, 0.2]]
    )  # labels 0 and 1 hold topic A, label 2 topic B, label 3 only 0.3 of a sentence
    C = reestimate_centers(beliefs, X, min_mass=P.topic_min_mass)
    assert C.shape == (3, 4)  # label 3 dropped
    C = reestimate_centers(beliefs, X, merge_above=0.9, min_mass=P.topic_min_mass)
    np.testing.assert_allclose(C, np.eye(4)[[0, 1]])  # and labels 0, 1 merged
    assert reestimate_centers(np.full((4, 2), 0.1), X, min_mass=P.topic_min_mass) is None


def test_estimator_merge_above():
    import sys
    from pathlib import Path

    sys.path.insert(0, str(Path(__file__).parent))
    from test_defaults import topics

    from bpseg_pgm import BPSeg

    X, _ = topics(1000, 4, "blocks", seed=1000)  # measured: 4 segments merged, 9 unmerged
    # the topic model's merge: structure="topics" (under "auto" the guard may hand a scattered
    # unmerged result to the runs model, which has no merge)
    merged = BPSeg(structure="topics").fit(X)
    unmerged = BPSeg(structure="topics", merge_above=None).fit(X)
    assert merged.merge_above == 0.9 and len(np.unique(merged.labels_)) == 4
    assert len(np.unique(unmerged.labels_)) >= 6
    for bad in (1.5, float("nan"), "x", True):
        with pytest.raises(ValueError, match="merge_above"):
            BPSeg(merge_above=bad).fit(X[:10])
