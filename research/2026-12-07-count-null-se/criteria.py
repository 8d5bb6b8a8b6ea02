"""Count criteria on the runs model's own levels, per development genre (issue 51).

For each document: the default fit (``BPSeg()``, the unit weights and words the text pipeline gives), the
noise-calibrated runs its structure decision cut (``choose_structure``'s ``fine`` fit: the best split into every
k up to the cap), the ARI of each k's runs against the gold, and ``B`` block-shuffled null documents made as the
library makes them (``Policy.null_block`` half-lives a block), each cut by the same segmental programme. The
gain of k runs over the nulls is G(k) = (C(1) - C(k)) - mean_b (C_b(1) - C_b(k)), s(k) the nulls' standard
deviation of that gain (x sqrt(1 + 1/B)). Criteria, each a count per document:

* ``default``: what the library chose (its runs on the labelled units);
* ``argmax``: the k of the largest gain (the noise-calibrated count, ``fine``);
* ``1-SE``: the fewest runs whose gain is within one standard error of the largest (Breiman's rule);
* ``gap``: Tibshirani's gap rule, the first k with G(k) >= G(k+1) - s(k+1);
* ``knee``: Kneedle on the real gain C(1) - C(k) over k = 1..K;
* ``L``: the L-method (two straight lines) on the real gain;
* ``oracle``: the k of the best ARI, chosen with the gold.

Also reported: where the gold count lies on the gain curve (G(gold) / max G, and (max G - G(gold)) / s).
"""

from __future__ import annotations

import argparse
import time

import numpy as np

import bpseg_pgm.decisions.procedure as procedure
from bpseg_bench.count_table import load_sets
from bpseg_bench.runner import embed_documents, make_embedder
from bpseg_pgm.estimator import BPSeg
from bpseg_pgm.evaluation.metrics import evaluate_partial, n_runs
from bpseg_pgm.features.units import Units
from bpseg_pgm.policy import DEFAULT_POLICY
from bpseg_pgm.runs.cost_registry import check_cost
from bpseg_pgm.runs.null import block_permutation
from bpseg_pgm.runs.search import padded_costs, segmental_levels
from bpseg_pgm.runs.statistics import persistence_halflife, smoothed_embeddings

SETS = ("choi-1", "qmsum-train", "peps-train", "lessonlink-train", "tinyrec-coarse", "tinyrec-fine")


def capture():
    """Wrap the structure decision so that each fit leaves its inputs and its noise-calibrated runs behind."""
    seen = {}
    original = procedure.choose_structure

    def wrapped(X, w, n_segments, **kw):
        found = original(X, w, n_segments, **kw)
        seen.update(found=found, X=X, w=w, kw=kw)
        return found

    procedure.choose_structure = wrapped
    return seen


def null_costs(X, w, K, B, kw, policy, seed=0):
    """(B, K + 1) best costs of B block-shuffled copies of the document, cut as the decision cuts it."""
    n, hl = X.shape[0], persistence_halflife(X)
    rng = np.random.default_rng(seed)
    search = {
        "max_candidates": policy.max_candidates,
        "policy": policy,
        "cost": check_cost(kw["cost"]),
        "starts": kw["starts"],
    }
    rows = []
    for _ in range(B):
        p = block_permutation(n, policy.null_block * hl, rng)
        F = smoothed_embeddings(X[p], policy.smoothing * hl, w[p], min_width=policy.smoothing_min_width)
        rows.append(padded_costs(segmental_levels(F, w[p], K, **search).costs, K))
    return np.array(rows)


def kneedle(y):
    x = np.linspace(0.0, 1.0, len(y))
    yn = (y - y.min()) / max(float(y.max() - y.min()), 1e-12)
    return 1 + int(np.argmax(yn - x))


def l_method(y):
    x = np.arange(1, len(y) + 1, dtype=float)
    best, k = np.inf, 1
    for c in range(2, len(y) - 1):
        err = 0.0
        for xs, ys in ((x[:c], y[:c]), (x[c:], y[c:])):
            fit = np.polyfit(xs, ys, 1)
            err += float(np.sum((np.polyval(fit, xs) - ys) ** 2))
        if err < best:
            best, k = err, c
    return k


