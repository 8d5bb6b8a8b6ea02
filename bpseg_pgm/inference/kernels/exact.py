"""Exact marginals with pgmpy's own ``BeliefPropagation`` (junction tree), with a size guard.

On BP-Seg's fully connected graph the junction tree is one clique of all n variables, a table of k^n entries
(docs/model.md, "Inference"): refused up front, naming the table size, instead of letting the machine swap.
"""

from __future__ import annotations

import warnings

import numpy as np

#: Largest clique table (entries) the exact engine will attempt.
MAX_CLIQUE_ENTRIES = 2_000_000


def largest_clique_entries(model) -> float:
    """Entries of the largest junction-tree clique table (min-degree heuristic for sparse graphs)."""
    import networkx as nx  # here: registering the engines loads no networkx

    card = model.get_cardinality()
    g = nx.Graph(model.edges())
    g.add_nodes_from(model.nodes())
    n = g.number_of_nodes()
    if g.number_of_edges() == n * (n - 1) // 2:
        return float(np.prod([float(card[v]) for v in g.nodes()]))
    from networkx.algorithms.approximation import treewidth_min_fill_in

    _, decomposition = treewidth_min_fill_in(g)
    return max(float(np.prod([float(card[v]) for v in bag])) for bag in decomposition.nodes()) if n else 1.0


def exact_marginals(model, max_entries: float = MAX_CLIQUE_ENTRIES) -> np.ndarray:
    """(n, K) exact marginals of the model's variables in ``model.nodes()`` order."""
    return exact_inference(model, max_entries)[0]


def exact_inference(model, max_entries: float = MAX_CLIQUE_ENTRIES) -> tuple[np.ndarray, float]:
    """Exact marginals (as :func:`exact_marginals`) and log Z, from one junction-tree calibration.

    pgmpy's calibrated clique beliefs are unnormalised: each sums to Z, the partition function.
    """
    from bpseg_pgm.utils.pgmpy_loader import BeliefPropagation

    size = largest_clique_entries(model)
    if size > max_entries:
        card = model.get_cardinality()
        ks = sorted(set(card.values()))
        raise ValueError(
            f"exact inference needs a junction-tree clique table of {size:.3g} entries "
            f"(n={len(card)} variables, k={ks[0] if len(ks) == 1 else ks}); the limit is "
            f"{max_entries:.3g}. Use engine='loopy' or 'potts', or fewer sentences/segments."
        )
    import networkx as nx

    names = list(model.nodes())
    g = nx.Graph(model.edges())
    g.add_nodes_from(names)
    if len(names) > 1 and not nx.is_connected(g):
        raise ValueError(
            "exact inference (pgmpy's junction tree) needs a connected graph; this one has "
            f"{nx.number_connected_components(g)} components: add edges or use engine='loopy'"
        )
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        bp = BeliefPropagation(model)
        bp.calibrate()
        cliques = bp.get_clique_beliefs()
    # each variable's marginal from the smallest calibrated clique that holds it (querying all
    # variables at once would make pgmpy build their k^n joint table)
    holder = {}
    for clique, belief in cliques.items():
        for v in clique:
            if v not in holder or np.prod(belief.cardinality) < np.prod(holder[v].cardinality):
                holder[v] = belief
    K = max(int(model.get_cardinality(v)) for v in names)
    out = np.zeros((len(names), K))
    for i, v in enumerate(names):
        belief = holder[v]
        others = [u for u in belief.variables if u != v]
        vals = np.asarray(belief.marginalize(others, inplace=False).values, dtype=np.float64)
        out[i, : vals.size] = vals / vals.sum()
    # the graph is connected: every calibrated clique belief sums to Z
    log_z = float(np.log(np.sum(holder[names[0]].values))) if names else 0.0
    return out, log_z
