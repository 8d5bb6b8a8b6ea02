"""Reading-order context mixing of the embeddings the potentials see."""

from __future__ import annotations

import numpy as np
import pytest
from paper_model import rand_X, unit
from sklearn.metrics import adjusted_rand_score

from bpseg_pgm.estimator import BPSeg
from bpseg_pgm.policy import DEFAULT_POLICY
from bpseg_pgm.potentials import adaptive_context, context_embeddings, topic_persistence

PERSISTENCE_FULL = DEFAULT_POLICY.context_persistence_full


def test_formula_by_hand():
    X = rand_X(5, 4, 0)
    R = unit(X)
    out = context_embeddings(X, 0.3)
    np.testing.assert_allclose(np.linalg.norm(out, axis=1), 1.0, atol=1e-12)
    mid = R[2] + 0.3 * (R[1] + R[3])
    np.testing.assert_allclose(out[2], mid / np.linalg.norm(mid), atol=1e-12)
    first = R[0] + 0.3 * R[1]  # the ends have one neighbour
    np.testing.assert_allclose(out[0], first / np.linalg.norm(first), atol=1e-12)
    last = R[4] + 0.3 * R[3]
    np.testing.assert_allclose(out[4], last / np.linalg.norm(last), atol=1e-12)


def test_zero_weight_and_single_sentence_are_the_unit_vectors():
    X = rand_X(4, 3, 1)
    np.testing.assert_array_equal(context_embeddings(X, 0.0), unit(X))
    np.testing.assert_allclose(context_embeddings(X[:1], 0.5), unit(X[:1]))


def test_cancelling_neighbours_leave_the_sentence_alone():
    X = np.array([[0.0, 1.0], [0.0, -1.0], [0.0, 1.0]])  # R_1 + 0.5 (R_0 + R_2) = 0
    out = context_embeddings(X, 0.5)
    assert np.all(np.isfinite(out))
    np.testing.assert_allclose(out[1], unit(X)[1])


@pytest.mark.parametrize("bad", [-0.1, float("nan"), float("inf"), "x"])
def test_bad_weight(bad):
    with pytest.raises(ValueError, match="context"):
        context_embeddings(rand_X(3, 2, 0), bad)
    with pytest.raises(ValueError, match="context"):
        BPSeg(context=bad).fit(rand_X(6, 3, 0))


def test_topic_persistence_and_adaptive_weight_by_hand():
    R = unit(rand_X(7, 5, 3))
    cos = R @ R.T
    adjacent = np.mean([cos[i, i + 1] for i in range(6)])
    pairs = np.mean([cos[i, j] for i in range(7) for j in range(7) if i != j])
    assert topic_persistence(R) == pytest.approx(adjacent - pairs, abs=1e-12)
    assert topic_persistence(R[:2]) == 0.0
    p = topic_persistence(R)
    assert adaptive_context(R, 0.2, PERSISTENCE_FULL) == pytest.approx(0.2 * min(max(p / PERSISTENCE_FULL, 0.0), 1.0))


def _alternating_and_persistent():
    a, b = np.eye(6)[0], np.eye(6)[1]
    noise = 0.1 * np.random.default_rng(0).normal(size=(12, 6))
    alternating = np.array([a, b] * 6) + noise
    persistent = np.array([a] * 6 + [b] * 6) + noise
    return alternating, persistent


def test_estimator_resolves_the_models_own_context():
    alternating, persistent = _alternating_and_persistent()
    assert topic_persistence(alternating) < 0 < PERSISTENCE_FULL < topic_persistence(persistent)
    # "auto": full weight where topics persist, none where they alternate sentence by sentence
    assert BPSeg().fit(persistent).context_ == 0.2
    assert BPSeg().fit(alternating).context_ == 0.0
    assert BPSeg(3, potentials="paper", structure="topics").fit(persistent).context_ == 0.0
    assert BPSeg(engine="fast", init="all").fit(persistent).context_ == 0.0
    assert BPSeg(context=0.7).fit(alternating).context_ == 0.7  # an explicit weight is used as given
    # context 0 is exactly the model without mixing; a positive one changes what BP sees
    X = rand_X(12, 5, 2)
    # (the topic model's: the paper's potentials under "auto" may get runs, which read no context)
    a = BPSeg(3, potentials="paper", context=0.0, structure="topics").fit(X)
    b = BPSeg(3, potentials="paper", structure="topics").fit(X)
    np.testing.assert_array_equal(a.beliefs_, b.beliefs_)
    c = BPSeg(3, potentials="paper", context=0.5, structure="topics").fit(X)
    assert np.abs(c.beliefs_ - a.beliefs_).max() > 1e-6


def test_context_recovers_noisy_contiguous_topics():
    """Why it is on by default: single sentences are noisy samples of their topic.

    Six topics in blocks of 8, noise large enough that sentences alone are often closer to a
    wrong topic: mixing in the neighbours gives a clearly better segmentation.
    """
    rng = np.random.default_rng(3)
    centers = rng.normal(size=(6, 48))
    y = np.repeat(np.arange(6), 8)
    X = centers[y] + 3.0 * rng.normal(size=(48, 48))
    alone = adjusted_rand_score(y, BPSeg(context=0.0, structure="topics").fit_predict(X))
    mixed = adjusted_rand_score(y, BPSeg(structure="topics").fit_predict(X))
    assert mixed > alone + 0.1, (alone, mixed)
