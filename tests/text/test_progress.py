"""The progress line of a long document's fit: shown on request, counting BP sweeps, silent otherwise."""

from __future__ import annotations

import numpy as np

import bpseg_pgm.text.progress as progress
from bpseg_pgm.policy import Policy
from bpseg_pgm.text.checks import checked_estimator
from bpseg_pgm.text.pipeline import fit_segmentation


class _Embedder:
    model_name = "test"

    def __init__(self, show):
        self.show = show

    def progress_enabled(self):
        return self.show


def _topics_document(n=60, seed=0):
    # topics that alternate sentence by sentence: no reading-order runs, so the topic model and its sweeps
    rng = np.random.default_rng(seed)
    centres = np.eye(8)[:3]
    X = centres[np.arange(n) % 3] + 0.05 * rng.normal(size=(n, 8))
    return [f"sentence number {i} here." for i in range(n)], X


def test_a_long_fit_shows_a_line_counting_sweeps(monkeypatch, capsys):
    monkeypatch.setattr(progress, "DEFAULT_POLICY", Policy(progress_units=10))
    sentences, X = _topics_document()
    seg = fit_segmentation(sentences, X, checked_estimator("auto", {"random_state": 0}), _Embedder(True))
    err = capsys.readouterr().err
    assert "Fitting 60 units" in err and "sweeps" in err
    assert f"{seg.structure}, " in err  # what the fit chose, written on the line when it ends
    assert seg.n_iter >= 1


def test_no_line_when_progress_is_off_or_the_document_is_short(monkeypatch, capsys):
    sentences, X = _topics_document()
    fit_segmentation(sentences, X, checked_estimator("auto", {"random_state": 0}), _Embedder(True))  # 60 units < 1,000
    monkeypatch.setattr(progress, "DEFAULT_POLICY", Policy(progress_units=10))
    fit_segmentation(sentences, X, checked_estimator("auto", {"random_state": 0}), _Embedder(False))
    fit_segmentation(sentences, X, checked_estimator("auto", {"random_state": 0}), None)  # no embedder: no bar
    assert "Fitting" not in capsys.readouterr().err
