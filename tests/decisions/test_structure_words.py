"""``choose_structure(..., word_counts=...)``: whatever k is, the chosen runs' boundaries weigh the words;
the noise-calibrated runs (``fine``) stay the embeddings' alone."""

from __future__ import annotations

import numpy as np
import pytest
import scipy.sparse as sp
from planted import gradual_document, planted_words
from sklearn.metrics import adjusted_rand_score

from bpseg_pgm.decisions.structure import choose_structure
from bpseg_pgm.policy import DEFAULT_POLICY

N_BLOCKS, BLOCK = 12, 40
N = N_BLOCKS * BLOCK
TRUTH = np.repeat(np.arange(N_BLOCKS), BLOCK)


@pytest.fixture(scope="module")
def document():
    return gradual_document(n_blocks=N_BLOCKS, block=BLOCK), np.ones(N), planted_words(N_BLOCKS, BLOCK)


@pytest.mark.parametrize("k", [N_BLOCKS, 6])
def test_a_given_k_weighs_the_words_and_fine_does_not(document, k):
    X, w, words = document
    plain = choose_structure(X, w, k, policy=DEFAULT_POLICY)
    found = choose_structure(X, w, k, word_counts=words, policy=DEFAULT_POLICY)
    assert plain.fit.word_alpha is None and plain.fine.word_alpha is None
    assert found.fit.word_alpha is not None and found.fit.word_alpha > 0
    assert int(found.fit.labels.max()) + 1 == k
    assert found.fine.word_alpha is None
    np.testing.assert_array_equal(found.fine.labels, plain.fine.labels)  # fine: the embeddings' alone
    assert found.runs == plain.runs and found.effect == plain.effect
    if k == N_BLOCKS:  # the words put the boundaries where they change
        assert adjusted_rand_score(TRUTH, found.fit.labels) > adjusted_rand_score(TRUTH, plain.fit.labels)
        assert adjusted_rand_score(TRUTH, found.fit.labels) > 0.99


def test_a_k_past_the_fine_levels_weighs_the_words_too(document):
    X, w, words = document
    found = choose_structure(X, w, N_BLOCKS, word_counts=words, policy=DEFAULT_POLICY)
    k = found.fine.levels.max_runs + 3  # refitted, not re-cut from fine
    far = choose_structure(X, w, k, word_counts=words, policy=DEFAULT_POLICY)
    assert int(far.fit.labels.max()) + 1 == k
    assert far.fit.word_alpha is not None and far.fine.word_alpha is None


def test_the_chosen_k_weighs_the_words(document):
    X, w, words = document
    found = choose_structure(X, w, "auto", word_counts=sp.csr_matrix(words), policy=DEFAULT_POLICY)
    assert found.k_words is not None
    assert int(found.fit.labels.max()) + 1 == found.k_words  # the same number of runs
    assert found.fit.word_alpha is not None and found.fine.word_alpha is None
    plain = choose_structure(X, w, "auto", policy=DEFAULT_POLICY)
    assert plain.fit.word_alpha is None
    np.testing.assert_array_equal(found.fine.labels, plain.fine.labels)


def test_word_weight_zero_leaves_the_embeddings_runs(document):
    X, w, words = document
    plain = choose_structure(X, w, N_BLOCKS, policy=DEFAULT_POLICY)
    found = choose_structure(X, w, N_BLOCKS, word_counts=words, policy=DEFAULT_POLICY.replace(word_weight=0.0))
    assert found.fit.word_alpha is None
    np.testing.assert_array_equal(found.fit.labels, plain.fit.labels)


def test_choose_structure_with_words_is_deterministic(document):
    X, w, words = document
    a = choose_structure(X, w, "auto", random_state=3, word_counts=words, policy=DEFAULT_POLICY)
    b = choose_structure(X, w, "auto", random_state=3, word_counts=words, policy=DEFAULT_POLICY)
    np.testing.assert_array_equal(a.fit.labels, b.fit.labels)
    assert a.fit.word_alpha == b.fit.word_alpha and a.k_words == b.k_words
