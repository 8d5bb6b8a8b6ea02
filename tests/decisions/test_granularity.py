"""The reader's granularity (``BPSeg(granularity=z)``): the fewest runs within z standard errors of the best gain."""

from __future__ import annotations

import numpy as np
import pytest
from planted import gradual_document

from bpseg_pgm.decisions.structure import choose_structure
from bpseg_pgm.estimator import BPSeg
from bpseg_pgm.policy import DEFAULT_POLICY as P
from bpseg_pgm.runs.model import fit_runs
from bpseg_pgm.runs.null import count_within, noise_calibrated_k, null_gain


def _rows():
    """Costs for 0..6 runs of a document and of three null documents, the nulls' gains spread by hand."""
    costs = np.array([np.inf, 100.0, 60.0, 45.0, 40.0, 38.0, 37.5])
    nulls = np.array(
        [
            [np.inf, 100.0, 95.0, 91.0, 88.0, 86.0, 85.0],
            [np.inf, 100.0, 96.0, 92.0, 90.0, 88.0, 86.0],
            [np.inf, 100.0, 94.0, 90.0, 86.0, 84.0, 83.0],
        ]
    )
    return costs, nulls


def test_zero_is_the_largest_gain_and_more_errors_give_fewer_runs():
    costs, nulls = _rows()
    assert count_within(costs, nulls, 0.0) == noise_calibrated_k(costs, nulls.mean(axis=0))
    ks = [count_within(costs, nulls, z) for z in (0, 0.5, 1, 2, 5, 50, 1e6)]
    assert ks == sorted(ks, reverse=True) and ks[0] > ks[-1] == 1


def test_the_error_is_the_nulls_own_spread():
    costs, nulls = _rows()
    gain = null_gain(costs, nulls.mean(axis=0))
    best = int(np.argmax(gain))
    error = np.std(nulls[:, 1] - nulls[:, best + 1], ddof=1) * np.sqrt(1 + 1 / 3)
    k = count_within(costs, nulls, 1.0)
    assert gain[k - 1] >= gain[best] - error and (k == 1 or gain[k - 2] < gain[best] - error)
    # nulls that all gain the same: no error, so any z keeps the largest gain's count
    same = np.repeat(nulls[:1], 3, axis=0)
    assert count_within(costs, same, 10.0) == noise_calibrated_k(costs, same.mean(axis=0))


def test_one_null_document_is_refused():
    costs, nulls = _rows()
    with pytest.raises(ValueError, match="at least two null documents"):
        count_within(costs, nulls[:1], 1.0)


def test_keeping_the_nulls_changes_neither_the_count_nor_the_gain():
    X = gradual_document(seed=1)
    w = np.ones(len(X))
    plain = fit_runs(X, w, "auto", policy=P)
    spread = fit_runs(X, w, "auto", policy=P, spread=True)
    assert plain.null_rows is None and spread.null_rows.shape[0] >= max(P.null_max_shuffles, 2)
    assert np.array_equal(plain.labels, spread.labels) and np.array_equal(plain.null_gain, spread.null_gain)
    found = choose_structure(X, w, "auto", policy=P, granularity=1.0)
    usual = choose_structure(X, w, "auto", policy=P)
    assert found.runs == usual.runs and found.effect == usual.effect  # the structure decision is the same
    assert found.k_span is None and usual.k_span is not None  # the span rule did not decide


def test_a_number_for_granularity_skips_the_span_rule(monkeypatch):
    import bpseg_pgm.decisions.structure as structure

    X = gradual_document(seed=1)
    w = np.ones(len(X))
    before = choose_structure(X, w, "auto", policy=P, granularity=1.0)

    def span_rule(*args, **kwargs):
        raise AssertionError("the span rule was computed")

    monkeypatch.setattr(structure, "run_span", span_rule)
    found = choose_structure(X, w, "auto", policy=P, granularity=1.0)
    assert np.array_equal(found.fit.labels, before.fit.labels) and found.k_span is None
    with pytest.raises(AssertionError, match="span rule"):  # "auto" still reads it
        choose_structure(X, w, "auto", policy=P)


def test_the_estimator_moves_along_the_counts_and_auto_is_the_default():
    X = gradual_document(seed=2)
    default = BPSeg(random_state=0).fit(X).labels_
    assert np.array_equal(BPSeg(random_state=0, granularity="auto").fit(X).labels_, default)
    for structure in ("runs", "auto"):
        counts = [
            BPSeg(structure=structure, granularity=z, group_runs=False, random_state=0).fit(X).n_segments_
            for z in (0, 1, 3, 1e6)
        ]
        assert counts == sorted(counts, reverse=True) and counts[0] > 1 and counts[-1] == 1
    fine = BPSeg(structure="runs", random_state=0).fit(X).n_segments_
    assert BPSeg(structure="runs", granularity=0, random_state=0).fit(X).n_segments_ == fine


@pytest.mark.parametrize(
    ("params", "message"),
    [
        ({"granularity": -1}, "granularity must be a finite number >= 0 or 'auto'"),
        ({"granularity": "finer"}, "granularity must be a finite number >= 0 or 'auto'"),
        ({"granularity": 1.0, "structure": "topics"}, "structure='topics' cuts no runs"),
        ({"granularity": 1.0, "n_segments": 3}, "n_segments=3 was given"),
    ],
)
def test_bad_granularity(params, message):
    with pytest.raises(ValueError, match=message):
        BPSeg(**params).fit(gradual_document(n_blocks=3))
