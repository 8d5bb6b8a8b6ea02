"""Synthetic embeddings with planted topics, shared by the contiguous-model and baseline tests."""

from __future__ import annotations

import math

import numpy as np

from bpseg_pgm.utils.labels import n_runs


def planted_runs(sizes, d=16, noise=0.3, seed=0):
    """Rows of blocks of the given sizes, each around its own random (unnormalised) centre, and their run labels."""
    rng = np.random.default_rng(seed)
    centers = rng.normal(size=(len(sizes), d))
    X = np.vstack([c + noise * rng.normal(size=(s, d)) for c, s in zip(centers, sizes)])
    return X, np.repeat(np.arange(len(sizes)), sizes)


#: 120 runs of 6-13 units, about 1,150 units: more than the tests' candidates, solved in three windows
LONG_SIZES = np.random.default_rng(7).integers(6, 14, size=120)


def planted_blocks(sizes, dim=32, noise=0.1, seed=0, order=None):
    """Unit rows in contiguous blocks: block b is ``e_topic`` plus Gaussian noise; also the labels.

    ``order`` gives each block's topic, so a topic can come back later in the text.
    """
    rng = np.random.default_rng(seed)
    topics = list(range(len(sizes))) if order is None else list(order)
    rows, labels = [], []
    for size, topic in zip(sizes, topics):
        centre = np.zeros(dim)
        centre[topic] = 1.0
        rows.append(centre + noise * rng.normal(size=(size, dim)))
        labels += [topic] * size
    X = np.vstack(rows)
    return X / np.linalg.norm(X, axis=1, keepdims=True), np.array(labels)


def gradual_document(n_blocks=12, block=40, dim=64, shift=0.25, seed=0):
    """Blocks around one shared theme: each block's centre is the theme plus a small offset, and
    every unit is its block's centre plus noise much larger than the offsets (a meeting, not Choi)."""
    rng = np.random.default_rng(seed)
    theme = rng.normal(size=dim)
    rows = []
    for _ in range(n_blocks):
        centre = theme + shift * rng.normal(size=dim)
        rows.append(centre + 1.0 * rng.normal(size=(block, dim)))
    X = np.vstack(rows)
    return X / np.linalg.norm(X, axis=1, keepdims=True)


def returning_runs(order=(0, 1, 0, 2), size=30, d=24, spread=3.0, seed=0):
    """Runs of ``size`` unit rows around random topic centres, in ``order`` (a topic may come back);
    the rows, each row's run and each row's topic."""
    rng = np.random.default_rng(seed)
    centres = rng.normal(size=(max(order) + 1, d)) * spread
    X = np.vstack([centres[t] + rng.normal(size=(size, d)) for t in order])
    X /= np.linalg.norm(X, axis=1, keepdims=True)
    return X, np.repeat(np.arange(len(order)), size), np.repeat(order, size)


def check_fitted(model, n):
    """The contract every contiguous fit keeps."""
    labels, beliefs = model.labels_, model.beliefs_
    k = model.n_segments_
    assert labels.shape == (n,) and beliefs.shape == (n, k)
    # numbered in reading order: starts at 0, each next run is the next number, every label used
    assert labels[0] == 0 and set(np.diff(labels)) <= {0, 1}
    assert labels.max() + 1 == k == n_runs(labels)  # every label is one contiguous run
    assert np.all(np.isfinite(beliefs)) and np.all(beliefs >= 0)
    np.testing.assert_allclose(beliefs.sum(axis=1), 1.0, atol=1e-9)
    assert model.centers_.shape[0] == k
    np.testing.assert_allclose(np.linalg.norm(model.centers_, axis=1), 1.0, atol=1e-9)
    assert math.isfinite(model.log_partition_)
    assert model.smoothing_width_ >= 0


def planted_words(n_blocks=12, block=40, vocab=20, per=6, seed=0):
    """Each block's units draw their words from the block's own vocabulary: the words change at every block."""
    rng = np.random.default_rng(seed)
    C = np.zeros((n_blocks * block, n_blocks * vocab))
    for b in range(n_blocks):
        for i in range(block):
            np.add.at(C[b * block + i], rng.integers(b * vocab, (b + 1) * vocab, size=per), 1)
    return C
