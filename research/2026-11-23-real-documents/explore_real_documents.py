"""Candidate models for real documents (issue 11), measured on the development sets only.

Each candidate maps (document, embeddings) to labels; every candidate is scored with
``evaluate_partial`` (labelled units only) on QMSum train, Choi set 1 and the set-1
interleaved documents. This is the script behind RESULTS.md §7's candidate table (now docs/research/real-documents.md):

    python research/2026-11-23-real-documents/explore_real_documents.py --datasets qmsum-train choi-1 interleaved \
        --candidates sticky sticky-true-k kcpd-smooth-true-k dp-unit-null dp-block-null \
        dp-block-null-2 dp-explained centered-chain dp-ward

Candidates (parameters as measured; see RESULTS §7 for the numbers):

* ``sticky``: a "sticky" Potts chain (labels = topics that may return): unary s cos(R_i, C_x),
  -beta for a label change between neighbours, exact chain BP, EM with merging (cos >= 0.9),
  k from ceil(2 sqrt n) farthest-point representatives; ``sticky-true-k``: k = gold topics,
  embeddings smoothed over a Gaussian of 40 units.
* ``kcpd-smooth-true-k``: ruptures KernelCPD (linear kernel) with the gold number of runs on
  word-weighted, half-life-smoothed embeddings (the features of ``BPSeg(structure="runs")``).
* ``dp-*``: the exact segmental programme of ``BPSeg(structure="runs")`` with k chosen by a
  null: single units shuffled, blocks of one or two half-lives shuffled, or the smallest k
  explaining half of the reduction 20 segments give.
* ``centered-chain``: the library's centred Potts default plus a chain coupling -5 between
  neighbours (``CenteredPottsPotentials`` subclass).
* ``dp-ward``: ``dp-unit-null`` followed by Ward merging of any two runs (adjacent or not)
  whose merge costs less than the null's gain for one more segment (returning topics).
"""

from __future__ import annotations

import argparse
import sys
import time
from multiprocessing import Pool

import numpy as np

from bpseg_bench.bench_corpus import load_dataset
from bpseg_pgm.estimator import BPSeg
from bpseg_pgm.evaluation.metrics import evaluate_partial, n_runs
from bpseg_pgm.features.weights import unit_weights
from bpseg_pgm.policy import DEFAULT_POLICY as P
from bpseg_pgm.potentials import CenteredPottsPotentials
from bpseg_pgm.runs.chain import chain_potts_bp
from bpseg_pgm.runs.costs import cost_matrix, segment_costs
from bpseg_pgm.runs.null import block_permutation, noise_calibrated_k
from bpseg_pgm.runs.search import backtrack
from bpseg_pgm.runs.statistics import persistence_halflife, smoothed_embeddings
from bpseg_pgm.text import Embedder
from bpseg_pgm.topics.reestimate import merge_similar
from bpseg_pgm.topics.representatives import farthest_point
from bpseg_pgm.utils.validation import normalize_rows


def sticky(X, k0=None, width=0.0, beta=10.0, scale=10.0, rounds=10, merge=0.9, min_mass=0.5):
    n = len(X)
    R = smoothed_embeddings(X, width, min_width=P.smoothing_min_width)
    k0 = k0 or min(n, 40, int(np.ceil(2 * np.sqrt(n))))
    C = R[farthest_point(R, k0)]
    for r in range(rounds + 1):
        S = R @ C.T
        post = chain_potts_bp(scale * (S - S.mean()), -beta).beliefs
        if r == rounds:
            break
        M = (post.T @ R)[post.sum(0) >= min_mass]
        if merge is not None and len(M) > 1:
            M = merge_similar(M, merge)
        C_new = normalize_rows(M)
        if C_new.shape == C.shape and np.abs(C_new - C).max() < 1e-6:
            break
        C = C_new
    return post.argmax(1)


def features(doc, X, smoothing=0.3):
    W = unit_weights(doc.units, P.word_scale)
    h = persistence_halflife(X)
    return smoothed_embeddings(X, smoothing * h, W, min_width=P.smoothing_min_width), W, h


