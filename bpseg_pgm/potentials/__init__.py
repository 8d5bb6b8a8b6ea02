"""Potentials: how embeddings become unary and pairwise factors (pluggable; add yours in :mod:`.registry`)."""

from .base import FunctionPotentials, Potentials, distance_decay, edge_cosine, make_potentials, mean_pair_cosine
from .centered import CenteredPottsPotentials
from .context import adaptive_context, context_embeddings, topic_persistence
from .paper import PaperPotentials
from .registry import POTENTIALS, potentials_factory, potentials_names, register_potentials

__all__ = [
    "POTENTIALS",
    "potentials_factory",
    "potentials_names",
    "register_potentials",
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
]
