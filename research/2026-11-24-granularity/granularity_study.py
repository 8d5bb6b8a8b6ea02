"""How many runs? Candidate granularity rules of the runs model, per genre and leave-one-genre-out (issue 20).

For every document of the development sets (Choi set 1, QMSum train, PEPs train; section gold) the
runs model's programme is solved once for 1..K runs on the real document and on its block-shuffled
null (as ``fit_runs(..., "auto")`` does: same smoothing, same null, same candidates). Each rule then
only picks k, and the split into k runs is scored (ARI, Pk on the labelled units), beside equal blocks
and the programme with the gold number of runs. Rules:

* ``noise``: the noise-calibrated k, argmax_k of the real minus the null cost reduction (shipped as
  the fine level);
* ``excess rho``: the smallest k whose excess reduction reaches rho x its maximum (rho = 1 is ``noise``);
* ``span s``: the shipped rule with ``RUN_SCALE = s``: n / (run_span(effect) x correlation length),
  at most the noise-calibrated k (s = 3 is the default);
* ``n/corr``: one run per correlation length.

Leave-one-genre-out: for each family with a parameter, the parameter with the best mean ARI over two
genres is scored on the third. Only development data is read.

    python research/2026-11-24-granularity/granularity_study.py                 # ~2 min on 2 cores, embeddings cached
    python research/2026-11-24-granularity/granularity_study.py --limit 50      # quicker
"""

from __future__ import annotations

import argparse
import json
import time
from pathlib import Path

import numpy as np

GENRES = {
    "choi-1": "Choi set 1 (abrupt)",
    "qmsum-train": "QMSum train (meetings)",
    "peps-train": "PEPs train (sections)",
}
EXCESS = (0.5, 0.6, 0.7, 0.8, 0.9)
SPANS = (1.0, 1.5, 2.0, 3.0, 4.0)


def document_curves(X, w, seed=0):
    """What every rule needs for one document: the real levels, the null's best costs, the statistics."""
    from bpseg_pgm.policy import DEFAULT_POLICY as P
    from bpseg_pgm.runs.effects import median_boundary_effect
    from bpseg_pgm.runs.model import auto_max_runs, null_documents
    from bpseg_pgm.runs.search import null_costs, segmental_levels
    from bpseg_pgm.runs.statistics import persistence_halflife, policy_correlation_length, smoothed_embeddings

    n = X.shape[0]
    halflife = persistence_halflife(X)
    corr = policy_correlation_length(X, w, P)
    width = P.smoothing * halflife
    F = smoothed_embeddings(X, width, w, min_width=P.smoothing_min_width)
    levels = segmental_levels(F, w, auto_max_runs(n, corr, P.auto_max_runs), policy=P)
    K = levels.max_runs
    null = null_costs(null_documents(X, w, width, P.null_block * halflife, seed, policy=P), K, policy=P)
    real_gain, null_gain = levels.costs[1] - levels.costs[1:], null[1] - null[1:]
    excess = np.where(np.isfinite(real_gain) & np.isfinite(null_gain), real_gain - null_gain, -np.inf)
    k_noise = 1 + int(np.argmax(excess))
    effect = median_boundary_effect(X, w, levels.labels(k_noise)) if k_noise > 1 else float("nan")
    return {"levels": levels, "excess": excess, "k_noise": k_noise, "corr": corr, "effect": effect, "n": n}


def rules():
    from bpseg_pgm.decisions.structure import run_span
    from bpseg_pgm.policy import DEFAULT_POLICY

    out = {"noise": ("noise", None, lambda c: c["k_noise"])}
    for rho in EXCESS:
        out[f"excess {rho}"] = (
            "excess",
            rho,
            lambda c, rho=rho: 1 + int(np.flatnonzero(c["excess"] >= rho * c["excess"].max())[0]),
        )
    for s in SPANS:

        def span(c, s=s):
            e = c["effect"]
            sp = run_span(e, policy=DEFAULT_POLICY.replace(run_scale=s)) if np.isfinite(e) else 1.0
            return int(np.clip(round(c["n"] / (sp * c["corr"])), 1, c["k_noise"]))

        out[f"span {s:g}"] = ("span", s, span)
    out["n/corr"] = ("n/corr", None, lambda c: int(round(c["n"] / c["corr"])))
    return out


