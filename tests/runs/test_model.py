"""``BPSeg(structure="runs")``: contiguous runs by the exact segmental programme and chain BP."""

from __future__ import annotations

import math

import numpy as np
import pytest
from planted import check_fitted, planted_blocks
from sklearn.metrics import adjusted_rand_score

from bpseg_pgm.estimator import BPSeg
from bpseg_pgm.runs import RunsFit, fit_runs


def run_labels(sizes):
    """Reading-order run numbers of blocks of the given sizes: 0 0 0 1 1 2 ..."""
    return np.repeat(np.arange(len(sizes)), sizes)


# -- finding the planted runs ------------------------------------------------------------------------


@pytest.mark.parametrize(
    "sizes, noise",
    [((10, 14, 8), 0.05), ((20, 15, 25, 12), 0.1), ((30, 30), 0.1), ((12, 20, 12), 0.15), ((8,) * 5, 0.1)],
)
@pytest.mark.parametrize("seed", [0, 1, 2])
def test_auto_k_finds_the_planted_runs(sizes, noise, seed):
    X, _ = planted_blocks(sizes, noise=noise, seed=seed)
    model = BPSeg(structure="runs", random_state=seed).fit(X)
    check_fitted(model, X.shape[0])
    assert model.n_segments_ == len(sizes)
    np.testing.assert_array_equal(model.labels_, run_labels(sizes))
    # clear data: the marginals agree with the exact MAP runs
    np.testing.assert_array_equal(np.argmax(model.beliefs_, axis=1), model.labels_)


def test_noisier_blocks_have_the_right_count_and_nearly_the_right_boundaries():
    sizes = (15, 15, 15)
    for seed in range(4):
        X, _ = planted_blocks(sizes, noise=0.3, seed=seed)
        model = BPSeg(structure="runs", random_state=0).fit(X)
        check_fitted(model, 45)
        assert model.n_segments_ == 3
        assert adjusted_rand_score(run_labels(sizes), model.labels_) > 0.9


def test_a_returning_topic_is_a_new_run():
    sizes = (12, 12, 12)
    X, _ = planted_blocks(sizes, noise=0.1, seed=3, order=[0, 1, 0])  # A B A
    model = BPSeg(structure="runs", random_state=0).fit(X)
    check_fitted(model, 36)
    np.testing.assert_array_equal(model.labels_, run_labels(sizes))  # three runs, not two labels


def test_a_document_without_structure_is_one_or_few_runs():
    rng = np.random.default_rng(0)
    X = rng.normal(size=(60, 16))
    model = BPSeg(structure="runs", random_state=0).fit(X)
    check_fitted(model, 60)
    assert model.n_segments_ <= 3  # against 4 planted runs found above, noise gives little


@pytest.mark.parametrize("k", [1, 2, 3, 5, 9])
def test_given_k_returns_k_runs(k):
    sizes = (10, 14, 8)
    X, _ = planted_blocks(sizes, noise=0.1, seed=0)
    model = BPSeg(structure="runs", n_segments=k).fit(X)
    check_fitted(model, 32)
    assert model.n_segments_ == k
    if k == 3:
        np.testing.assert_array_equal(model.labels_, run_labels(sizes))


def test_beliefs_are_chain_marginals_that_respect_the_order():
    X, _ = planted_blocks((10, 10, 10), noise=0.4, seed=5)
    model = BPSeg(structure="runs", n_segments=3).fit(X)
    b = model.beliefs_
    assert b[0, 0] == pytest.approx(1.0)  # the first unit opens run 0
    cdf = np.cumsum(b, axis=1)  # P(run <= j) never increases along the text
    assert np.all(np.diff(cdf, axis=0) <= 1e-9)
    # units near a boundary are less sure than units in the middle of a run
    assert b[5].max() > 0.99 and b[25].max() > 0.99


