"""Flooding-schedule loopy sum-product in log space, shared by the vectorised engines.

Every message of sweep t is computed from the messages of sweep t-1 (as in the paper's Algorithm 1), optionally
damped, until the largest change of a normalised log message is below ``tol`` or ``max_iter`` sweeps have run:
:func:`flooding_bp` for any message update (two buffers, blocks of messages on up to two threads), and
:func:`unit_sweeps` for the compiled Potts sweeps that update messages in place. Neither loops over single messages
in Python, and neither result depends on the thread count.
"""

from __future__ import annotations

import os
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field
from typing import Callable

import numpy as np
from scipy.special import logsumexp

from .layouts import alloc

#: Smallest normalised log message. exp(-1e4) is 0 in float64, so a state below it is ruled out
#: either way; the floor keeps ruled-out states finite (no -inf - -inf = NaN in cavities) and
#: stops them drifting without bound, which would keep the max-change rule from ever firing.
LOG_FLOOR = -1e4


@dataclass
class BPResult:
    """What a BP run returns: normalised beliefs (n, k), log messages, and convergence."""

    beliefs: np.ndarray
    log_messages: np.ndarray
    n_iter: int
    converged: bool
    deltas: list = field(default_factory=list)


def normalise_log(log_b: np.ndarray) -> np.ndarray:
    """Rows of exp(log_b) normalised to sum 1, computed stably."""
    mx = np.max(log_b, axis=1, keepdims=True)
    if not np.all(np.isfinite(mx)):
        raise ValueError("the model gives some variable zero probability in every state")
    p = np.exp(log_b - mx)
    p /= p.sum(axis=1, keepdims=True)
    return p


def n_threads() -> int:
    """Threads for block work: at most 2, at most the CPUs this process may use."""
    try:
        cpus = len(os.sched_getaffinity(0))
    except AttributeError:  # pragma: no cover - not Linux
        cpus = os.cpu_count() or 1
    return max(1, min(2, cpus))


def flooding_bp(
    log_unary: np.ndarray,
    layout,
    update: Callable[[np.ndarray, np.ndarray, slice], None],
    *,
    max_iter: int = 100,
    tol: float = 1e-6,
    damping: float = 0.0,
    init_msgs: np.ndarray | None = None,
    valid_slots: np.ndarray | None = None,
    callback: Callable[[int, np.ndarray], None] | None = None,
) -> BPResult:
    """Run flooding loopy BP.

    ``update(cavity, out, sl)`` writes normalised log messages for the slots ``sl`` into ``out`` given
    ``cavity[d] = log psi_src(x) + (messages into src except from dst)``, shifted per sender so that the sender's
    largest log belief is 0 (it may overwrite ``cavity``). ``init_msgs`` defaults to uniform log(1/K); ``valid_slots``
    (slots, K) marks real states when cardinalities differ (padded states keep log message 0).
    ``callback(t, beliefs)`` runs after every sweep.
    """
    log_unary = np.asarray(log_unary, dtype=np.float64)
    n, K = log_unary.shape
    msgs = alloc((layout.n_slots, K))
    if init_msgs is None:
        msgs.fill(-np.log(K))
    else:
        msgs[...] = init_msgs
    new = alloc((layout.n_slots, K))
    work = layout.blocks(K)
    for sl in work:
        layout.finish(msgs, sl)
    bufs = [msgs, new]  # the messages of sweep t-1, and the buffer that sweep t fills

    def sweep_block(sl: slice, log_b: np.ndarray) -> float:
        old, out = bufs[0], bufs[1][sl]
        cavity = layout.cavity(log_b, old, sl)
        update(cavity, out, sl)
        if damping > 0:
            out *= 1.0 - damping
            out += damping * old[sl]
            _renormalise(out, None if valid_slots is None else valid_slots[sl])
        layout.finish(bufs[1], sl)
        # the cavity buffer is free again: hold the change of every message there
        diff = np.subtract(out, old[sl], out=cavity)
        delta = max(np.fmax.reduce(diff, axis=None), -np.fmin.reduce(diff, axis=None)) if diff.size else 0.0
        return float(delta)

    def next_incoming() -> np.ndarray:
        bufs.reverse()
        return layout.incoming(bufs[0])

    res = _flood(
        log_unary, layout.incoming(msgs), work, sweep_block, next_incoming,
        threads=n_threads() if len(work) > 1 else 1, done=layout.n_slots == 0,
        max_iter=max_iter, tol=tol, callback=callback,
    )  # fmt: skip
    res.log_messages = bufs[0]
    return res


