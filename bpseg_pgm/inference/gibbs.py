"""Gibbs sampling of a pairwise model, vectorised over independent chains.

Each sweep visits the sentences in reading order and redraws x_i from its full conditional
p(x_i | rest) ∝ psi_i(x_i) prod_j psi_ij(x_i, x_j), for all chains at once (Gumbel-max).
Beliefs are label frequencies over the chains and the sweeps after ``burn_in``; for the same
seed the draws, and so the beliefs, are the same. Chains start from the unary arg-max
perturbed by the same Gumbel noise (a random, seeded start). Cost: O(chains |E| k) a sweep
for Potts factors, O(chains |E| k) gathers for full tables.
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