def test_same_random_state_same_labels():
    X, _ = planted_blocks((9, 7, 11, 6), noise=0.35, seed=11)
    for seed in (0, 3):
        a = BPSeg(structure="runs", random_state=seed).fit(X)
        b = BPSeg(structure="runs", random_state=seed).fit(X)
        np.testing.assert_array_equal(a.labels_, b.labels_)
        np.testing.assert_array_equal(a.beliefs_, b.beliefs_)
        assert a.log_partition_ == b.log_partition_
    c = BPSeg(structure="runs").fit(X)  # random_state None: seed 0
    d = BPSeg(structure="runs", random_state=0).fit(X)
    np.testing.assert_array_equal(c.labels_, d.labels_)


def test_fit_predict_and_attributes():
    X, _ = planted_blocks((8, 8), noise=0.1, seed=0)
    model = BPSeg(structure="runs")
    labels = model.fit_predict(X, sample_weight=np.ones(16))
    np.testing.assert_array_equal(labels, model.labels_)
    assert model.n_iter_ == 1 and model.converged_ is True
    np.testing.assert_array_equal(model.edges_, np.stack([np.arange(15), np.arange(1, 16)], axis=1))
    assert model.representatives_ is None and model.lam_ is None and model.context_ == 0.0


# -- sample_weight -------------------------------------------------------------------------------------


def test_sample_weight_is_used():
    X, _ = planted_blocks((10, 10), noise=0.1, seed=0)
    a = BPSeg(structure="runs", n_segments=2).fit(X)
    b = BPSeg(structure="runs", n_segments=2).fit(X, sample_weight=np.full(20, 3.0))
    np.testing.assert_array_equal(a.labels_, b.labels_)
    w = np.ones(20)
    w[::2] = 0.05  # uneven weights change the features, the scatter and so the marginals
    c = BPSeg(structure="runs", n_segments=2).fit(X, sample_weight=w)
    check_fitted(c, 20)
    assert not np.allclose(a.beliefs_, c.beliefs_)


def test_zero_weights_are_allowed():
    X, _ = planted_blocks((6, 6, 6), noise=0.1, seed=0)
    w = np.ones(18)
    w[[0, 6, 7, 17]] = 0.0
    for k in ("auto", 2, 3, 5):
        check_fitted(BPSeg(structure="runs", n_segments=k).fit(X, sample_weight=w), 18)


def test_a_run_of_zero_weight_units_does_not_crash():
    # identical rows: every segmentation costs 0, so the programme may put a run on units that
    # all weigh 0; its mean must still be defined
    X = np.tile([[1.0, 0.0, 0.0]], (6, 1))
    for w in ([1, 0, 0, 0, 0, 0], [0, 1, 1, 1, 1, 1], [1, 0, 1, 0, 1, 0], [1, 1, 0, 0, 0, 1]):
        for k in (2, 3, 4):
            check_fitted(BPSeg(structure="runs", n_segments=k).fit(X, sample_weight=np.array(w, float)), 6)


@pytest.mark.parametrize(
    "weights, message",
    [
        (np.ones(5), "one weight per row"),
        (np.ones(7), "one weight per row"),
        (np.ones((6, 1)), "one weight per row"),
        (np.r_[np.ones(5), -1.0], ">= 0"),
        (np.r_[np.ones(5), np.nan], "finite"),
        (np.r_[np.ones(5), np.inf], "finite"),
        (np.zeros(6), "not all zero"),
        (["a"] * 6, "numbers"),
    ],
)
def test_bad_sample_weight(weights, message):
    X, _ = planted_blocks((3, 3), seed=0)
    with pytest.raises(ValueError, match=message):
        BPSeg(structure="runs").fit(X, sample_weight=weights)


# -- parameter checks -----------------------------------------------------------------------------------


@pytest.mark.parametrize("bad", ["yes", True, None, 1, "Runs"])
def test_structure_must_be_a_name(bad):
    X, _ = planted_blocks((4, 4), seed=0)
    with pytest.raises(ValueError, match="structure must be one of"):
        BPSeg(structure=bad).fit(X)


