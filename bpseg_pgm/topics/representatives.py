"""Choosing the k segment representatives C_1..C_k among the sentences.

* ``"random"``: k distinct sentences drawn with ``random_state`` (the paper);
* ``"farthest"``: deterministic farthest-point spread: start from the sentence least similar to the document's mean
  direction, then repeatedly add the sentence whose highest cosine similarity to the chosen ones is lowest;
* ``"all"``: every sentence, k = n (the paper's Choi runs).
"""

from __future__ import annotations

import numpy as np

from bpseg_pgm.params import INITS
from bpseg_pgm.utils.validation import check_n_segments


def choose_representatives(Xn: np.ndarray, k: int, init: str = "random", random_state=None) -> np.ndarray:
    """Indices (k,) of representative sentences for unit-norm embeddings Xn (n, d)."""
    n = Xn.shape[0]
    if init == "all":
        return np.arange(n)
    k = check_n_segments(k, n)
    if init == "random":
        rng = np.random.default_rng(random_state)
        return np.sort(rng.choice(n, size=k, replace=False))
    if init == "farthest":
        return farthest_point(Xn, k)
    raise ValueError(f"init must be one of {INITS}, got {init!r}")


def farthest_point(Xn: np.ndarray, k: int) -> np.ndarray:
    """Greedy max-min cosine-distance spread; ties go to the earliest sentence."""
    mean = Xn.mean(axis=0)
    first = int(np.argmin(Xn @ mean)) if np.linalg.norm(mean) > 0 else 0
    chosen = [first]
    best_sim = Xn @ Xn[first]
    for _ in range(1, k):
        sim = best_sim.copy()
        sim[chosen] = np.inf
        nxt = int(np.argmin(sim))
        chosen.append(nxt)
        best_sim = np.maximum(best_sim, Xn @ Xn[nxt])
    return np.array(chosen, dtype=np.int64)
