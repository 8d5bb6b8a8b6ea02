"""Prototype: the number of runs chosen by sample splitting (fit on even units, score the odd ones, and back).

For each k the runs are found on one half of the units (the runs model's segmental programme, exact), each
run's mean is taken from that half, and the other half's units are scored by their squared distance to the mean
of the run they fall in; k* minimises the sum over both directions. No tuned number: the criterion is "the
count whose runs, found on half the sentences, best predict the other half". Compared with the default's
count and the gold count, the runs at each count being the runs model's (fit_runs given k).

    python research/2026-12-07-count-criterion/cv_count.py --sets choi-1 qmsum-train peps-train --limit 20
"""

from __future__ import annotations

import argparse
import warnings
from multiprocessing import Pool

import numpy as np
from sklearn.metrics import adjusted_rand_score

from bpseg_bench.bench_corpus import load_dataset
from bpseg_bench.runner import embed_documents, make_embedder
from bpseg_pgm.estimator import BPSeg
from bpseg_pgm.features.weights import unit_weights
from bpseg_pgm.policy import DEFAULT_POLICY as P
from bpseg_pgm.runs.model import fit_runs
from bpseg_pgm.runs.search import segmental_levels
from bpseg_pgm.utils.labels import n_runs
from bpseg_pgm.utils.validation import normalize_rows


def half_scores(X, w, fit_idx, score_idx, K):
    """Held-out squared error of the score_idx units for k = 1..K runs found on the fit_idx units."""
    levels = segmental_levels(X[fit_idx], w[fit_idx], K, policy=P)
    out = np.full(K + 1, np.inf)
    for k in range(1, min(K, levels.max_runs) + 1):
        if not np.isfinite(levels.costs[k]):
            continue
        starts = fit_idx[levels.starts(k)]  # in document positions
        lab_fit = np.searchsorted(starts, fit_idx, side="right") - 1
        lab_score = np.maximum(np.searchsorted(starts, score_idx, side="right") - 1, 0)
        Wf = w[fit_idx]
        means = np.zeros((k, X.shape[1]))
        np.add.at(means, lab_fit, Wf[:, None] * X[fit_idx])
        tot = np.bincount(lab_fit, weights=Wf, minlength=k)
        means /= np.maximum(tot, 1e-12)[:, None]
        d = X[score_idx] - means[lab_score]
        out[k] = float(np.sum(w[score_idx] * np.einsum("ij,ij->i", d, d)))
    return out


def cv_count(X, w, K):
    n = X.shape[0]
    even, odd = np.arange(0, n, 2), np.arange(1, n, 2)
    s = half_scores(X, w, even, odd, K) + half_scores(X, w, odd, even, K)
    return int(np.argmin(s)), s


def job(args):
    X, units, gold = args
    warnings.filterwarnings("ignore")
    X = normalize_rows(X)
    w = unit_weights(units, P.word_scale)
    n = len(units)
    keep = np.array([g is not None for g in gold])
    codes: dict = {}
    g = np.array([-1 if x is None else codes.setdefault(x, len(codes)) for x in gold])
    k_gold = n_runs(g[keep])
    K = max(2, min(n // 4, 3 * k_gold + 10, 120))
    k_cv, _ = cv_count(X - np.average(X, axis=0, weights=w), w, K)
    rows = {}
    default = BPSeg(random_state=0).fit(X, sample_weight=w).labels_
    for name, labels in (
        ("default", default),
        ("cv", fit_runs(X, w, k_cv, policy=P).labels),
        ("given k", fit_runs(X, w, k_gold, policy=P).labels),
    ):
        s = {"ari": adjusted_rand_score(g[keep], np.asarray(labels)[keep])}
        rows[name] = (float(s["ari"]), n_runs(labels) / k_gold)
    return rows


def main(argv=None):
    ap = argparse.ArgumentParser()
    ap.add_argument("--sets", nargs="+", default=["choi-1", "qmsum-train", "peps-train"])
    ap.add_argument("--limit", type=int, default=20)
    ap.add_argument("--jobs", type=int, default=2)
    a = ap.parse_args(argv)
    embedder = make_embedder(progress=False)
    for spec in a.sets:
        docs = load_dataset(spec, limit=a.limit)
        rows, _ = embed_documents(docs, embedder)
        with Pool(a.jobs) as pool:
            res = pool.map(job, [(X, list(d.units), list(d.labels)) for X, d in zip(rows, docs)])
        print(f"\n{spec} ({len(docs)} documents): method  mean ARI  median runs/gold")
        for name in res[0]:
            ari = np.mean([r[name][0] for r in res])
            ratio = np.median([r[name][1] for r in res])
            print(f"  {name:8s} {ari:.3f}  {ratio:.2f}")


if __name__ == "__main__":
    main()
