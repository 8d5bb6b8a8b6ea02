"""Potentials: how embeddings become unary and pairwise factors (pluggable)."""

from .base import (
    FunctionPotentials,
    Potentials,
    distance_decay,
    edge_cosine,
    make_potentials,
    mean_pair_cosine,
)
from .centered import CenteredPottsPotentials
from .context import (
    adaptive_context,
    context_embeddings,
    persistence_halflife,
    smoothed_embeddings,
    topic_persistence,
)
from .paper import PaperPotentials

__all__ = [
    "Potentials",
    "FunctionPotentials",
    "PaperPotentials",
    "CenteredPottsPotentials",
    "make_potentials",
    "edge_cosine",
    "mean_pair_cosine",
    "distance_decay",
    "context_embeddings",
    "adaptive_context",
    "topic_persistence",
    "persistence_halflife",
    "smoothed_embeddings",
]
