"""The decision layer's count cap and its widening (:func:`~bpseg_pgm.decisions.structure.runs_cap`,
:func:`~bpseg_pgm.decisions.structure.widened_runs`): the runs model computes the levels up to a cap and their gain
over the null; how far to search is decided here."""

import numpy as np
from planted import LONG_SIZES
from planted import planted_runs as planted
from sklearn.metrics import adjusted_rand_score

import bpseg_pgm.decisions.structure as structure
from bpseg_pgm.decisions.structure import choose_structure, runs_cap, widened_runs
from bpseg_pgm.estimator import BPSeg
from bpseg_pgm.policy import DEFAULT_POLICY as P
from bpseg_pgm.runs.model import auto_max_runs, fit_runs
from bpseg_pgm.runs.statistics import policy_correlation_length

SIZES = LONG_SIZES
CAND = 30  # the candidates of the tests: far fewer than the runs


# -- k past one run per correlation length ----------------------------------------------------------


def test_widening_searches_k_past_the_cap_while_k_reaches_it():
    X, truth = planted(SIZES, seed=3)  # 120 runs of about 10 units; the correlation length is about 13
    w = np.ones(len(X))
    cap = auto_max_runs(len(X), policy_correlation_length(X, w, P), P.auto_max_runs)
    assert P.auto_max_runs < cap <= 90
    capped = fit_runs(X, w, "auto", random_state=0, max_candidates=CAND)  # the default cap, kept
    assert int(capped.labels.max()) + 1 == cap
    corr = policy_correlation_length(X, w, P)
    fit = widened_runs(X, w, 0, corr, cap, P.replace(max_candidates=CAND), "embeddings", None)  # decisions widen
    k = int(fit.labels.max()) + 1
    assert k >= cap + 10 and adjusted_rand_score(truth, fit.labels) > 0.9
    # what a search with room to spare finds
    wide = fit_runs(X, w, "auto", random_state=0, max_runs=400, max_candidates=CAND)
    np.testing.assert_array_equal(fit.labels, wide.labels)


def test_abrupt_long_documents_keep_their_noise_calibrated_runs():
    X, truth = planted(SIZES, seed=3)  # 1,160 units: more than the candidates
    w = np.ones(len(X))
    found = choose_structure(X, w, "auto", random_state=0, policy=P)
    assert not found.runs and found.effect > P.gradual_effect  # abrupt: the runs are the topic model's fallback
    cap = auto_max_runs(len(X), policy_correlation_length(X, w, P), P.auto_max_runs)
    assert int(found.fit.labels.max()) + 1 == int(found.fine.labels.max()) + 1 >= cap + 10
    assert adjusted_rand_score(truth, found.fit.labels) > 0.9
    # with the cap given, the fallback is one run per correlation length as before
    capped = choose_structure(X, w, "auto", random_state=0, max_runs=cap, policy=P)
    assert int(capped.fit.labels.max()) + 1 <= cap
    # gradual text is not searched further: its segments span several correlation lengths anyway
    gradual = choose_structure(X, w, "auto", random_state=0, policy=P.replace(gradual_effect=100.0))
    assert gradual.runs and int(gradual.fine.labels.max()) + 1 <= cap


# -- the cap is decided here, the runs model computes up to it ----------------------------------------


def test_runs_cap_is_the_correlation_length_and_auto_max_runs():
    X, _ = planted((8,) * 40, seed=2)
    w = np.ones(len(X))
    corr, cap = runs_cap(X, w, P)
    assert corr == policy_correlation_length(X, w, P) and cap == auto_max_runs(len(X), corr, P.auto_max_runs)
    corr2, cap2 = runs_cap(X, w, P.replace(auto_max_runs=3))
    assert corr2 == corr and cap2 == auto_max_runs(len(X), corr, 3)


def test_choose_structure_and_runs_fit_by_the_cap_decided_here(monkeypatch):
    X, _ = planted((8,) * 40, seed=2)  # 40 abrupt runs: the noise-calibrated k would be far above 4
    w = np.ones(len(X))
    assert int(choose_structure(X, w, "auto", policy=P).fine.labels.max()) + 1 > 4
    monkeypatch.setattr(structure, "auto_max_runs", lambda n, corr_length, floor=P.auto_max_runs: 4)
    found = choose_structure(X, w, "auto", policy=P)
    assert int(found.fine.labels.max()) + 1 == 4 and found.fine.levels.max_runs == 4
    assert found.fine.null_gain.shape == (4,)
    model = BPSeg(structure="runs", random_state=0).fit(X)  # structure="runs" takes the same cap
    assert model.n_segments_ == 4
