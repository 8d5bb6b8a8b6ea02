"""The Bethe estimate of log Z from sum-product BP's messages, in log space.

At messages m, with node beliefs b_i and pair beliefs b_ij(x, y) ∝ psi_ij(x, y) exp(a_i(x) +
a_j(y)), where a_i = log psi_i + (messages into i except j's) is i's cavity towards j, the
Bethe free energy F (Yedidia, Freeman and Weiss 2005) gives

    log Z_Bethe = -F = sum_i [E_b_i log psi_i + H(b_i)]
                       + sum_ij [E_b_ij log psi_ij + H(b_ij) - H(b_i) - H(b_j)],

and E_b_ij log psi_ij + H(b_ij) = log Z_ij - <b_ij|_i, a_i> - <b_ij|_j, a_j> with Z_ij the pair
belief's normaliser: O(k) per edge for Potts factors, O(k^2) for full tables, never a k x k
array per edge for Potts. On a tree at BP's fixed point this is log Z exactly; on graphs with
cycles it is the Bethe approximation, neither a bound nor exact (docs/model.md, "Inference engines").
"""

from __future__ import annotations

import numpy as np
from scipy.special import logsumexp

#: Edges per chunk times k: the temporaries stay near this many float64 each.
CHUNK_ENTRIES = 1 << 16
#: Potts slots with log w above this (or below _LOW) take the exact k x k path.
_HIGH, _LOW = 5.0, -600.0


def _plogq(p, q):
    """sum over the last axis of p * q, with 0 * (-inf) = 0."""
    return np.where(p > 0, p * np.where(p > 0, q, 0.0), 0.0).sum(axis=-1)


def _potts_pairs(au, av, log_w):
    """Per edge: log Z_ij and the pair belief's marginals on u and v, Potts factors."""
    mu, mv = au.max(axis=1, keepdims=True), av.max(axis=1, keepdims=True)
    Hu, Hv = np.exp(au - mu), np.exp(av - mv)
    Su, Sv = Hu.sum(axis=1, keepdims=True), Hv.sum(axis=1, keepdims=True)
    w = np.exp(np.clip(log_w, _LOW, _HIGH))[:, None]
    # Z = sum_x sum_y Hu(x) Hv(y) psi(x, y) = sum_x Hu(x) [Hv(x) + w (Sv - Hv(x))]; both terms >= 0
    ru = Hv + w * (Sv - Hv)  # what u's state x meets on v's side
    rv = Hu + w * (Su - Hu)
    Z = (Hu * ru).sum(axis=1)
    log_Z = np.log(Z) + mu[:, 0] + mv[:, 0]
    pu, pv = Hu * ru / Z[:, None], Hv * rv / Z[:, None]
    exact = np.flatnonzero((log_w > _HIGH) | (log_w < _LOW) | ~(Z > 0) | ~np.isfinite(Z))
    if exact.size:
        k = au.shape[1]
        tables = np.where(np.eye(k, dtype=bool)[None], 0.0, log_w[exact][:, None, None])
        log_Z[exact], pu[exact], pv[exact] = _table_pairs(au[exact], av[exact], tables)
    return log_Z, pu, pv


def _table_pairs(au, av, log_tables):
    """Per edge: log Z_ij and the pair belief's marginals, full (E, k, k) log tables."""
    A = au[:, :, None] + av[:, None, :] + log_tables
    log_Z = logsumexp(A, axis=(1, 2))
    P = np.exp(A - log_Z[:, None, None])
    return log_Z, P.sum(axis=2), P.sum(axis=1)


def bethe_log_partition(log_unary, u, v, log_b, msgs, slot_uv, slot_vu, *, log_coupling=None, log_tables=None):
    """The Bethe estimate of log Z (see the module docstring).

    ``log_b`` (n, k): log psi_i + sum of log messages into i (any per-row shift); ``msgs``
    (slots, k) log messages, ``slot_uv[e]`` / ``slot_vu[e]`` the rows holding u[e] -> v[e]
    and v[e] -> u[e]; pairwise factors as Potts ``log_coupling`` (m,) or ``log_tables``
    (m, k, k), x_u on axis 1. Works in chunks of edges, so memory stays O(chunk * k).
    """
    log_unary = np.asarray(log_unary, dtype=np.float64)
    log_b = np.asarray(log_b, dtype=np.float64)
    u = np.asarray(u, dtype=np.int64)
    v = np.asarray(v, dtype=np.int64)
    if (log_coupling is None) == (log_tables is None):
        raise ValueError("give exactly one of log_coupling= or log_tables=")
    k = log_unary.shape[1]
    log_p = log_b - logsumexp(log_b, axis=1, keepdims=True)  # the nodes: sum_i E_b_i log psi_i + H(b_i)
    p = np.exp(log_p)
    H_node = -_plogq(p, log_p)
    total = float(_plogq(p, log_unary).sum() + H_node.sum())
    step = max(1, CHUNK_ENTRIES // max(k * (k if log_tables is not None else 1), 1))
    for s in range(0, u.size, step):
        e = slice(s, s + step)
        uu, vv = u[e], v[e]
        au = log_b[uu] - msgs[slot_vu[e]]  # u's cavity towards v: everything but v's message
        av = log_b[vv] - msgs[slot_uv[e]]
        if log_coupling is not None:
            log_Z, pu, pv = _potts_pairs(au, av, np.asarray(log_coupling[e], dtype=np.float64))
        else:
            log_Z, pu, pv = _table_pairs(au, av, np.asarray(log_tables[e], dtype=np.float64))
        total += float((log_Z - _plogq(pu, au) - _plogq(pv, av) - H_node[uu] - H_node[vv]).sum())
    return total
