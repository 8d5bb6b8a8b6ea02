"""KernelCPD (ruptures, cosine kernel): true k and the penalised form on planted steps."""

from __future__ import annotations

import numpy as np
import pytest

from bpseg_bench.baselines.kernel_cpd import DEFAULT_PENALTY, KernelCPD

pytest.importorskip("ruptures")


def steps(sizes, dim=24, noise=0.1, seed=0, order=None):
    """Unit rows in blocks around orthogonal topic vectors; the run number of each row."""
    rng = np.random.default_rng(seed)
    topics = np.repeat(np.arange(len(sizes)) if order is None else np.asarray(order), sizes)
    X = np.eye(dim)[topics] + noise * rng.normal(size=(len(topics), dim))
    return X / np.linalg.norm(X, axis=1, keepdims=True), np.repeat(np.arange(len(sizes)), sizes)


CASES = [((10, 14, 8), 0), ((20, 15, 25, 12), 1), ((6, 6, 6, 6, 6), 2), ((3, 17), 3), ((12, 12, 12), 4)]


@pytest.mark.parametrize("sizes, seed", CASES)
def test_true_k_finds_the_exact_boundaries(sizes, seed):
    X, runs = steps(sizes, seed=seed)
    model = KernelCPD(n_segments=len(sizes))
    labels = model.fit_predict(X)
    np.testing.assert_array_equal(labels, runs)
    assert labels.dtype == np.int64 and model.labels_ is labels


def test_true_k_with_a_returning_topic_cuts_every_run():
    X, runs = steps((8, 8, 8), order=[0, 1, 0], seed=5)
    np.testing.assert_array_equal(KernelCPD(n_segments=3).fit_predict(X), runs)


@pytest.mark.parametrize("sizes, seed", CASES)
def test_penalised_form_finds_the_planted_count(sizes, seed):
    X, runs = steps(sizes, seed=seed)
    labels = KernelCPD().fit_predict(X)  # default penalty
    assert labels.max() + 1 == len(sizes)
    np.testing.assert_array_equal(labels, runs)


def test_penalty_scales_the_number_of_segments():
    X, _ = steps((10, 10, 10), noise=0.3, seed=1)
    few = KernelCPD(penalty=1e6).fit_predict(X)
    many = KernelCPD(penalty=1e-6).fit_predict(X)
    np.testing.assert_array_equal(few, np.zeros(30))  # a huge penalty: no change point
    assert many.max() + 1 > 3  # a tiny one: more change points than topics
    assert KernelCPD(penalty=DEFAULT_PENALTY).fit_predict(X).tolist() == KernelCPD().fit_predict(X).tolist()


def test_k_and_min_size_limits():
    X, _ = steps((5, 5), seed=0)
    labels = KernelCPD(n_segments=20).fit_predict(X)  # at most n // min_size = 5 segments of 2
    assert labels.max() + 1 == 5 and np.bincount(labels).min() >= 2
    np.testing.assert_array_equal(KernelCPD(n_segments=1).fit_predict(X), np.zeros(10))
    labels = KernelCPD(n_segments=3, min_size=3).fit_predict(X[:9])
    np.testing.assert_array_equal(labels, [0, 0, 0, 1, 1, 1, 2, 2, 2])
    # too short for two segments of min_size: one segment
    np.testing.assert_array_equal(KernelCPD(n_segments=2).fit_predict(X[:1]), [0])
    assert np.bincount(KernelCPD(n_segments=2, min_size=5).fit_predict(X[:5])).min() >= 2


@pytest.mark.parametrize(
    "kwargs, message",
    [
        (dict(n_segments=2, penalty=1.0), "not both"),
        (dict(n_segments=0), "n_segments must be a positive integer"),
        (dict(n_segments=2.5), "n_segments must be a positive integer"),
        (dict(n_segments=True), "n_segments must be a positive integer"),
        (dict(penalty=0.0), "penalty"),
        (dict(penalty=-1.0), "penalty"),
        (dict(penalty=float("nan")), "penalty"),
        (dict(penalty=float("inf")), "penalty"),
        (dict(penalty="high"), "penalty"),
        (dict(min_size=0), "min_size"),
        (dict(min_size=1.5), "min_size"),
        (dict(kernel="nope"), "kernel"),
    ],
)
@pytest.mark.parametrize("n", [1, 12])
def test_bad_parameters_raise_whatever_the_length(kwargs, message, n):
    X, _ = steps((6, 6), seed=0)
    with pytest.raises(ValueError, match=message):
        KernelCPD(**kwargs).fit_predict(X[:n])


@pytest.mark.parametrize("bad", [np.zeros((0, 3)), np.zeros(4), np.array([[0.0, np.inf]])])
def test_bad_embeddings(bad):
    with pytest.raises(ValueError):
        KernelCPD(n_segments=2).fit_predict(bad)
