"""GraphSeg (Glavaš, Nanni & Ponzetto 2016) on sentence-embedding cosine similarity.

The original (and the graphseg-python port the BP-Seg paper ran) scores sentence pairs by
aligning GloVe word vectors weighted by word information content from a frequency list;
those files cannot be fetched offline, so here the relatedness of two sentences is the
cosine similarity of their embeddings (the same embeddings every other method gets).
Everything after the similarity matrix follows the original:

1. relatedness graph: an edge between sentences i and j when sim(i, j) > ``tau``;
2. maximal cliques of that graph (Bron-Kerbosch, ``networkx.find_cliques``);
3. merging, in one of two variants:

   * ``"paper"`` (default, the algorithm as published): initial segments join adjacent
     sentences that share a clique; then adjacent *initial* segments are merged when some
     clique holds a sentence of each. We read this as one pass over the initial segments,
     as in the paper's worked example (cliques {1,2,6} {2,4,7} {3,4,5} {1,8,9} give
     {1,2} {3,4,5} {6} {7} {8,9}, then {1,...,5} {6} {7} {8,9}); repeating it to a fixed
     point would also absorb {6} through {1,2,6}, and on Choi set 1 with MiniLM
     embeddings it under-segments badly (3-11: ARI 0.23 against 0.71 for one pass);
   * ``"graphseg-python"`` (what Dobatymo/graphseg-python, used for the BP-Seg paper,
     does): a segment starts at two adjacent sentences of a clique and grows by an adjacent
     free sentence sharing a clique with one of its members, repeated until nothing
     changes (cliques and pairs in sorted order, so the result is deterministic); segments
     never merge with each other; every sentence still alone is then attached to the
     neighbouring side it is most similar to (mean similarity to that segment).

4. segments with fewer than ``min_size`` sentences are merged, left to right, into the
   adjacent segment with the higher mean pairwise similarity (ties go right).

The output is contiguous: label j for the j-th segment. The port's 100-sentence locality
window is not applied (Choi documents have at most 141 sentences).
"""

from __future__ import annotations

from itertools import combinations

import networkx as nx
import numpy as np

from bpseg_bench.baselines._validation import check_embeddings, cosine_similarity_matrix

VARIANTS = ("paper", "graphseg-python")

__all__ = [
    "VARIANTS",
    "GraphSeg",
    "maximal_cliques",
    "merge_small_segments",
    "paper_segments",
    "port_segments",
]


def maximal_cliques(similarity: np.ndarray, tau: float) -> list[list[int]]:
    """Sorted maximal cliques of the graph with an edge wherever similarity > tau (i != j).

    Isolated sentences are cliques of size one.
    """
    n = similarity.shape[0]
    graph = nx.Graph()
    graph.add_nodes_from(range(n))
    rows, cols = np.triu_indices(n, k=1)
    keep = similarity[rows, cols] > tau
    graph.add_edges_from(zip(rows[keep].tolist(), cols[keep].tolist()))
    return sorted(sorted(clique) for clique in nx.find_cliques(graph))


def _clique_ids(cliques: list[list[int]], n: int) -> list[set[int]]:
    ids: list[set[int]] = [set() for _ in range(n)]
    for q, clique in enumerate(cliques):
        for v in clique:
            ids[v].add(q)
    return ids


def paper_segments(cliques: list[list[int]], n: int) -> list[list[int]]:
    """Steps 1-2 as published: join adjacent sentences sharing a clique, then merge adjacent
    initial segments that a clique connects (one pass over the initial segments)."""
    ids = _clique_ids(cliques, n)
    initial: list[list[int]] = [[0]]
    for i in range(1, n):
        if ids[i - 1] & ids[i]:
            initial[-1].append(i)
        else:
            initial.append([i])
    seg_ids = [set().union(*(ids[v] for v in seg)) for seg in initial]
    merged = [list(initial[0])]
    for a, b, seg in zip(seg_ids, seg_ids[1:], initial[1:]):
        if a & b:
            merged[-1].extend(seg)
        else:
            merged.append(list(seg))
    return merged


