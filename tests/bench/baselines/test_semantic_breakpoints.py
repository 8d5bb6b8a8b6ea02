"""semantic-breakpoints: LangChain SemanticChunker's percentile rule on given sentence embeddings."""

from __future__ import annotations

import numpy as np
import pytest
from planted import planted_blocks

from bpseg_bench.baselines.semantic_breakpoints import (
    DEFAULT_PERCENTILE,
    SemanticBreakpoints,
    neighbour_distances,
)


def langchain_chunks(X, amount=95.0):
    """SemanticChunker.split_text after the embeddings, as LangChain writes it: distances, the percentile,
    ``indices_above_thresh`` and the slicing loop; returns the chunks as lists of sentence indices."""
    distances = []
    for i in range(len(X) - 1):
        a, b = X[i], X[i + 1]
        distances.append(1 - float(a @ b / (np.linalg.norm(a) * np.linalg.norm(b))))
    if len(X) == 1:
        return [[0]]
    threshold = np.percentile(distances, amount)
    indices_above_thresh = [i for i, x in enumerate(distances) if x > threshold]
    chunks, start_index = [], 0
    for index in indices_above_thresh:
        chunks.append(list(range(start_index, index + 1)))
        start_index = index + 1
    if start_index < len(X):
        chunks.append(list(range(start_index, len(X))))
    return chunks


def test_a_clear_two_topic_document_is_cut_at_the_boundary():
    # 21 sentences, 20 gaps: the 95th percentile lies between the two largest distances, so one cut
    X, topics = planted_blocks((11, 10), seed=0)
    model = SemanticBreakpoints()
    labels = model.fit_predict(X)
    np.testing.assert_array_equal(labels, topics)
    assert labels.dtype == np.int64 and model.labels_ is labels
    assert model.boundaries_.sum() == 1 and model.boundaries_[10]
    assert model.threshold_ == pytest.approx(np.percentile(model.distances_, 95))


@pytest.mark.parametrize("seed", range(6))
@pytest.mark.parametrize("amount", [95.0, 80.0, 50.0])
def test_same_chunks_as_langchains_loop(seed, amount):
    rng = np.random.default_rng(seed)
    X = rng.normal(size=(int(rng.integers(2, 60)), 8))
    labels = SemanticBreakpoints(percentile=amount).fit_predict(X)
    chunks = [np.flatnonzero(labels == j).tolist() for j in range(labels.max() + 1)]
    assert chunks == langchain_chunks(X, amount)


def test_about_one_gap_in_twenty_is_cut_whatever_the_document():
    X = np.random.default_rng(1).normal(size=(401, 16))  # no topics at all
    labels = SemanticBreakpoints().fit_predict(X)
    assert labels.max() == 20  # 400 gaps: the 20 strictly above the 95th percentile


def test_distances_by_hand():
    X = np.array([[1.0, 0.0], [1.0, 0.0], [0.0, 2.0], [0.0, 0.0], [-3.0, 0.0]])
    np.testing.assert_allclose(neighbour_distances(X), [0.0, 1.0, 1.0, 1.0])  # a zero row: distance 1
    labels = SemanticBreakpoints(percentile=25).fit_predict(np.array([[1.0, 0.0], [1.0, 0.0], [0.0, 1.0], [-1.0, 0.0]]))
    # distances 0, 1, 1; the 25th percentile is 0.5: both gaps of distance 1 are cut
    np.testing.assert_array_equal(labels, [0, 0, 1, 2])


def test_short_documents_and_percentile_100():
    np.testing.assert_array_equal(SemanticBreakpoints().fit_predict(np.ones((1, 3))), [0])
    assert np.isnan(SemanticBreakpoints().fit(np.ones((1, 3))).threshold_)
    # one gap: its distance is its own percentile, never strictly above it
    np.testing.assert_array_equal(SemanticBreakpoints().fit_predict(np.eye(2)), [0, 0])
    X, _ = planted_blocks((5, 5, 5), seed=0)
    np.testing.assert_array_equal(SemanticBreakpoints(percentile=100).fit_predict(X), np.zeros(15))


def test_deterministic_and_default():
    X, _ = planted_blocks((8, 9, 7), noise=0.6, seed=2)
    np.testing.assert_array_equal(SemanticBreakpoints().fit_predict(X), SemanticBreakpoints().fit_predict(X))
    assert SemanticBreakpoints().percentile == DEFAULT_PERCENTILE == 95.0


@pytest.mark.parametrize("bad", [0, -5, 100.5, float("nan"), float("inf"), True, "95", None])
@pytest.mark.parametrize("n", [1, 12])
def test_bad_percentile_raises_whatever_the_length(bad, n):
    X, _ = planted_blocks((6, 6), seed=0)
    with pytest.raises(ValueError, match="percentile"):
        SemanticBreakpoints(percentile=bad).fit(X[:n])


@pytest.mark.parametrize("bad", [np.zeros((0, 3)), np.zeros(4), np.array([[0.0, np.nan]])])
def test_bad_embeddings(bad):
    with pytest.raises(ValueError):
        SemanticBreakpoints().fit(bad)
