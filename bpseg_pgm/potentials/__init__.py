"""Potentials: how embeddings become unary and pairwise factors (pluggable)."""

from .base import FunctionPotentials, Potentials, distance_decay, edge_cosine, make_potentials
from .centered import CenteredPottsPotentials
from .paper import PaperPotentials

__all__ = [
    "Potentials",
    "FunctionPotentials",
    "PaperPotentials",
    "CenteredPottsPotentials",
    "make_potentials",
    "edge_cosine",
    "distance_decay",
]
