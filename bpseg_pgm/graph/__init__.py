"""Graph building: edge sets and the pgmpy Markov network."""

from .build import (
    build_markov_network,
    network_from_log_potentials,
    replace_unary_factors,
    representative_vectors,
    resolve_edges,
    variable_name,
)
from .neighbors import all_pairs, auto_pairs, canonical_pairs, knn_pairs, sparse_pairs, window_pairs

__all__ = [
    "build_markov_network",
    "network_from_log_potentials",
    "replace_unary_factors",
    "representative_vectors",
    "resolve_edges",
    "variable_name",
    "all_pairs",
    "auto_pairs",
    "window_pairs",
    "knn_pairs",
    "sparse_pairs",
    "canonical_pairs",
]
