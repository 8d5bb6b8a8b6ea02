"""kcpd-auto: KernelCPD with penalty C sqrt(T log T), C at the elbow of K(C), on planted topics."""

from __future__ import annotations

import numpy as np
import pytest
from planted import planted_blocks

from bpseg_bench.baselines.kcpd_auto import DEFAULT_C_GRID, KCPDAuto, elbow_index, penalty_scale

pytest.importorskip("ruptures")


def test_a_clear_two_topic_document_is_cut_at_the_boundary():
    X, topics = planted_blocks((20, 20), seed=0)
    model = KCPDAuto()
    labels = model.fit_predict(X)
    np.testing.assert_array_equal(labels, topics)
    assert labels.dtype == np.int64 and model.labels_ is labels
    assert model.c_ in DEFAULT_C_GRID
    assert model.penalty_ == pytest.approx(model.c_ * np.sqrt(40 * np.log(40)))
    assert model.n_change_points_.shape == (len(DEFAULT_C_GRID),)
    assert np.all(np.diff(model.n_change_points_) <= 0)  # never more change points at a larger penalty


def boundaries(labels):
    return set(np.flatnonzero(np.diff(labels)) + 1)


@pytest.mark.parametrize(
    "sizes, seed", [((10, 14, 8), 0), ((20, 15, 25, 12), 1), ((12, 12, 12), 4), ((30, 40, 25, 35, 30), 5)]
)
def test_planted_topics_are_found_without_their_number(sizes, seed):
    """Every planted boundary is cut; the knee sits where the steep fall of K(C) ends, so on a log grid it
    may keep a spurious cut or two."""
    X, topics = planted_blocks(sizes, seed=seed)
    labels = KCPDAuto().fit_predict(X)
    assert boundaries(topics) <= boundaries(labels)
    assert len(boundaries(labels)) <= len(sizes) + 1


def test_rbf_kernel_on_a_clear_document():
    X, topics = planted_blocks((15, 15, 15), seed=2)
    np.testing.assert_array_equal(KCPDAuto(kernel="rbf").fit_predict(X), topics)


def test_deterministic():
    X, _ = planted_blocks((10, 10, 10), noise=0.5, seed=3)
    a, b = KCPDAuto().fit(X), KCPDAuto().fit(X)
    np.testing.assert_array_equal(a.labels_, b.labels_)
    assert a.c_ == b.c_
    np.testing.assert_array_equal(a.n_change_points_, b.n_change_points_)


def test_elbow_by_hand():
    c = [1.0, 10.0, 100.0, 1000.0, 10000.0]
    # flat start dropped (index 1 is the last C at 10): x = 0, 1/3, 2/3, 1; y = 1, .2, .1, 0
    assert elbow_index(c, [10, 10, 2, 1, 0]) == 2
    assert elbow_index(c, [10, 9, 8, 7, 6]) == 0  # a straight line: every point on the chord, the smallest C
    assert elbow_index(c, [10, 10, 1, 1, 1]) == 2  # a clean drop to a count that holds: the first C at the bottom
    assert elbow_index(c, [10, 1, 0, 0, 0]) == 1  # trailing zeros dropped but the first: x = 0, .5, 1; y = 1, .1, 0
    assert elbow_index(c, [10, 0, 0, 0, 0]) == 0  # all or nothing: the chord's two ends tie, the smaller C
    assert elbow_index(c, [3, 3, 3, 3, 3]) == 0  # nothing changes
    # a long saturated start is dropped: x = 0, 1/3, 2/3, 1 from the fourth C; y = 1, .6, .5, 0
    assert elbow_index(np.logspace(0, 6, 7), [10, 10, 10, 10, 6, 5, 0]) == 4


def test_the_elbow_does_not_depend_on_the_grid_beyond_where_the_count_moves():
    X, topics = planted_blocks((12, 18, 15), noise=0.2, seed=7)
    base = KCPDAuto().fit(X)
    wide = KCPDAuto(c_grid=np.logspace(-7, 3, 101)).fit(X)  # the same log step, reaching further both ways
    assert wide.c_ == pytest.approx(base.c_)
    np.testing.assert_array_equal(wide.labels_, base.labels_)


def test_more_noise_does_not_make_fewer_large_errors():
    """On a noisy document the count follows the elbow, not the gold: segments stay contiguous and labelled in order."""
    X, _ = planted_blocks((25, 25, 25, 25), noise=1.5, seed=9)
    labels = KCPDAuto().fit_predict(X)
    assert labels[0] == 0 and np.all(np.diff(labels) >= 0) and np.all(np.diff(labels) <= 1)


@pytest.mark.parametrize("n, min_size", [(1, 2), (3, 2), (5, 3)])
def test_too_short_to_cut_is_one_segment(n, min_size):
    X, _ = planted_blocks((n,), seed=0)
    model = KCPDAuto(min_size=min_size).fit(X)
    if n < 2:
        np.testing.assert_array_equal(model.labels_, [0])
        assert np.isnan(model.c_) and model.n_change_points_.size == 0
    else:  # min size is cut to n // 2: segments of at least that many units
        assert np.bincount(model.labels_).min() >= n // 2


def test_min_size_bounds_the_segments():
    X, _ = planted_blocks((20, 20), noise=1.0, seed=1)
    labels = KCPDAuto(min_size=5).fit_predict(X)
    assert np.bincount(labels).min() >= 5


def test_penalty_scale():
    assert penalty_scale(100) == pytest.approx(np.sqrt(100 * np.log(100)))
    assert penalty_scale(1) == 0.0


@pytest.mark.parametrize(
    "kwargs, message",
    [
        (dict(kernel="linear"), "kernel"),
        (dict(kernel="nope"), "kernel"),
        (dict(min_size=0), "min_size"),
        (dict(min_size=1.5), "min_size"),
        (dict(min_size=True), "min_size"),
        (dict(c_grid=[0.1, 1.0]), "c_grid"),
        (dict(c_grid=[0.0, 0.1, 1.0]), "c_grid"),
        (dict(c_grid=[-1.0, 0.1, 1.0]), "c_grid"),
        (dict(c_grid=[0.1, 1.0, 1.0]), "c_grid"),
        (dict(c_grid=[1.0, 0.1, 0.01]), "c_grid"),
        (dict(c_grid=[0.1, float("nan"), 1.0]), "c_grid"),
        (dict(c_grid=[0.1, 1.0, float("inf")]), "c_grid"),
        (dict(c_grid=[[0.1, 1.0, 10.0]]), "c_grid"),
        (dict(c_grid=["a", "b", "c"]), "c_grid"),
        (dict(c_grid=0.1), "c_grid"),
    ],
)
@pytest.mark.parametrize("n", [1, 12])
def test_bad_parameters_raise_whatever_the_length(kwargs, message, n):
    X, _ = planted_blocks((6, 6), seed=0)
    with pytest.raises(ValueError, match=message):
        KCPDAuto(**kwargs).fit(X[:n])


@pytest.mark.parametrize("bad", [np.zeros((0, 3)), np.zeros(4), np.array([[0.0, np.inf]])])
def test_bad_embeddings(bad):
    with pytest.raises(ValueError):
        KCPDAuto().fit(bad)
