"""structure="auto" (the default): runs for gradual text, the topic model otherwise."""

from __future__ import annotations

import numpy as np
import pytest
from planted import check_fitted, gradual_document, planted_blocks
from sklearn.metrics import adjusted_rand_score

import bpseg_pgm.decisions.structure as structure
from bpseg_pgm.decisions.structure import choose_structure
from bpseg_pgm.estimator import BPSeg
from bpseg_pgm.policy import DEFAULT_POLICY as P
from bpseg_pgm.runs import auto_max_runs, boundary_effects
from bpseg_pgm.runs.statistics import policy_correlation_length
from bpseg_pgm.utils.labels import n_runs

# -- correlation_length ---------------------------------------------------------------------------


@pytest.mark.parametrize("block", [6, 10, 20])
def test_correlation_length_is_about_the_segment_length(block):
    X, _ = planted_blocks((block,) * 12, dim=32, noise=0.2, seed=1)
    assert 0.6 * block <= policy_correlation_length(X, None, P) <= 1.4 * block


def test_correlation_length_ignores_short_units_and_scales_back():
    X, _ = planted_blocks((10,) * 12, dim=32, noise=0.2, seed=1)
    rng = np.random.default_rng(0)
    short = rng.normal(size=(len(X), 32))  # "Yeah ." between every two units: same noise anywhere
    both = np.empty((2 * len(X), 32))
    both[0::2], both[1::2] = X, short / np.linalg.norm(short, axis=1, keepdims=True)
    weights = np.tile([1.0, 0.2], len(X))
    # in units of the interleaved document, a segment is 20 units long
    assert 14 <= policy_correlation_length(both, weights, P) <= 28
    assert policy_correlation_length(both[:10], np.tile([1.0, 0.0], 5), P) == 10.0  # < 8 substantive units


# -- boundary_effects -----------------------------------------------------------------------------


def test_boundary_effect_is_the_mean_shift_over_the_scatter_and_does_not_grow_with_length():
    rng = np.random.default_rng(0)
    dim, noise = 50, 0.5
    for size in (40, 400):
        a = rng.normal(size=(size, dim)) * noise
        b = rng.normal(size=(size, dim)) * noise + 0.1  # shift 0.1 in every dimension
        X = np.vstack([a, b])
        eff = boundary_effects(X, np.ones(2 * size), np.repeat([0, 1], size))
        expected = dim * 0.1**2 / (dim * noise**2)  # |delta|^2 / per-unit scatter = 0.04
        assert eff.shape == (1,) and abs(eff[0] - expected) < 0.02, (size, eff)


def test_boundary_effect_of_a_weightless_run_is_nan():
    X, _ = planted_blocks((5, 5, 5), seed=0)
    w = np.ones(15)
    w[5:10] = 0
    eff = boundary_effects(X, w, np.repeat([0, 1, 2], 5))
    assert np.isnan(eff).all()


# -- choose_structure and BPSeg's default ---------------------------------------------------------


def test_abrupt_shifts_get_the_topic_model():
    X, y = planted_blocks((8, 12, 10, 9), dim=32, noise=0.1, seed=0)
    found = choose_structure(X, np.ones(len(X)), "auto", policy=P)
    assert not found.runs and found.effect > P.gradual_effect
    model = BPSeg(random_state=0).fit(X)
    assert model.structure_ == "topics" and model.structure_effect_ == pytest.approx(found.effect)


def test_gradual_text_gets_runs():
    X = gradual_document()
    found = choose_structure(X, np.ones(len(X)), "auto", policy=P)
    assert found.runs and found.effect < P.gradual_effect
    assert BPSeg(random_state=0).fit(X).structure_ == "run-topics"  # the runs, then grouped into topics
    model = BPSeg(random_state=0, group_runs=False).fit(X)
    assert model.structure_ == "runs"
    check_fitted(model, len(X))
    # coarser than the noise-calibrated runs, and not one segment
    fine = BPSeg(structure="runs", random_state=0).fit(X).n_segments_
    assert 2 <= model.n_segments_ <= fine


def test_auto_max_runs_is_one_per_correlation_length_beyond_the_fixed_cap():
    assert auto_max_runs(500, 40.0, P.auto_max_runs) == P.auto_max_runs  # a meeting: 13 correlation lengths
    assert auto_max_runs(600, 6.0, P.auto_max_runs) == 100  # many short passages: one run per correlation length
    assert auto_max_runs(40, 1.0, P.auto_max_runs) == 20  # never more than half the units
    assert auto_max_runs(3, 0.2, P.auto_max_runs) == 1
    assert auto_max_runs(1000, 1000.0, P.auto_max_runs) == P.auto_max_runs