#: Below this many message entries one thread is faster than two for the in-place sweeps.
PARALLEL_ENTRIES = 1 << 20
#: Work units per in-place sweep; fixed, so that sums are added in the same order on any machine.
N_UNITS = 8


def unit_sweeps(
    log_unary: np.ndarray,
    incoming: np.ndarray,
    run_unit: Callable[[int, np.ndarray], float],
    unit_incoming: list[np.ndarray],
    *,
    n_entries: int,
    max_iter: int,
    tol: float,
    callback: Callable[[int, np.ndarray], None] | None = None,
) -> BPResult:
    """The flooding loop of the in-place Potts sweeps (complete graph and edge lists).

    Messages are updated in place, split into a fixed list of work units: ``run_unit(u, log_b)`` updates unit u's
    messages from the current beliefs ``log_b`` (max-shifted per row), writes the unit's share of the incoming
    log-message sums into ``unit_incoming[u]`` and returns its largest message change. Units run on up to two threads
    when there are at least PARALLEL_ENTRIES message entries; their shares are added in unit order, so the result does
    not depend on the thread count. ``incoming`` holds the sums of the initial messages. ``log_messages`` of the
    result is left to the caller.
    """
    n_units = len(unit_incoming)

    def next_incoming() -> np.ndarray:
        total = np.zeros_like(incoming)
        for part in unit_incoming:
            total += part
        return total

    return _flood(
        log_unary, incoming, range(n_units), run_unit, next_incoming,
        threads=min(n_threads(), n_units) if n_entries >= PARALLEL_ENTRIES else 1, done=n_entries == 0,
        max_iter=max_iter, tol=tol, callback=callback,
    )  # fmt: skip


def _flood(log_unary, incoming, work, run, next_incoming, *, threads, done, max_iter, tol, callback) -> BPResult:
    """The loop both sweeps share: ``run(item, log_b)`` for every work item (on ``threads``
    threads), then ``next_incoming()`` for the new incoming sums, until the largest change
    is below ``tol`` or ``max_iter`` sweeps have run. ``log_messages`` is left to the caller."""
    deltas: list[float] = []
    converged = done
    n_iter = 0
    pool = ThreadPoolExecutor(threads) if threads > 1 else None
    try:
        for t in range(1, max_iter + 1):
            if converged:
                break
            log_b = log_unary + incoming
            log_b -= np.max(log_b, axis=1, keepdims=True)
            if pool is None:
                item_deltas = [run(item, log_b) for item in work]
            else:
                item_deltas = list(pool.map(lambda item: run(item, log_b), work))
            delta = max(item_deltas, default=0.0)
            deltas.append(delta)
            incoming = next_incoming()
            n_iter = t
            if callback is not None:
                callback(t, normalise_log(log_unary + incoming))
            if delta < tol:
                converged = True
    finally:
        if pool is not None:
            pool.shutdown()
    beliefs = normalise_log(log_unary + incoming)
    return BPResult(beliefs=beliefs, log_messages=None, n_iter=n_iter, converged=converged, deltas=deltas)


def _renormalise(log_m: np.ndarray, valid: np.ndarray | None) -> None:
    """In place: subtract each row's log-sum-exp over valid states; padded states stay 0."""
    if valid is None:
        log_m -= logsumexp(log_m, axis=1, keepdims=True)
        return
    masked = np.where(valid, log_m, -np.inf)
    log_m[...] = np.where(valid, masked - logsumexp(masked, axis=1, keepdims=True), 0.0)