def main(argv=None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--limit", type=int, default=None)
    parser.add_argument("--out", default="research/2026-11-24-granularity/results/granularity_study")
    args = parser.parse_args(argv)

    from bpseg_bench.bench_corpus import load_dataset
    from bpseg_bench.runner import embed_documents, make_embedder
    from bpseg_pgm.evaluation.metrics import evaluate_partial
    from bpseg_pgm.features.weights import unit_weights
    from bpseg_pgm.policy import DEFAULT_POLICY
    from bpseg_pgm.utils.labels import n_runs
    from bpseg_pgm.utils.validation import normalize_rows

    table = rules()
    scores: dict[str, dict[str, list]] = {}
    t0 = time.time()
    for genre in GENRES:
        docs = load_dataset(genre, limit=args.limit)
        Xs, _ = embed_documents(docs, make_embedder(progress=False))
        per = scores.setdefault(genre, {})
        for doc, X in zip(docs, Xs):
            X = normalize_rows(np.asarray(X, dtype=np.float64))
            w = unit_weights(doc.units, DEFAULT_POLICY.word_scale)
            c = document_curves(X, w)
            gold_runs = n_runs(doc.gold)
            picks = {name: rule(c) for name, (_, _, rule) in table.items()}
            picks["gold k"] = gold_runs
            for name, k in picks.items():
                k = int(np.clip(k, 1, c["levels"].max_runs))
                s = evaluate_partial(doc.labels, c["levels"].labels(k))
                per.setdefault(name, []).append((s["ari"], s["pk"], k / gold_runs))
            n = len(doc)
            blocks = np.minimum(np.arange(n) * gold_runs // n, gold_runs - 1)
            s = evaluate_partial(doc.labels, blocks)
            per.setdefault("equal blocks, gold k", []).append((s["ari"], s["pk"], 1.0))
            s = evaluate_partial(doc.labels, np.zeros(n, dtype=np.int64))
            per.setdefault("one segment", []).append((s["ari"], s["pk"], 1.0 / gold_runs))
        print(f"{genre}: {len(docs)} documents, {time.time() - t0:.0f} s", flush=True)

    summary = {
        g: {
            m: {
                "ari": float(np.mean([v[0] for v in vals])),
                "pk": float(np.mean([v[1] for v in vals])),
                "k_per_gold_median": float(np.median([v[2] for v in vals])),
                "docs": len(vals),
            }
            for m, vals in per.items()
        }
        for g, per in scores.items()
    }
    logo = {}
    for family in ("excess", "span"):
        names = [m for m, (f, _, _) in table.items() if f == family]
        for held in GENRES:
            others = [g for g in GENRES if g != held]
            best = max(names, key=lambda m: np.mean([summary[g][m]["ari"] for g in others]))
            logo.setdefault(family, {})[held] = {"chosen": best, **summary[held][best]}

    lines = [
        "# Granularity rules of the runs model (development sets)",
        "",
        f"Command: `python research/2026-11-24-granularity/granularity_study.py{'' if args.limit is None else f' --limit {args.limit}'}`. "
        f"Machine: 2-core AMD EPYC, shared. {time.time() - t0:.0f} s. Runs model only (no topic model): the "
        "programme's best split into k runs, k picked by each rule. Pk: lower is better; k/gold: median over documents.",
        "",
        "| rule | " + " | ".join(f"{GENRES[g]} ARI / Pk / k/gold" for g in GENRES) + " |",
        "|---|" + "---|" * len(GENRES),
    ]
    for m in [*table, "gold k", "equal blocks, gold k", "one segment"]:
        cells = [
            f"{summary[g][m]['ari']:.3f} / {summary[g][m]['pk']:.3f} / {summary[g][m]['k_per_gold_median']:.2f}"
            for g in GENRES
        ]
        lines.append(f"| {m} | " + " | ".join(cells) + " |")
    lines += [
        "",
        "Leave one genre out (parameter chosen on the other two by mean ARI, scored on the held-out genre):",
        "",
        "| family | " + " | ".join(f"held out: {GENRES[g]}" for g in GENRES) + " |",
        "|---|" + "---|" * len(GENRES),
    ]
    for family, held in logo.items():
        cells = [
            f"{held[g]['chosen']}: {held[g]['ari']:.3f} / {held[g]['pk']:.3f} / {held[g]['k_per_gold_median']:.2f}"
            for g in GENRES
        ]
        lines.append(f"| {family} | " + " | ".join(cells) + " |")
    out = Path(args.out)
    out.parent.mkdir(parents=True, exist_ok=True)
    out.with_suffix(".md").write_text("\n".join(lines) + "\n", encoding="utf-8")
    out.with_suffix(".json").write_text(
        json.dumps({"summary": summary, "leave_one_genre_out": logo}, indent=1), encoding="utf-8"
    )
    print("\n".join(lines))


if __name__ == "__main__":
    main()
