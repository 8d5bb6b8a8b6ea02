"""Brute-force answers for small pairwise models (k^n labellings), sharing no code with the engines.

pytest puts ``tests/`` on ``sys.path``, so test files import this module as ``brute_force``.
"""

from __future__ import annotations

import itertools

import numpy as np
from scipy.special import logsumexp


def potts_tables(log_w, k):
    """(m, k, k) log tables of Potts factors: 0 on the diagonal, log w off it."""
    t = np.repeat(np.asarray(log_w, dtype=float)[:, None, None], k, axis=1).repeat(k, axis=2)
    for x in range(k):
        t[:, x, x] = 0.0
    return t


def all_scores(log_unary, edges, log_tables):
    """Every labelling (k^n, n) and its log p~ = sum log psi_i + sum log psi_ij."""
    n, k = log_unary.shape
    labels = np.array(list(itertools.product(range(k), repeat=n)), dtype=np.int64)
    score = log_unary[np.arange(n), labels].sum(axis=1)
    for e, (i, j) in enumerate(edges):
        score = score + log_tables[e][labels[:, i], labels[:, j]]
    return labels, score


def log_partition(log_unary, edges, log_tables):
    return float(logsumexp(all_scores(log_unary, edges, log_tables)[1]))


def marginals(log_unary, edges, log_tables):
    labels, score = all_scores(log_unary, edges, log_tables)
    p = np.exp(score - logsumexp(score))
    n, k = log_unary.shape
    return np.array([[p[labels[:, i] == x].sum() for x in range(k)] for i in range(n)])


def max_marginals(log_unary, edges, log_tables):
    """log max_{x: x_i = s} log p~(x), (n, k)."""
    labels, score = all_scores(log_unary, edges, log_tables)
    n, k = log_unary.shape
    return np.array([[score[labels[:, i] == x].max() for x in range(k)] for i in range(n)])


def map_labels(log_unary, edges, log_tables):
    labels, score = all_scores(log_unary, edges, log_tables)
    return labels[np.argmax(score)], np.sort(score)[-2:]


def chain(n):
    return np.array([(i, i + 1) for i in range(n - 1)])


def complete(n):
    return np.array([(i, j) for i in range(n) for j in range(i + 1, n)])