def test_numpy_bools_are_bools():
    X, _ = planted_blocks((6, 6), seed=0)
    assert BPSeg(structure="runs", group_runs=np.True_, n_segments=2).fit(X).n_segments_ == 2


@pytest.mark.parametrize("k", [0, -1, 13, 2.0, True, "two", None, "AUTO"])
def test_n_segments_out_of_range(k):
    X, _ = planted_blocks((6, 6), seed=0)
    with pytest.raises(ValueError, match="n_segments"):
        BPSeg(structure="runs", n_segments=k).fit(X)


def test_n_segments_may_be_n_or_numpy_int():
    X, _ = planted_blocks((3, 3), seed=0)
    model = BPSeg(structure="runs", n_segments=np.int64(6)).fit(X)
    np.testing.assert_array_equal(model.labels_, np.arange(6))
    check_fitted(model, 6)


def test_bad_embeddings_and_random_state():
    with pytest.raises(ValueError):
        BPSeg(structure="runs").fit(np.array([[1.0, np.nan], [0.0, 1.0]]))
    with pytest.raises(ValueError):
        BPSeg(structure="runs").fit(np.zeros((0, 3)))
    X, _ = planted_blocks((3, 3), seed=0)
    with pytest.raises(ValueError, match="random_state"):
        BPSeg(structure="runs", random_state=-1).fit(X)


@pytest.mark.parametrize("n", [1, 2, 3, 4, 5])
def test_tiny_documents(n):
    X, _ = planted_blocks((3, 3), seed=0)
    model = BPSeg(structure="runs").fit(X[:n])
    check_fitted(model, n)
    model = BPSeg(structure="runs", n_segments=n).fit(X[:n])
    check_fitted(model, n)
    assert model.n_segments_ == n


def test_fit_runs_directly():
    X, _ = planted_blocks((10, 10), noise=0.1, seed=0)
    res = fit_runs(X, np.ones(20), 2)
    assert isinstance(res, RunsFit)
    np.testing.assert_array_equal(res.labels, run_labels((10, 10)))
    assert res.beliefs.shape == (20, 2) and math.isfinite(res.log_partition)
    auto = fit_runs(X, np.ones(20), "auto", random_state=0)
    np.testing.assert_array_equal(auto.labels, res.labels)


def test_chain_beliefs_are_computed_on_first_use_only():
    X, _ = planted_blocks((30, 30, 30), dim=24, noise=0.2, seed=3)
    w = np.ones(len(X))
    fit = fit_runs(X, w, 3)
    assert fit._chain is None  # not paid until asked for
    beliefs, log_z = fit.beliefs, fit.log_partition
    assert fit._chain is not None and beliefs is fit.beliefs  # computed once, then kept
    assert beliefs.shape == (90, 3) and np.allclose(beliefs.sum(axis=1), 1.0) and math.isfinite(log_z)
    # the runs that a default fit grouped into topics never needed their chain
    model = BPSeg(random_state=0, structure="runs", group_runs=True).fit(X)
    assert model.structure_ == "run-topics" and model.runs_._chain is None
    assert np.allclose(model.runs_.beliefs.sum(axis=1), 1.0)


def test_an_automatic_fit_keeps_its_gain_over_the_null():
    X, _ = planted_blocks((10, 12, 9, 11), dim=24, noise=0.2, seed=4)
    w = np.ones(len(X))
    fit = fit_runs(X, w, "auto", random_state=0)
    gain = fit.null_gain
    assert gain.shape == (fit.levels.max_runs,) and gain[0] == 0.0
    assert int(fit.labels.max()) + 1 == 1 + int(np.argmax(gain))  # k is the gain's argmax
    assert fit.at(2).null_gain is gain  # a re-cut of the same document keeps it
    assert fit_runs(X, w, 3, random_state=0).null_gain is None  # k given: no null was solved
