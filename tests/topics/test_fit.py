"""Issue 12, fault 10: re-estimation rounds stop once the representatives no longer move."""

import time

import numpy as np

from bpseg_pgm import BPSeg


def _blocks(n_per=7, k=3, dim=24, seed=0):
    rng = np.random.default_rng(seed)
    X = np.vstack([np.eye(dim)[t] + 0.05 * rng.normal(size=(n_per, dim)) for t in range(k)])
    return X / np.linalg.norm(X, axis=1, keepdims=True)


def test_a_million_rounds_on_20_sentences_end_quickly():
    X = _blocks()
    t0 = time.perf_counter()
    est = BPSeg(em_rounds=10**6).fit(X)
    assert time.perf_counter() - t0 < 20
    assert est.em_rounds_ == 10**6 and est.n_iter_ < 10_000


def test_stopping_early_gives_the_labels_of_running_every_round():
    X = _blocks(seed=1)
    many = BPSeg(em_rounds=200).fit(X)
    few = BPSeg(em_rounds=5).fit(X)
    np.testing.assert_array_equal(many.labels_, few.labels_)
    np.testing.assert_allclose(many.beliefs_, few.beliefs_, atol=1e-5)
