"""Registry of segmentation methods for the Choi benchmark: name -> estimator factory.

A factory takes the document length n and a seed and returns an object with
``fit_predict(X) -> labels``; per-document settings such as k = min(20, n) live here, so
adding a configuration is one :func:`register_method` call.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

__all__ = ["METHODS", "Method", "make_estimator", "register_method"]

Factory = Callable[[int, int], Any]


@dataclass(frozen=True)
class Method:
    """A named benchmark method: how to build its estimator and a one-line description."""

    name: str
    factory: Factory
    description: str


METHODS: dict[str, Method] = {}


def register_method(name: str, factory: Factory, description: str) -> Method:
    """Add (or replace) a method; returns it."""
    if not name or any(c.isspace() for c in name):
        raise ValueError(f"method name must be non-empty without spaces, got {name!r}")
    METHODS[name] = Method(name, factory, description)
    return METHODS[name]


def make_estimator(name: str, n: int, seed: int):
    """The estimator of method ``name`` for an n-sentence document; ValueError if unknown."""
    if name not in METHODS:
        raise ValueError(f"unknown method {name!r}; choose from {', '.join(METHODS)}")
    return METHODS[name].factory(n, seed)


def _bpseg(n: int, seed: int):
    from bpseg_pgm import BPSeg

    return BPSeg(n_segments=min(20, n), random_state=seed)


def _bpseg_appendix(n: int, seed: int):
    from bpseg_pgm import BPSeg

    return BPSeg(engine="fast", init="all", lam=300, sigma=10, max_iter=5)


def _kmeans(n: int, seed: int):
    from bpseg_pgm.evaluation.baselines.kmeans import KMeansSegmenter

    return KMeansSegmenter(max_clusters=20, random_state=seed)


def _graphseg(n: int, seed: int):
    from bpseg_pgm.evaluation.baselines.graphseg import GraphSeg

    return GraphSeg(tau=0.2, min_size=1)


def _graphseg_python(n: int, seed: int):
    from bpseg_pgm.evaluation.baselines.graphseg import GraphSeg

    return GraphSeg(tau=0.2, min_size=1, variant="graphseg-python")


def _texttiling(n: int, seed: int):
    from bpseg_pgm.evaluation.baselines.texttiling import TextTiling

    return TextTiling()


register_method("bpseg", _bpseg, "BPSeg() defaults (potts engine, lam 0.12, random init), k = min(20, n)")
register_method(
    "bpseg-appendix",
    _bpseg_appendix,
    "appendix Algorithm 2: BPSeg(engine='fast', init='all', lam=300, sigma=10, max_iter=5), k = n",
)
register_method("kmeans", _kmeans, "sklearn KMeans, k = min(20, n), default n_init")
register_method("graphseg", _graphseg, "GraphSeg as published, cosine > tau = 0.2, min size 1")
register_method(
    "graphseg-python",
    _graphseg_python,
    "GraphSeg with graphseg-python's merging (the code the paper ran), tau = 0.2, min size 1",
)
register_method("texttiling", _texttiling, "TextTiling on embeddings: window 5, no smoothing, HC cutoff, min gap 4")