def criteria(costs, nulls):
    K = nulls.shape[1] - 1
    real = costs[1] - costs[1 : K + 1]
    gains = nulls[:, [1]] - nulls[:, 1 : K + 1]
    G = real - gains.mean(0)
    G = np.where(np.isfinite(G), G, np.nanmin(G[np.isfinite(G)]))
    s = gains.std(0, ddof=1) * np.sqrt(1 + 1 / nulls.shape[0])
    a = int(np.argmax(G))
    gap = next((k for k in range(1, K) if G[k - 1] >= G[k] - s[k]), K)
    out = {"argmax": a + 1, "1-SE": 1 + int(np.argmax(G >= G[a] - s[a])), "gap": gap, "knee": kneedle(real)}
    out["L"] = l_method(real) if K > 3 else K
    return out, G, s


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--sets", nargs="+", default=list(SETS))
    ap.add_argument("--limit", type=int, default=None, help="documents per set (default: all)")
    ap.add_argument("--shuffles", type=int, default=8, help="null documents per document (B)")
    ap.add_argument("-o", "--output", default=None, help="also write the table to this file")
    args = ap.parse_args(argv)
    seen = capture()
    embedder = make_embedder(progress=False)
    policy = DEFAULT_POLICY
    names = ["default", "argmax", "1-SE", "gap", "knee", "L", "oracle"]
    lines = [
        "| set | docs | "
        + " | ".join(f"{m} ARI | {m} runs/gold" for m in names)
        + " | G(gold)/max G | SEs below max |",
        "|---|---:|" + "---:|" * (2 * len(names) + 2),
    ]
    t0 = time.perf_counter()
    for name, docs in load_sets(args.sets, limit=args.limit).items():
        vectors, _ = embed_documents(docs, embedder)
        ari = {m: [] for m in names}
        ratio = {m: [] for m in names}
        frac, z = [], []
        for doc, X in zip(docs, vectors):
            seen.clear()
            units = Units.from_sentences(doc.units, embeddings=X, words=True)
            labels = np.asarray(BPSeg().fit_predict(units))
            found = seen.get("found")
            if found is None or found.fine is None:
                continue  # headings decided, or no reading-order runs at all
            gold = n_runs(doc.gold)
            fine = found.fine
            K = fine.levels.max_runs
            per_k = [evaluate_partial(doc.labels, fine.at(k).labels)["ari"] for k in range(1, K + 1)]
            counts, G, s = criteria(
                np.asarray(fine.levels.costs), null_costs(seen["X"], seen["w"], K, args.shuffles, seen["kw"], policy)
            )
            counts["oracle"] = 1 + int(np.argmax(per_k))
            ari["default"].append(evaluate_partial(doc.labels, labels)["ari"])
            ratio["default"].append(n_runs(labels[doc.labelled]) / gold)
            for m, k in counts.items():
                ari[m].append(per_k[k - 1])
                ratio[m].append(k / gold)
            g = min(gold, K) - 1
            frac.append(G[g] / G.max())
            z.append((G.max() - G[g]) / max(s[int(np.argmax(G))], 1e-12))
        cells = " | ".join(f"{np.mean(ari[m]):.3f} | {np.median(ratio[m]):.2f}" for m in names)
        lines.append(f"| {name} | {len(frac)} | {cells} | {np.median(frac):.2f} | {np.median(z):.1f} |")
        print(lines[-1], flush=True)
    lines.append("")
    lines.append(
        f"ARI: mean over documents; runs/gold: median predicted runs per gold run. Wall {time.perf_counter() - t0:.0f} s."
    )
    if args.output:
        with open(args.output, "w", encoding="utf-8") as fh:
            fh.write("\n".join(lines) + "\n")
    print("\n".join(lines))


if __name__ == "__main__":
    main()