def port_segments(cliques: list[list[int]], similarity: np.ndarray) -> list[list[int]]:
    """Steps 1-2 as graphseg-python does them (see the module docstring)."""
    n = similarity.shape[0]
    if n == 1:
        return [[0]]
    owner: dict[int, list[int]] = {}  # sentence -> its segment (a sorted list, shared)
    changed = True
    while changed:
        changed = False
        for clique in cliques:
            for a, b in combinations(clique, 2):
                seg_a, seg_b = owner.get(a), owner.get(b)
                if seg_a is not None and seg_b is not None:
                    continue
                if seg_a is None and seg_b is None:
                    if b - a == 1:
                        seg = [a, b]
                        owner[a] = owner[b] = seg
                        changed = True
                    continue
                seg, free = (seg_a, b) if seg_a is not None else (seg_b, a)
                if free == seg[0] - 1 or free == seg[-1] + 1:
                    seg.append(free)
                    seg.sort()
                    owner[free] = seg
                    changed = True
    for v in range(n):  # sentences still alone, left to right: all before v are placed
        if v in owner:
            continue
        before = owner.get(v - 1)
        after = owner.get(v + 1)
        sim_before = -np.inf if v == 0 else float(similarity[v, before].mean())
        if v == n - 1:
            sim_after = -np.inf
        elif after is not None:
            sim_after = float(similarity[v, after].mean())
        else:
            sim_after = float(similarity[v, v + 1])
        if sim_before >= sim_after:
            before.append(v)
            owner[v] = before
        elif after is not None:
            after.insert(0, v)
            owner[v] = after
        else:
            seg = [v, v + 1]
            owner[v] = owner[v + 1] = seg
    unique = {id(seg): seg for seg in owner.values()}
    return sorted(unique.values(), key=lambda seg: seg[0])


def merge_small_segments(segments: list[list[int]], similarity: np.ndarray, min_size: int) -> list[list[int]]:
    """Merge each segment shorter than ``min_size`` (leftmost first) into the adjacent segment
    with the higher mean cross similarity, until none is short or one segment is left."""
    segments = [list(seg) for seg in segments]
    while len(segments) > 1:
        short = [i for i, seg in enumerate(segments) if len(seg) < min_size]
        if not short:
            break
        i = short[0]
        left = float(similarity[np.ix_(segments[i - 1], segments[i])].mean()) if i > 0 else -np.inf
        right = float(similarity[np.ix_(segments[i], segments[i + 1])].mean()) if i < len(segments) - 1 else -np.inf
        j = i - 1 if left > right else i + 1
        lo, hi = min(i, j), max(i, j)
        segments[lo] = segments[lo] + segments[hi]
        del segments[hi]
    return segments


class GraphSeg:
    """GraphSeg's clique-based contiguous segmentation over sentence embeddings.

    Parameters
    ----------
    tau : relatedness threshold on cosine similarity (paper's Choi setting 0.2).
    min_size : minimal segment size n (paper: 1, i.e. no small-segment merging).
    variant : "paper" (published algorithm) or "graphseg-python" (the port's merging).
    """

    def __init__(self, tau: float = 0.2, min_size: int = 1, variant: str = "paper"):
        self.tau = tau
        self.min_size = min_size
        self.variant = variant

    def fit_predict(self, X) -> np.ndarray:
        """Return contiguous segment labels for the rows of ``X`` (sentences in order)."""
        X = check_embeddings(X)
        tau = self.tau
        if isinstance(tau, bool) or not isinstance(tau, (int, float, np.floating)) or not -1.0 <= tau <= 1.0:
            raise ValueError(f"tau must be a number in [-1, 1], got {tau!r}")
        if isinstance(self.min_size, bool) or not isinstance(self.min_size, (int, np.integer)) or self.min_size < 1:
            raise ValueError(f"min_size must be a positive integer, got {self.min_size!r}")
        if self.variant not in VARIANTS:
            raise ValueError(f"variant must be one of {VARIANTS}, got {self.variant!r}")
        similarity = cosine_similarity_matrix(X)
        self.cliques_ = maximal_cliques(similarity, float(tau))
        if self.variant == "paper":
            segments = paper_segments(self.cliques_, X.shape[0])
        else:
            segments = port_segments(self.cliques_, similarity)
        self.segments_ = merge_small_segments(segments, similarity, int(self.min_size))
        labels = np.empty(X.shape[0], dtype=np.intp)
        for j, seg in enumerate(self.segments_):
            labels[seg] = j
        self.labels_ = labels
        return labels
