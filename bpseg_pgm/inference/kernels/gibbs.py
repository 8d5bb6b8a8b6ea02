"""Gibbs sampling of a pairwise model, vectorised over independent chains.

Each sweep visits the sentences in reading order and redraws x_i from its full conditional, for all chains at once
(Gumbel-max); chains start from the unary arg-max perturbed by seeded Gumbel noise. Beliefs are label frequencies
over the chains and the sweeps after ``burn_in``: the same seed gives the same beliefs. :func:`pgmpy_gibbs_frequencies`
is the same estimate from pgmpy's own ``GibbsSampling`` (one chain; tiny models only).
"""

from __future__ import annotations

import numpy as np

from .incidence import pairwise_arrays, sender_slots


def gibbs_frequencies(
    log_unary, u, v, *, log_coupling=None, log_tables=None, n_samples=500, burn_in=100, n_chains=16, seed=0
) -> np.ndarray:
    """(n, k) label frequencies of ``n_chains`` chains over ``n_samples`` sweeps after ``burn_in``."""
    log_unary, u, v = pairwise_arrays(log_unary, u, v, log_coupling, log_tables)
    n, k = log_unary.shape
    rng = np.random.default_rng(seed)
    order, ptr, edge, dst, forward = sender_slots(n, u, v)
    chains = np.arange(n_chains)
    x = np.argmax(log_unary[None] + rng.gumbel(size=(n_chains, n, k)), axis=2)  # (C, n)
    onehot = np.zeros((n, n_chains, k))
    onehot[np.arange(n)[:, None], chains[None], x.T] = 1.0
    counts = np.zeros((n, k))
    if log_coupling is not None:
        lw = np.asarray(log_coupling, dtype=np.float64)[edge[order]]
    else:
        T = np.asarray(log_tables, dtype=np.float64)
    slot_dst = dst[order]
    for t in range(burn_in + n_samples):
        for i in range(n):
            a, b = ptr[i], ptr[i + 1]
            logits = np.broadcast_to(log_unary[i], (n_chains, k)).copy()
            if b > a:
                nb = slot_dst[a:b]
                if log_coupling is not None:
                    w = lw[a:b]
                    # sum_j log w_ij [x != x_j] = sum_j log w_ij - sum_j log w_ij [x_j == x]
                    logits += w.sum() - np.tensordot(w, onehot[nb], axes=(0, 0))
                else:
                    slots = order[a:b]
                    tab = T[edge[slots]]
                    tab = np.where(forward[slots][:, None, None], tab, tab.transpose(0, 2, 1))  # (s, x_i, x_j)
                    # tab[s, :, x_j(c)] for every chain c: (s, k, C), summed over the neighbours
                    logits += tab[np.arange(nb.size)[:, None], :, x[:, nb].T].sum(axis=0)
            new = np.argmax(logits + rng.gumbel(size=(n_chains, k)), axis=1)
            onehot[i, chains, x[:, i]] = 0.0
            onehot[i, chains, new] = 1.0
            x[:, i] = new
        if t >= burn_in:
            counts += onehot.sum(axis=1)
    return counts / counts.sum(axis=1, keepdims=True)


def pgmpy_gibbs_frequencies(network, n: int, k: int, *, n_samples=500, burn_in=100, seed=0) -> np.ndarray:
    """(n, k) label frequencies of one chain of pgmpy's ``GibbsSampling`` on ``network`` (variables
    ``s0`` .. ``s{n-1}``) over ``n_samples`` sweeps after ``burn_in``, started at a seeded random state.

    pgmpy seeds NumPy's global generator; its state is restored afterwards.
    """
    from bpseg_pgm.utils.pgmpy_loader import GibbsSampling

    sampler = GibbsSampling(network)
    names = [str(v) for v in sampler.variables]
    col = np.array([names.index(f"s{i}") for i in range(n)])
    rng = np.random.default_rng(seed)
    start = [int(x) for x in rng.integers(k, size=len(names))]
    saved = np.random.get_state()  # pgmpy seeds NumPy's global generator: leave it as we found it
    try:
        draws = sampler.generate_sample(
            start_state=[(name, s) for name, s in zip(names, start)], size=burn_in + n_samples, seed=seed
        )
        states = np.array([[s for _, s in state] for state in draws], dtype=np.int64)
    finally:
        np.random.set_state(saved)
    kept = states[burn_in:, col]
    counts = np.zeros((n, k))
    np.add.at(counts, (np.broadcast_to(np.arange(n), kept.shape), kept), 1.0)
    return counts / counts.sum(axis=1, keepdims=True)
