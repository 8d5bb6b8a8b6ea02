"""Flooding-schedule loopy sum-product over directed edges, in log space.

This is the loop shared by the two vectorised engines (the generic table kernel behind
:class:`LoopyBeliefPropagation` and the Potts kernel): every message is recomputed from
the previous sweep's messages (as in the paper's Algorithm 1), optionally damped, until
the largest change of a normalised log message is below ``tol`` or ``max_iter`` sweeps
have run. What a message *is* comes from the ``update`` function passed in; no Python
loop runs over messages.

Directed edges: for undirected edges (u[e], v[e]), e < m, direction e sends u -> v and
direction e + m sends v -> u, so the reverse of direction d is (d + m) mod 2m.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Callable

import numpy as np
import scipy.sparse as sp
from scipy.special import logsumexp


@dataclass
class BPResult:
    """What a BP run returns: normalised beliefs (n, k), log messages, and convergence."""

    beliefs: np.ndarray
    log_messages: np.ndarray
    n_iter: int
    converged: bool
    deltas: list = field(default_factory=list)


def directed_edges(u: np.ndarray, v: np.ndarray):
    """(src, dst, rev) arrays for the 2m directed edges of undirected edges (u, v)."""
    u = np.asarray(u, dtype=np.int64)
    v = np.asarray(v, dtype=np.int64)
    m = u.size
    src = np.concatenate([u, v])
    dst = np.concatenate([v, u])
    rev = (np.arange(2 * m) + m) % max(2 * m, 1)
    return src, dst, rev


def normalise_log(log_b: np.ndarray) -> np.ndarray:
    """Rows of exp(log_b) normalised to sum 1, computed stably; finite for finite-max rows."""
    mx = np.max(log_b, axis=1, keepdims=True)
    if not np.all(np.isfinite(mx)):
        raise ValueError("the model gives some variable zero probability in every state")
    p = np.exp(log_b - mx)
    p /= p.sum(axis=1, keepdims=True)
    return p


def flooding_bp(
    log_unary: np.ndarray,
    u: np.ndarray,
    v: np.ndarray,
    update: Callable[[np.ndarray], np.ndarray],
    *,
    max_iter: int = 100,
    tol: float = 1e-6,
    damping: float = 0.0,
    valid: np.ndarray | None = None,
    callback: Callable[[int, np.ndarray], None] | None = None,
) -> BPResult:
    """Run flooding loopy BP.

    ``log_unary`` (n, K); ``update(cavity) -> new normalised log messages`` where
    ``cavity[d] = log psi_src(x) + sum of messages into src except the one from dst``;
    ``valid`` (n, K) marks real states when variables have different cardinalities
    (padded states carry log message 0 and log unary -inf). ``callback(t, beliefs)`` is
    called after every sweep, for teaching plots.
    """
    log_unary = np.asarray(log_unary, dtype=np.float64)
    n, K = log_unary.shape
    src, dst, rev = directed_edges(u, v)
    n_dir = src.size
    incoming = sp.csr_matrix((np.ones(n_dir), (dst, np.arange(n_dir))), shape=(n, n_dir))

    if valid is None:
        msgs = np.full((n_dir, K), -np.log(K))
    else:
        card = valid.sum(axis=1)
        msgs = np.where(valid[dst], -np.log(card[dst])[:, None], 0.0)

    deltas: list[float] = []
    converged = False
    n_iter = 0
    for t in range(1, max_iter + 1):
        log_b = log_unary + incoming @ msgs
        cavity = log_b[src]
        cavity -= msgs[rev]
        new = update(cavity)
        del cavity
        if damping > 0:
            new *= 1.0 - damping
            new += damping * msgs
            new = _renormalise(new, None if valid is None else valid[dst])
        with np.errstate(invalid="ignore"):
            diff = np.abs(new - msgs)
        delta = float(np.nanmax(diff)) if diff.size else 0.0
        del diff
        deltas.append(delta)
        msgs = new
        n_iter = t
        if callback is not None:
            callback(t, normalise_log(log_unary + incoming @ msgs))
        if delta < tol:
            converged = True
            break
    if max_iter == 0 or n_dir == 0:
        converged = True
    beliefs = normalise_log(log_unary + incoming @ msgs)
    return BPResult(beliefs=beliefs, log_messages=msgs, n_iter=n_iter, converged=converged, deltas=deltas)


def _renormalise(log_m: np.ndarray, valid: np.ndarray | None) -> np.ndarray:
    """Subtract each row's log-sum-exp (over valid states); padded states stay 0."""
    if valid is None:
        return log_m - logsumexp(log_m, axis=1, keepdims=True)
    masked = np.where(valid, log_m, -np.inf)
    out = masked - logsumexp(masked, axis=1, keepdims=True)
    return np.where(valid, out, 0.0)
