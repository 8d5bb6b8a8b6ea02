"""Exact sum-product on a chain: BP on a tree, in one forward and one backward pass (forward-backward).

* :func:`chain_potts_bp`: Potts factors, 1 for equal labels and w_i = exp(log_w[i]) for different ones between
  units i and i+1; labels may return after others.
* :func:`run_chain_bp`: the labels are segment indices 0..k-1 visited in order, each in one run (from segment j
  the next unit stays in j, factor 1, or moves to j + 1, factor w_i); exact marginals over every segmentation
  into at most k contiguous segments (``structure="runs"``).

Both work in log space and return a :class:`ChainResult` (``log_messages``: the forward messages) with the exact
log Z of the chain.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from bpseg_pgm.inference.kernels.flooding import BPResult

__all__ = ["ChainResult", "chain_potts_bp", "run_chain_bp"]


@dataclass
class ChainResult(BPResult):
    """A :class:`BPResult` with the exact log partition function of the chain."""

    log_partition: float = float("nan")


def _check(log_unary, log_w):
    log_unary = np.asarray(log_unary, dtype=np.float64)
    if log_unary.ndim != 2 or log_unary.shape[0] < 1 or log_unary.shape[1] < 1:
        raise ValueError(f"log_unary must be a non-empty (n, k) array, got shape {log_unary.shape}")
    n = log_unary.shape[0]
    log_w = np.broadcast_to(np.asarray(log_w, dtype=np.float64), (max(n - 1, 0),)).copy()
    if not (np.all(np.isfinite(log_unary)) and np.all(np.isfinite(log_w))):
        raise ValueError("chain potentials must be finite")
    return log_unary, log_w


def _lse(a: np.ndarray) -> float:
    """log sum exp of a 1-D array (-inf when every entry is -inf)."""
    mx = a.max()
    if mx == -np.inf:
        return -np.inf
    return float(mx + np.log(np.exp(a - mx).sum()))


def _potts_pass(log_unary: np.ndarray, log_w: np.ndarray) -> tuple[np.ndarray, float]:
    """Forward log messages: out[t] is the (normalised) message into t from t-1 (out[0] = 0).

    Everything stays in log space, so couplings or unary gaps of hundreds of nats neither
    overflow (w = exp(800)) nor get floored (ratios below 1e-300 stay exact).
    """
    n, k = log_unary.shape
    out = np.zeros((n, k))
    log_z = 0.0
    for t in range(1, n):
        a = log_unary[t - 1] + out[t - 1]
        # log sum_{y != x} exp(a(y)): from the total for every x but the arg-max (no
        # cancellation: the arg-max term is in the sum), and directly for the arg-max
        top = int(np.argmax(a))
        mx = a[top]
        h = np.exp(a - mx)
        with np.errstate(divide="ignore"):
            rest = mx + np.log(np.maximum(h.sum() - h, 0.0))
        rest[top] = _lse(np.delete(a, top)) if k > 1 else -np.inf
        # sum_y exp(a(y)) psi(y, x) = exp(a(x)) + w sum_{y != x} exp(a(y))
        msg = np.logaddexp(a, log_w[t - 1] + rest)
        norm = _lse(msg)
        out[t] = msg - norm
        log_z += norm
    return out, float(log_z + _lse(log_unary[-1] + out[-1]))


def _beliefs(log_b: np.ndarray) -> np.ndarray:
    mx = log_b.max(axis=1, keepdims=True)
    p = np.exp(log_b - mx)
    return p / p.sum(axis=1, keepdims=True)


def chain_potts_bp(log_unary, log_w) -> ChainResult:
    """Exact marginals of a Potts chain: unary log potentials (n, k), log couplings (n - 1,).

    ``log_w[i]`` is the log factor for different labels at sentences i and i+1 (a scalar is
    used for every link); equal labels have factor 1.
    """
    log_unary, log_w = _check(log_unary, log_w)
    fwd, log_z = _potts_pass(log_unary, log_w)
    bwd = _potts_pass(log_unary[::-1], log_w[::-1])[0][::-1]
    beliefs = _beliefs(log_unary + fwd + bwd)
    return ChainResult(beliefs, fwd, 1, True, [], log_z)


def _lr_pass(log_unary: np.ndarray, log_w: np.ndarray, reverse: bool) -> tuple[np.ndarray, float]:
    """Left-to-right chain messages (forward), or the same read backwards (reverse), in log space."""
    n, k = log_unary.shape
    out = np.full((n, k), -np.inf)
    steps = range(n - 2, -1, -1) if reverse else range(1, n)
    if reverse:
        out[n - 1] = 0.0
    else:
        out[0, 0] = 0.0  # the first sentence opens segment 0
    prev_t = n - 1 if reverse else 0
    log_z = 0.0
    for t in steps:
        a = log_unary[prev_t] + out[prev_t]
        lw = log_w[min(t, prev_t)]
        msg = a.copy()
        if reverse:  # from t+1's segment j' into t's segment j: j' = j (1) or j' = j + 1 (w)
            msg[:-1] = np.logaddexp(a[:-1], lw + a[1:])
        else:  # from t-1's segment j into t's: j stays (1) or moves on to j + 1 (w)
            msg[1:] = np.logaddexp(a[1:], lw + a[:-1])
        norm = _lse(msg)  # finite: msg >= a entrywise, and a has a finite entry
        out[t] = msg - norm
        log_z += norm
        prev_t = t
    return out, log_z


def run_chain_bp(log_unary, log_w) -> ChainResult:
    """Exact marginals over segmentations into at most k contiguous, ordered segments.

    Label j of sentence i means "i lies in the j-th segment"; ``log_unary[i, j]`` scores
    sentence i in segment j and ``log_w[i]`` is the log factor for starting a new segment
    between i and i+1. Segments left empty at the end are allowed (fewer than k come back).
    """
    log_unary, log_w = _check(log_unary, log_w)
    fwd, log_z = _lr_pass(log_unary, log_w, reverse=False)
    bwd, _ = _lr_pass(log_unary, log_w, reverse=True)
    log_b = log_unary + fwd + bwd
    # log Z from the forward pass: the normalisers plus the last sentence's total
    log_z += _lse(log_unary[-1] + fwd[-1])
    return ChainResult(_beliefs(log_b), fwd, 1, True, [], float(log_z))
