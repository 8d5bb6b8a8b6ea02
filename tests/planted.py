"""Synthetic embeddings with planted topics, shared by the contiguous-model and baseline tests."""

from __future__ import annotations

import numpy as np


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
