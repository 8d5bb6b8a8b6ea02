"""Potentials: how embeddings become unary and pairwise factors (pluggable)."""

from .base import FunctionPotentials, Potentials, distance_decay, edge_cosine, make_potentials
from .paper import PaperPotentials

__all__ = [
    "Potentials",
    "FunctionPotentials",
    "PaperPotentials",
    "make_potentials",
    "edge_cosine",
    "distance_decay",
]
