"""Naive mean-field: coordinate ascent on a fully factorised q(x) = prod_i q_i(x_i), with its ELBO.

Each update sets q_i(x) ∝ psi_i(x) exp(sum_{j in N(i)} E_{q_j} log psi_ij(x, x_j)), one sentence at a time in
reading order (each update raises the ELBO, a lower bound on log Z), until no q_i(x) moves by ``tol`` in a sweep;
q starts at the unary term's softmax. A sweep costs O(|E| k) for Potts factors, O(|E| k^2) for full tables.
"""

from __future__ import annotations

from dataclasses import dataclass, field

import numpy as np
from scipy.special import logsumexp

from .incidence import pairwise_arrays, sender_slots


@dataclass
class MeanFieldResult:
    beliefs: np.ndarray
    elbo: float
    n_iter: int
    converged: bool
    deltas: list = field(default_factory=list)


def elbo(log_unary, u, v, q, *, log_coupling=None, log_tables=None, log_q=None) -> float:
    """The ELBO of a factorised q (n, k) for the pairwise model (see the module docstring)."""
    q = np.asarray(q, dtype=np.float64)
    if log_q is None:
        with np.errstate(divide="ignore"):
            log_q = np.log(q)
    energy = float(np.where(q > 0, q * np.where(q > 0, log_unary, 0.0), 0.0).sum())
    if u.size:
        if log_coupling is not None:
            energy += float((log_coupling * (1.0 - np.einsum("ek,ek->e", q[u], q[v]))).sum())
        else:
            energy += float(np.einsum("ex,exy,ey->", q[u], log_tables, q[v]))
    entropy = -float(np.where(q > 0, q * np.where(q > 0, log_q, 0.0), 0.0).sum())
    return energy + entropy


def mean_field(log_unary, u, v, *, log_coupling=None, log_tables=None, max_iter=100, tol=1e-6, callback=None):
    """Coordinate-ascent mean-field; returns :class:`MeanFieldResult` (beliefs = q, its ELBO)."""
    log_unary, u, v = pairwise_arrays(log_unary, u, v, log_coupling, log_tables)
    n, k = log_unary.shape
    order, ptr, edge, dst, forward = sender_slots(n, u, v)
    log_q = log_unary - logsumexp(log_unary, axis=1, keepdims=True)
    q = np.exp(log_q)
    if log_coupling is not None:
        lw = np.asarray(log_coupling, dtype=np.float64)
        slot_w = lw[edge[order]]
    else:
        T = np.asarray(log_tables, dtype=np.float64)
    slot_dst = dst[order]
    deltas, converged, n_iter = [], n == 0, 0
    for t in range(1, max_iter + 1):
        if converged:
            break
        delta = 0.0
        for i in range(n):
            a, b = ptr[i], ptr[i + 1]
            logits = log_unary[i].copy()
            if b > a:
                nb = slot_dst[a:b]
                if log_coupling is not None:
                    w = slot_w[a:b]
                    logits += w.sum() - w @ q[nb]
                else:
                    slots = order[a:b]
                    tab = T[edge[slots]]
                    fwd = forward[slots]
                    # oriented (x_i, x_j): tables of edges where i is v are transposed
                    tab = np.where(fwd[:, None, None], tab, tab.transpose(0, 2, 1))
                    logits += np.einsum("sxy,sy->x", tab, q[nb])
            new_log = logits - logsumexp(logits)
            new = np.exp(new_log)
            delta = max(delta, float(np.max(np.abs(new - q[i]))))
            q[i], log_q[i] = new, new_log
        deltas.append(delta)
        n_iter = t
        if callback is not None:
            callback(t, q.copy())
        if delta < tol:
            converged = True
    value = elbo(log_unary, u, v, q, log_coupling=log_coupling, log_tables=log_tables, log_q=log_q)
    return MeanFieldResult(q, value, n_iter, converged, deltas)
