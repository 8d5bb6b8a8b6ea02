"""MAP by pgmpy's ``Mplp`` (max-product linear programming, Sontag et al. 2008), made right at leaves.

pgmpy's ``Mplp`` maximises the *sum* of factor values and records a labelling only when its objective beats 0, so
it gets factors theta = log psi - min(log psi) >= 0 (:func:`log_space_network`). pgmpy 1.1's ``Mplp`` passes
messages only through variables shared by two pairwise factors, so a leaf never hears its own unary term: each
leaf's unary is folded into its edge's table (:func:`fold_leaves`) and the leaf decoded afterwards by its best label
given its neighbour's (:func:`decode_leaves`). ``integrality_gap`` is 0 for a certified exact MAP; with leaves it
means nothing.
"""

from __future__ import annotations

import warnings

import numpy as np


def fold_leaves(log_unary, log_tables, u, v):
    """Copies of the unaries and tables with every leaf's unary moved into its edge's table,
    and each variable's degree."""
    log_unary = np.array(log_unary, dtype=np.float64)
    tables = np.array(log_tables, dtype=np.float64)
    degree = np.bincount(np.concatenate([u, v]), minlength=log_unary.shape[0])
    for e, (i, j) in enumerate(zip(u, v)):
        if degree[i] == 1:
            tables[e] += log_unary[i][:, None]
            log_unary[i] = 0.0
        if degree[j] == 1:
            tables[e] += log_unary[j][None, :]
            log_unary[j] = 0.0
    return log_unary, tables, degree


def decode_leaves(labels, tables, u, v, degree):
    """In place: each leaf's best label given its neighbour's (both at once for an edge of two leaves)."""
    for e, (i, j) in enumerate(zip(u, v)):
        if degree[i] == 1 and degree[j] == 1:
            labels[i], labels[j] = np.unravel_index(np.argmax(tables[e]), tables[e].shape)
        elif degree[i] == 1:
            labels[i] = np.argmax(tables[e][:, labels[j]])
        elif degree[j] == 1:
            labels[j] = np.argmax(tables[e][labels[i], :])
    return labels


def log_space_network(log_unary, edges, tables):
    """A pgmpy network with factor values log psi - min(log psi) >= 0, as pgmpy's Mplp expects."""
    from ...graph import network_from_log_potentials

    log_unary = log_unary - log_unary.min(axis=1, keepdims=True)
    tables = tables - tables.min(axis=(1, 2), keepdims=True) if len(tables) else tables
    with np.errstate(divide="ignore"):
        # network_from_log_potentials exponentiates: hand it log(theta) so the factors hold theta
        return network_from_log_potentials(np.log(log_unary), edges, np.log(tables))


def mplp_map(log_unary, edges, log_tables, *, init_iter=1000, tighten_triplet=True) -> tuple[np.ndarray, float]:
    """The MAP labelling (n,) of the pairwise model and pgmpy's integrality gap.

    ``edges`` (m, 2) pairs i < j of variables ``s{i}``, ``log_tables`` (m, k, k) with x_i on
    axis 1; ``init_iter`` and ``tighten_triplet`` are passed on to ``Mplp.map_query``. Without
    edges the MAP is each variable's best label (gap 0).
    """
    from bpseg_pgm.utils.pgmpy_loader import Mplp

    log_unary = np.asarray(log_unary, dtype=np.float64)
    n = log_unary.shape[0]
    if not len(edges):  # no pairwise factor: the MAP is each sentence's best label
        return np.argmax(log_unary, axis=1), 0.0
    u, v = edges[:, 0], edges[:, 1]
    folded_unary, tables, degree = fold_leaves(log_unary, log_tables, u, v)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        solver = Mplp(log_space_network(folded_unary, edges, tables))
        assignment = solver.map_query(init_iter=init_iter, tighten_triplet=tighten_triplet)
    if len(assignment) < n:
        raise ValueError("pgmpy's Mplp returned no labelling for this model")
    labels = np.array([int(assignment[f"s{i}"]) for i in range(n)])
    return decode_leaves(labels, tables, u, v, degree), float(solver.integrality_gap)