def dp(doc, X, null="block", block=1.0, shuffles=1, knee=None):
    F, W, h = features(doc, X)
    n = len(X)
    K = min(20, n // 2)
    costs, arg = segment_costs(cost_matrix(F, W), K)
    if null == "explained":
        red = (costs[1] - costs[1:]) / (costs[1] - costs[K])
        return backtrack(arg, 1 + int(np.argmax(red >= 0.5)), n), None
    rng = np.random.default_rng(0)
    nulls = []
    for _ in range(shuffles):
        p = rng.permutation(n) if null == "unit" else block_permutation(n, block * h, rng)
        nulls.append(
            segment_costs(
                cost_matrix(smoothed_embeddings(X[p], 0.3 * h, W[p], min_width=P.smoothing_min_width), W[p]), K
            )[0]
        )
    s_costs = np.mean(nulls, axis=0)
    k = noise_calibrated_k(costs, s_costs)
    if knee is not None:  # the smallest k with at least ``knee`` of the best gain over the null
        g = (costs[1] - costs[1:]) - (s_costs[1] - s_costs[1:])
        k = 1 + int(np.argmax(g >= knee * g.max())) if g.max() > 0 else 1
    gain = s_costs[k - 1] - s_costs[k] if k < K else 0.0
    return backtrack(arg, k, n), (F, W, gain)


def ward(F, W, labels, threshold):
    k = labels.max() + 1
    S = [(F[labels == j] * W[labels == j, None]).sum(0) for j in range(k)]
    M = [W[labels == j].sum() for j in range(k)]
    group, active = list(range(k)), list(range(k))
    while len(active) > 1:
        best = min(
            ((M[i] * M[j] / (M[i] + M[j]) * np.sum((S[i] / M[i] - S[j] / M[j]) ** 2), i, j)
             for a, i in enumerate(active) for j in active[a + 1:]),
        )  # fmt: skip
        if best[0] >= threshold:
            break
        _, i, j = best
        S[i], M[i] = S[i] + S[j], M[i] + M[j]
        active.remove(j)
        group = [i if g == j else g for g in group]
    return np.unique(np.array(group), return_inverse=True)[1][labels]


def merge_adjacent(F, W, labels, rho, ward=True):
    """Merge adjacent runs, weakest boundary first (Ward cost), while the weakest costs less
    than ``rho`` times the strongest boundary of the fine segmentation."""
    S = {j: (F[labels == j] * W[labels == j, None]).sum(0) for j in np.unique(labels)}
    M = {j: W[labels == j].sum() for j in np.unique(labels)}
    order = [int(j) for j in np.unique(labels)]

    def cost(a, b):
        d = np.sum((S[a] / M[a] - S[b] / M[b]) ** 2)
        return M[a] * M[b] / (M[a] + M[b]) * d if ward else d

    costs = [cost(a, b) for a, b in zip(order, order[1:])]
    if not costs:
        return labels
    limit = rho * max(costs)
    group = {j: j for j in order}
    while len(order) > 1:
        costs = [cost(a, b) for a, b in zip(order, order[1:])]
        i = int(np.argmin(costs))
        if costs[i] >= limit:
            break
        a, b = order[i], order[i + 1]
        S[a], M[a] = S[a] + S[b], M[a] + M[b]
        order.pop(i + 1)
        for j, g in group.items():
            if g == b:
                group[j] = a
    out = np.array([group[int(j)] for j in labels])
    return np.unique(out, return_inverse=True)[1]


class ChainCentered(CenteredPottsPotentials):
    def __init__(self, beta=5.0):
        super().__init__()
        self.beta = beta

    def log_coupling(self, X, rows, cols):
        return super().log_coupling(X, rows, cols) - self.beta * (np.abs(np.asarray(cols) - np.asarray(rows)) == 1)


def structure_stats(doc, X):
    """What ``structure="auto"`` is built on (RESULTS §7): the document's median boundary effect,
    its gold boundaries' effects, correlation length against the gold run length, and the
    segmental programme's ARI / Pk / runs per gold run for several rules giving k."""
    from bpseg_pgm.decisions import choose_structure
    from bpseg_pgm.runs import boundary_effects, fit_runs
    from bpseg_pgm.runs.statistics import policy_correlation_length

    Xn = normalize_rows(X)
    W = unit_weights(doc.units, P.word_scale)
    n = len(X)
    found = choose_structure(Xn, W, "auto", policy=P)
    idx = np.flatnonzero(doc.labelled)
    gold_runs = np.zeros(n, dtype=int)
    gold_runs[idx] = np.concatenate([[0], np.cumsum(np.diff(doc.gold) != 0)])
    for i in range(1, n):  # unlabelled units join the run before them
        if not doc.labelled[i]:
            gold_runs[i] = gold_runs[i - 1]
    gold_k = n_runs(doc.gold)
    corr = policy_correlation_length(Xn, W, P)
    fine_k = int(fit_runs(Xn, W, "auto").labels.max()) + 1
    F, _, _ = features(doc, X)
    costs, arg = segment_costs(cost_matrix(F, W), max(1, min(40, n // 2)))
    K = len(costs) - 1
    rules = {
        "gold runs": gold_k,
        "noise k / 3": fine_k / 3,
        "noise k / 4": fine_k / 4,
        "n / (2.5 corr)": n / (2.5 * corr),
        f"n / ({P.run_scale:g} corr)": n / (P.run_scale * corr),
        "n / (4 corr)": n / (4 * corr),
        "fixed 4": 4,
        "fixed 5": 5,
        "fixed 6": 6,
        "0.6 n^(1/3)": 0.6 * n ** (1 / 3),
    }
    scores = {}
    for rule, k in rules.items():
        k = int(np.clip(round(k), 1, K))
        scores[rule] = evaluate_partial(doc.labels, backtrack(arg, k, n))
    return {
        "effect": found.effect,
        "gold_effects": boundary_effects(Xn, W, gold_runs),
        "corr_ratio": (len(doc.gold) / gold_k) / corr * n / len(doc.gold),
        "scores": scores,
    }


def print_structure(datasets) -> None:
    for ds in datasets:
        rows = [structure_stats(doc, np.asarray(X, dtype=np.float64)) for doc, X in _DOCS[ds]]
        eff = np.array([r["effect"] for r in rows])
        gold = np.concatenate([r["gold_effects"] for r in rows])
        print(
            f"{ds}: median boundary effect per document 5/50/95%: "
            f"{' / '.join(f'{q:.2f}' for q in np.nanquantile(eff, [0.05, 0.5, 0.95]))}; "
            f"gold boundaries 10/25/50%: {' / '.join(f'{q:.3f}' for q in np.nanquantile(gold, [0.1, 0.25, 0.5]))}; "
            f"gold run length / correlation length (median): {np.median([r['corr_ratio'] for r in rows]):.2f}"
        )
        for rule in rows[0]["scores"]:
            m = {k: float(np.nanmean([r["scores"][rule][k] for r in rows])) for k in ("ari", "pk", "runs_per_segment")}
            print(f"  k from {rule}: ARI {m['ari']:.3f} Pk {m['pk']:.3f} runs per gold {m['runs_per_segment']:.2f}")


def run_candidate(name, doc, X):
    if name == "sticky":
        return sticky(X)
    if name == "sticky-true-k":
        return sticky(X, k0=doc.n_segments, width=40.0, merge=None, min_mass=0.0)
    if name == "kcpd-smooth-true-k":
        import ruptures

        F, _, _ = features(doc, X)
        bkps = ruptures.KernelCPD(kernel="linear", min_size=2).fit(F).predict(n_bkps=n_runs(doc.gold) - 1)
        labels = np.zeros(len(X), dtype=int)
        for j, b in enumerate(bkps[:-1]):
            labels[b:] = j + 1
        return labels
    if name == "dp-unit-null":
        return dp(doc, X, "unit")[0]
    if name == "dp-block-null":
        return dp(doc, X, "block", 1.0)[0]
    if name == "dp-block-null-2":
        return dp(doc, X, "block", 2.0)[0]
    if name.startswith("dp-knee-"):
        return dp(doc, X, "block", 1.0, shuffles=4, knee=float(name.split("-")[-1]))[0]
    if name == "dp-explained":
        return dp(doc, X, "explained")[0]
    if name == "dp-ward":
        labels, (F, W, gain) = dp(doc, X, "unit")
        return ward(F, W, labels, gain) if labels.max() > 0 else labels
    if name.startswith("dp-mergedist-"):
        labels, (F, W, _) = dp(doc, X, "block", 1.0, shuffles=4)
        return merge_adjacent(F, W, labels, float(name.split("-")[-1]), ward=False)
    if name.startswith("dp-merge-"):
        labels, (F, W, _) = dp(doc, X, "block", 1.0, shuffles=4)
        return merge_adjacent(F, W, labels, float(name.split("-")[-1]))
    if name == "centered-chain":
        return BPSeg(potentials=ChainCentered(5.0), em_rounds=5).fit_predict(X)
    raise ValueError(f"unknown candidate {name!r}")


CANDIDATES = (
    "sticky",
    "sticky-true-k",
    "kcpd-smooth-true-k",
    "dp-unit-null",
    "dp-block-null",
    "dp-block-null-2",
    "dp-explained",
    "centered-chain",
    "dp-ward",
    "dp-knee-0.6",
    "dp-knee-0.75",
    "dp-knee-0.9",
    "dp-merge-0.1",
    "dp-merge-0.2",
    "dp-merge-0.35",
    "dp-mergedist-0.3",
    "dp-mergedist-0.5",
    "dp-mergedist-0.7",
)
_DOCS: dict = {}


def _one(args):
    ds, i, name = args
    doc, X = _DOCS[ds][i]
    return evaluate_partial(doc.labels, run_candidate(name, doc, np.asarray(X, dtype=np.float64)))


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--datasets", nargs="+", default=["qmsum-train", "choi-1", "interleaved"])
    ap.add_argument("--candidates", nargs="+", default=list(CANDIDATES), choices=CANDIDATES)
    ap.add_argument("--limit", type=int, help="documents per dataset")
    ap.add_argument("--workers", type=int, default=2)
    ap.add_argument(
        "--structure",
        action="store_true",
        help="print the statistics behind structure='auto' instead of the candidate table",
    )
    args = ap.parse_args(argv)
    emb = Embedder(show_progress=False)
    for ds in args.datasets:
        docs = load_dataset(ds, limit=args.limit)
        vectors = emb.encode([u for d in docs for u in d.units])
        offsets = np.cumsum([0] + [len(d) for d in docs])
        _DOCS[ds] = [(d, vectors[offsets[i] : offsets[i + 1]]) for i, d in enumerate(docs)]
    if args.structure:
        print_structure(args.datasets)
        return 0
    print("| candidate | " + " | ".join(f"{ds} ARI / Pk / runs per gold / segs" for ds in args.datasets) + " | s |")
    print("|---|" + "---|" * (len(args.datasets) + 1))
    with Pool(args.workers) as pool:
        for name in args.candidates:
            t0 = time.perf_counter()
            cells = []
            for ds in args.datasets:
                rows = pool.map(_one, [(ds, i, name) for i in range(len(_DOCS[ds]))])
                mean = {
                    k: float(np.nanmean([r[k] for r in rows]))
                    for k in ("ari", "pk", "runs_per_segment", "segments_found")
                }
                cells.append(
                    f"{mean['ari']:.3f} / {mean['pk']:.3f} / {mean['runs_per_segment']:.2f} / {mean['segments_found']:.1f}"
                )
            print(f"| {name} | " + " | ".join(cells) + f" | {time.perf_counter() - t0:.0f} |", flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
