"""Units.from_sentences reads the given Policy's word_scale (it used the shipped one whatever the policy)."""

import numpy as np

import bpseg_pgm.estimator
from bpseg_pgm.features.units import Units
from bpseg_pgm.policy import Policy
from bpseg_pgm.text.checks import checked_estimator
from bpseg_pgm.text.pipeline import fit_segmentation

SENTENCES = ["Yeah .", "The committee approved the budget for the new library building today .", "Okay .", "Right ."]


def test_the_policys_word_scale_sets_the_weights():
    X = np.eye(4)
    default = Units.from_sentences(SENTENCES, embeddings=X).weights
    scaled = Units.from_sentences(SENTENCES, embeddings=X, policy=Policy(word_scale=1000.0)).weights
    np.testing.assert_allclose(default, 1 - np.exp(-np.array([2, 12, 2, 2]) / 5.0))
    np.testing.assert_allclose(scaled, np.maximum(1 - np.exp(-np.array([2, 12, 2, 2]) / 1000.0), 1e-3))


def test_the_pipeline_gives_the_policy_to_the_features(monkeypatch):
    seen = []
    fit = bpseg_pgm.estimator.BPSeg.fit

    def spy(self, X, *args, **kwargs):
        seen.append(X.weights.copy())
        return fit(self, X, *args, **kwargs)

    monkeypatch.setattr(bpseg_pgm.estimator.BPSeg, "fit", spy)
    X = np.random.default_rng(0).normal(size=(4, 8))
    fit_segmentation(SENTENCES, X, checked_estimator(2, {"structure": "runs"}), None)
    fit_segmentation(
        SENTENCES, X, checked_estimator(2, {"structure": "runs", "policy": Policy(word_scale=1000.0)}), None
    )
    assert seen[0][0] > 0.3 and seen[1][0] < 0.01
