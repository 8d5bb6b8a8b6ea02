"""Shared helpers for the engine tests: the paper's model spelled out, and small inputs.

The tests build the paper's model explicitly so that they do not depend on ``BPSeg``'s
defaults (which are the centred model). pytest puts ``tests/`` on ``sys.path``, so test files
import this module as ``paper_model``.
"""

from __future__ import annotations

import math

import numpy as np

from bpseg_pgm import BPSeg

#: The paper's model, spelled out, so that these tests do not depend on the estimator's defaults.
PAPER = dict(n_segments=5, lam=0.12, sigma=None, init="random", potentials="paper", neighbors=None, structure="topics")


def bpseg(**kw):
    """``BPSeg`` with the paper's model unless told otherwise."""
    return BPSeg(**{**PAPER, **kw})


def rand_X(n, d, seed):
    return np.random.default_rng(seed).normal(size=(n, d))


def unit(X):
    return X / np.linalg.norm(X, axis=1, keepdims=True)


def cos(a, b):
    """Cosine similarity by hand, for transcriptions of the paper's formulas."""
    return sum(x * y for x, y in zip(a, b)) / math.sqrt(sum(x * x for x in a) * sum(y * y for y in b))
