"""The shipped defaults do not collapse: several gold topics give several segments, 8..1000 sentences.

(5,000 sentences take ~1.5 minutes on 2 cores, so that size is in the study research/2026-11-22-ari-vs-length/, whose
bench_defaults.py carries a copy of this file's generator.)
"""

from __future__ import annotations

import numpy as np
import pytest
from sklearn.metrics import adjusted_rand_score

from bpseg_pgm import BPSeg


def topics(n: int, n_topics: int, layout: str, seed: int = 0, d: int = 64, noise: float = 0.8):
    """n sentences on n_topics random topic directions; 'blocks' = contiguous, 'returning' = A B A C ..."""
    rng = np.random.default_rng(seed)
    centers = rng.normal(size=(n_topics, d))
    if layout == "blocks":
        y = np.repeat(np.arange(n_topics), -(-n // n_topics))[:n]
    else:  # chunks of ~n/(2 n_topics) sentences, topics cycling so that each returns
        chunk = max(1, n // (2 * n_topics))
        y = (np.arange(n) // chunk) % n_topics
    return centers[y] + noise * rng.normal(size=(n, d)), y


@pytest.mark.parametrize("n", [8, 40, 200, 1000])
@pytest.mark.parametrize("layout", ["blocks", "returning"])
def test_default_never_collapses(n, layout):
    X, y = topics(n, 4, layout, seed=n)
    labels = BPSeg().fit_predict(X)
    assert np.unique(labels).size > 1
    # and the segments found are about the gold topics, not noise
    assert adjusted_rand_score(y, labels) > 0.3
    if n >= 200:  # labels on the same topic merge: no long topic cut into many segments,
        # and no sentences scattered into other segments (centring on edges did both here)
        assert np.unique(labels).size <= 8
        assert adjusted_rand_score(y, labels) > 0.9


def test_paper_potentials_do_collapse_on_long_documents():
    """The measured failure the defaults fix: eq. (2) as written, lam 0.12, puts a 200-sentence
    document of 4 returning topics into one segment."""
    X, _ = topics(200, 4, "returning", seed=1)
    labels = BPSeg(10, potentials="paper").fit_predict(X)
    assert np.unique(labels).size == 1
