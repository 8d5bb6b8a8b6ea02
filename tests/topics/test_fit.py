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


# -- issue 22: what a plug-in engine returns is checked; unconverged BP says so once -------------------
import pytest  # noqa: E402
from sklearn.exceptions import ConvergenceWarning  # noqa: E402

from bpseg_pgm.inference import Engine, EngineResult  # noqa: E402


class _Raw(Engine):
    """An engine that builds its EngineResult by hand (bypassing self.result's normalisation)."""

    def __init__(self, kind="nan"):
        self.kind = kind

    def infer(self, problem):
        b = np.full((problem.n, problem.k), 1.0 / problem.k)
        if self.kind == "nan":
            b[0, 0] = np.nan
        elif self.kind == "negative":
            b[0] = -b[0]
        elif self.kind == "unnormalised":
            b = b * 3.0
        return EngineResult(b, 1, True, [], None, {})


@pytest.mark.parametrize("kind", ["nan", "negative", "unnormalised"])
def test_bad_beliefs_from_a_plug_in_engine_are_refused_naming_it(kind):
    X = np.random.default_rng(0).normal(size=(12, 8))
    with pytest.raises(ValueError, match="engine '_Raw' returned beliefs that are not probabilities"):
        BPSeg(n_segments=3, engine=_Raw(kind), structure="topics").fit(X)
    BPSeg(n_segments=3, engine=_Raw("fine"), structure="topics").fit(X)  # a proper answer passes


def test_unconverged_bp_warns_once():
    X = np.random.default_rng(0).normal(size=(40, 8))
    with pytest.warns(ConvergenceWarning, match="stopped at max_iter=1 sweeps") as record:
        est = BPSeg(n_segments=4, max_iter=1, em_rounds=2, structure="topics").fit(X)
    assert not est.converged_
    assert sum(issubclass(w.category, ConvergenceWarning) for w in record) == 1
    import warnings

    with warnings.catch_warnings():
        warnings.simplefilter("error", ConvergenceWarning)
        assert BPSeg(n_segments=4, structure="topics").fit(X).converged_  # converged: no warning