def test_many_short_unrelated_passages_get_the_topic_model(monkeypatch):
    # 100 unrelated passages of 5 units (per-unit boundary effect ~0.7: abrupt). With at most 30
    # runs each run averaged 3-4 passages, its boundaries looked weak (median effect ~0.3) and
    # the document was judged gradual and cut into runs (the misjudgement docs/research/real-documents.md records).
    X, truth = planted_blocks((5,) * 100, dim=104, noise=0.12, seed=0)
    w = np.ones(len(X))
    found = choose_structure(X, w, "auto", policy=P)
    assert not found.runs and found.effect > P.gradual_effect
    # abrupt, so the topic model, unless it cannot hold the document: its runs group into more topics
    # than the topic model's 40 labels, so they are kept, grouped, and the topic model is not run
    model = BPSeg(random_state=0).fit(X)
    assert model.structure_ == "run-topics" and model.run_topics_.n_topics > 40
    topics = BPSeg(random_state=0, structure="topics").fit(X)
    assert topics.structure_ == "topics" and topics.n_segments_ <= 40
    assert adjusted_rand_score(truth, model.labels_) > adjusted_rand_score(truth, topics.labels_) + 0.1
    # ungrouped, "auto" fits the topic model, whose 40 labels for 100 passages are no clusters: the runs are kept
    ungrouped = BPSeg(random_state=0, group_runs=False).fit(X)
    assert ungrouped.structure_ == "runs" and ungrouped.topic_silhouette_ < P.topic_silhouette
    assert adjusted_rand_score(truth, ungrouped.labels_) > adjusted_rand_score(truth, topics.labels_) + 0.1
    monkeypatch.setattr(structure, "auto_max_runs", lambda n, corr_length, floor=P.auto_max_runs: min(floor, n // 2))
    capped = choose_structure(X, w, "auto", policy=P)
    assert capped.runs and capped.effect < P.gradual_effect  # the old fixed cap misjudges it


def test_gradual_text_with_a_given_k():
    X = gradual_document()
    model = BPSeg(n_segments=5, random_state=0).fit(X)
    assert model.structure_ == "runs" and model.n_segments_ == 5 == n_runs(model.labels_)


def test_alternating_topics_get_the_topic_model():
    """No reading-order structure at all (topics alternate unit by unit): group by meaning."""
    X, _ = planted_blocks((1,) * 40, dim=32, noise=0.1, seed=0, order=[0, 1] * 20)
    model = BPSeg(random_state=0).fit(X)
    assert model.structure_ == "topics"
    assert len(set(model.labels_[0::2])) == 1 and len(set(model.labels_[1::2])) == 1
    assert model.labels_[0] != model.labels_[1]


@pytest.mark.parametrize(
    "params", [dict(structure="topics"), dict(potentials="paper"), dict(engine="fast"), dict(init="all")]
)
def test_auto_never_applies_outside_the_centred_default(params):
    X = gradual_document(n_blocks=4, block=25)
    assert BPSeg(random_state=0, **params).fit(X).structure_ == "topics"


def test_contiguous_true_is_always_runs():
    X, _ = planted_blocks((8, 12, 10, 9), dim=32, noise=0.1, seed=0)
    model = BPSeg(structure="runs", random_state=0).fit(X)
    assert model.structure_ == "runs" and np.isnan(model.structure_effect_)


def test_auto_is_deterministic():
    X = gradual_document(seed=3)
    a = BPSeg(random_state=5).fit_predict(X)
    b = BPSeg(random_state=5).fit_predict(X)
    np.testing.assert_array_equal(a, b)


def test_run_span_falls_from_the_full_scale_to_one_correlation_length():
    from bpseg_pgm.decisions.structure import run_span

    assert run_span(0.0, policy=P) == run_span(P.gradual_full, policy=P) == pytest.approx(P.run_scale)
    assert run_span(P.gradual_effect, policy=P) == pytest.approx(1.0)
    spans = [run_span(e, policy=P) for e in np.linspace(P.gradual_full, P.gradual_effect, 7)]
    assert all(a > b for a, b in zip(spans, spans[1:]))


def test_choose_structure_takes_dense_word_counts_and_refuses_counts_for_another_text():
    X = gradual_document()
    counts = np.random.default_rng(0).poisson(0.3, size=(len(X), 50))
    dense = choose_structure(X, np.ones(len(X)), "auto", 0, word_counts=counts, policy=P)
    import scipy.sparse as sp

    sparse = choose_structure(X, np.ones(len(X)), "auto", 0, word_counts=sp.csr_matrix(counts), policy=P)
    assert dense.k_span is not None and dense.k_words is not None and dense.k_words >= dense.k_span
    assert (dense.k_span, dense.k_words) == (sparse.k_span, sparse.k_words)
    np.testing.assert_array_equal(dense.fit.labels, sparse.fit.labels)
    with pytest.raises(ValueError, match="one row per unit"):
        choose_structure(X, np.ones(len(X)), "auto", 0, word_counts=counts[:-1], policy=P)
