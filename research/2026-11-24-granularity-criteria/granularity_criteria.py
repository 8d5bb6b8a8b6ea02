"""Issue 20's untried directions for the number of segments, measured beside the default (development data only).

The issue names four directions for an automatic granularity: model evidence with a calibrated penalty, boundary
significance, stability across resamples, lexical cohesion. Evidence and cohesion are in the default (RESULTS sections
14-15); this script measures the others, and two ways past the default's ceiling, on the runs path (the runs the
default places: its segmentation of gradual text, the topic model's fallback on abrupt text):

* ``default``: the runs as ``choose_structure`` gives them (span rule, raised by the words' evidence up to the
  noise-calibrated k; boundaries placed by embeddings and words);
* ``evidence to cap``: the words' evidence (b = 3) weighed up to the top of the runs programme's levels (at least 30,
  one per correlation length on longer text) instead of the noise-calibrated k;
* ``significance t``: the largest level (up to the same top) at which every boundary is supported by its words:
  the log Bayes factor of the two runs beside it against their merge (symmetric DCM, the level's own alpha) above t;
* ``merge t``: the default's runs, the adjacent pair of least Bayes factor merged while it is below t;
* ``stability``: the level k >= 2 whose runs best survive dropping a fifth of the units (mean ARI of the level's
  labels on the kept units over 3 seeded resamples), less the same on the block-shuffled document;
* ``recursion``: the default again inside each run of at least 20 units, where that run is judged gradual;
* ``refined b``: the count the words give inside the default's runs: each run of at least 20 units is cut into the
  level of its own runs programme (1 to its noise-calibrated k) whose words' evidence, less b x log C(m - 1, k - 1)
  for its m units, is highest (each run its own alpha and its own placement penalty); the runs so counted are then
  placed over the whole document as the default places its own.

Every level's boundaries are then placed with the words as the default places its own. Sets: Choi set 1, QMSum
train, PEPs train (sections and sub-sections), and long texts of 2 or 5 PEPs train documents and 3 QMSum train
meetings (30 each, seeded; scored against sections, sub-sections and the documents). The thresholds are chosen
leave-one-genre-out on the single documents (Choi, meetings, PEPs as the mean of its two annotations).

    python research/2026-11-24-granularity-criteria/granularity_criteria.py              # ~6 min on 2 cores, embeddings cached
    python research/2026-11-24-granularity-criteria/granularity_criteria.py --limit 20   # quicker: 20 documents or texts per set

Outputs: ``research/2026-11-24-granularity-criteria/results/granularity_criteria.{md,json}`` (``--out`` changes the stem).
"""

from __future__ import annotations

import json
import os
import platform
import sys
import time
import warnings
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))  # research/, for common.py
from common import build_texts, options  # noqa: E402

SIGNIFICANCE = (0.0, 3.0, 10.0)
MERGE = (0.0, 2.0, 5.0, 10.0)
REFINE = (3.0, 6.0, 10.0)
RESAMPLES = 3
MIN_RECURSE = 20
SINGLE = (("choi-1", "Choi"), ("qmsum-train", "meetings"), ("peps-train", "PEPs"))
LONG = (("peps-train", 2), ("peps-train", 5), ("qmsum-train", 3))


def boundary_factors(C, labels: np.ndarray) -> np.ndarray:
    """Log Bayes factor of each boundary of ``labels`` (runs 0..k-1): the two runs beside it apart against merged,
    at the alpha that maximises the split's evidence (each run's evidence is ``runs.evidence``'s, one row at a time)."""
    import scipy.sparse as sp

    from bpseg_pgm.runs.evidence import dcm_log_evidence, ml_alpha

    n = C.shape[0]
    k = int(labels.max()) + 1
    if k < 2:
        return np.zeros(0)
    alpha, _ = ml_alpha(C, labels)
    S = (sp.csr_matrix((np.ones(n), (labels, np.arange(n))), shape=(k, n)) @ C).tocsr()
    single = np.array([dcm_log_evidence(S[j], alpha) for j in range(k)])
    joined = np.array([dcm_log_evidence(S[j] + S[j + 1], alpha) for j in range(k - 1)])
    return single[:-1] + single[1:] - joined


def merged(C, labels: np.ndarray, tau: float) -> np.ndarray:
    labels = labels.copy()
    while labels.max() >= 1:
        bf = boundary_factors(C, labels)
        j = int(np.argmin(bf))
        if bf[j] >= tau:
            break
        labels[labels > j] -= 1
    return labels


def stability(X, w, levels, ks, rng) -> dict[int, float]:
    from sklearn.metrics import adjusted_rand_score

    from bpseg_pgm.runs.model import fit_runs

    n = X.shape[0]
    out: dict[int, list] = {k: [] for k in ks}
    for _ in range(RESAMPLES):
        keep = np.sort(rng.choice(n, int(round(0.8 * n)), replace=False))
        sub = fit_runs(X[keep], w[keep], max(1, min(levels.max_runs, keep.size // 2)), 0).levels
        for k in ks:
            if k <= sub.max_runs and np.isfinite(sub.costs[k]):
                out[k].append(adjusted_rand_score(levels.labels(k)[keep], sub.labels(k)))
    return {k: float(np.mean(v)) for k, v in out.items() if v}


def candidates(X, w, units) -> dict[str, np.ndarray] | None:
    from bpseg_pgm.decisions.structure import choose_structure
    from bpseg_pgm.features.words import unit_word_counts
    from bpseg_pgm.policy import DEFAULT_POLICY as P
    from bpseg_pgm.runs.evidence import check_word_counts, evidence_runs
    from bpseg_pgm.runs.model import fit_runs
    from bpseg_pgm.runs.null import block_permutation
    from bpseg_pgm.runs.statistics import persistence_halflife
    from bpseg_pgm.utils.labels import run_bounds

    n = len(units)
    C = check_word_counts(unit_word_counts(units), n)
    found = choose_structure(X, w, "auto", 0, word_counts=C, policy=P)
    if found.fit is None:
        return None
    fine = found.fine
    top = fine.levels.max_runs
    ks = [k for k in range(1, top + 1) if np.isfinite(fine.levels.costs[k])]

    def at(k: int) -> np.ndarray:
        return np.asarray(fine.at(int(k)).with_words(C, P.word_weight).labels)

    base = np.asarray(found.fit.labels)
    out = {"default": base}
    if found.k_span is not None:
        out["evidence to cap"] = at(
            evidence_runs(C, fine.levels, found.k_span, top, P.evidence_penalty, P.max_evidence_levels)[0]
        )
    else:  # k given by the long-abrupt path: nothing for the evidence to choose
        out["evidence to cap"] = base
    factors = {k: boundary_factors(C, fine.levels.labels(k)) for k in ks}
    for t in SIGNIFICANCE:
        good = [k for k in ks if k == 1 or factors[k].min() > t]
        out[f"significance {t:g}"] = at(max(good))
    for t in MERGE:
        out[f"merge {t:g}"] = merged(C, base, t)
    several = [k for k in ks if k >= 2]
    if several:
        real = stability(X, w, fine.levels, several, np.random.default_rng(0))
        p = block_permutation(n, persistence_halflife(X), np.random.default_rng(1))
        null_levels = fit_runs(X[p], w[p], top, 0).levels
        null = stability(
            X[p], w[p], null_levels, [k for k in several if k <= null_levels.max_runs], np.random.default_rng(0)
        )
        scored = [k for k in real if k in null]
        out["stability"] = at(max(scored, key=lambda k: (real[k] - null[k], -k))) if scored else base
    else:
        out["stability"] = base
    rec = np.zeros(n, dtype=np.int64)
    nxt = 0
    bounds = run_bounds(base)
    for a, b in zip(bounds[:-1], bounds[1:]):
        k = 1
        if b - a >= MIN_RECURSE:
            inner = choose_structure(X[a:b], w[a:b], "auto", 0, word_counts=C[a:b], policy=P)
            if inner.fit is not None and inner.runs:
                rec[a:b] = nxt + np.asarray(inner.fit.labels)
                k = int(inner.fit.labels.max()) + 1
            else:
                rec[a:b] = nxt
        else:
            rec[a:b] = nxt
        nxt += k
    out["recursion"] = rec
    for b in REFINE:
        k = 0
        for a, e in zip(bounds[:-1], bounds[1:]):
            inner = 1
            if e - a >= MIN_RECURSE:
                sub = fit_runs(X[a:e], w[a:e], "auto", 0)
                k_sub = int(sub.labels.max()) + 1
                if k_sub >= 2:
                    counts = check_word_counts(C[a:e], e - a)
                    inner = evidence_runs(counts, sub.levels, 1, k_sub, b, P.max_evidence_levels)[0]
            k += inner
        fit = fine.at(k) if k <= top else fit_runs(X, w, k, 0)
        out[f"refined {b:g}"] = np.asarray(fit.with_words(C, P.word_weight).labels)
    return out


def score(job) -> dict | None:
    from threadpoolctl import threadpool_limits

    from bpseg_pgm.evaluation.metrics import evaluate_partial
    from bpseg_pgm.utils.labels import n_runs

    with threadpool_limits(1):
        found = candidates(job["X"], job["w"], job["units"])
    if found is None:
        return None
    row = {}
    for annotation, gold in job["gold"].items():
        k_gold = n_runs(np.array([g for g in gold if g is not None]))
        for name, labels in found.items():
            s = evaluate_partial(gold, labels)
            row[f"{annotation}|{name}"] = (s["ari"], s["pk"], n_runs(labels) / k_gold)
    return row


def jobs(limit, embedder) -> dict[str, list]:
    from bpseg_bench.bench_corpus import load_dataset
    from bpseg_bench.runner import embed_documents
    from bpseg_pgm.features.weights import unit_weights
    from bpseg_pgm.policy import DEFAULT_POLICY as P

    def prepared(spec, limit=None):
        docs = load_dataset(spec, limit=limit)
        vectors, _ = embed_documents(docs, embedder)
        return docs, [np.asarray(v, dtype=np.float64) for v in vectors]

    out: dict[str, list] = {}
    subs = {d.doc_id: d for d in load_dataset("peps-train-sub")}
    for spec, _ in SINGLE:
        docs, vectors = prepared(spec, limit)
        rows = []
        for d, X in zip(docs, vectors):
            gold = {"sections": list(d.labels)}
            if spec == "peps-train":
                gold["sub-sections"] = list(subs[d.doc_id].labels)
            rows.append({"X": X, "w": unit_weights(d.units, P.word_scale), "units": list(d.units), "gold": gold})
        out[spec] = rows
    for spec, G in LONG:
        docs, vectors = prepared(spec)
        sub_docs = [subs[d.doc_id] for d in docs] if spec == "peps-train" else None
        rows = []
        for text in build_texts(docs, sub_docs, G, limit or 30, np.random.default_rng(0)):
            X = np.vstack([vectors[i] for i in text["index"]])
            gold = {a: [None if g < 0 else int(g) for g in v] for a, v in text["gold"].items()}
            rows.append({"X": X, "w": unit_weights(text["units"], P.word_scale), "units": text["units"], "gold": gold})
        out[f"{spec} x{G}"] = rows
    return out


def main(argv=None) -> int:
    args = options(__doc__.split("\n")[0], "granularity_criteria", argv, Path(__file__).parent)
    warnings.filterwarnings("ignore")
    from bpseg_bench.runner import make_embedder

    started = time.perf_counter()
    work = jobs(args.limit, make_embedder(progress=False))
    results: dict[str, list] = {}
    with ProcessPoolExecutor(args.workers) as pool:
        for name, rows in work.items():
            results[name] = [r for r in pool.map(score, rows, chunksize=2) if r is not None]
            print(f"{name}: {len(results[name])}, {time.perf_counter() - started:.0f} s", file=sys.stderr, flush=True)
    seconds = time.perf_counter() - started

    table = {}
    for name, rows in results.items():
        for key in rows[0]:
            a = np.array([r[key] for r in rows])
            table[f"{name}|{key}"] = {
                "ari": float(a[:, 0].mean()),
                "pk": float(a[:, 1].mean()),
                "segs_over_gold": float(np.median(a[:, 2])),
                "docs": len(rows),
            }
    methods = list(dict.fromkeys(k.split("|")[-1] for k in table))

    def genre_ari(genre: str, method: str) -> float:
        if genre == "PEPs":
            return (
                table[f"peps-train|sections|{method}"]["ari"] + table[f"peps-train|sub-sections|{method}"]["ari"]
            ) / 2
        if genre == "long texts":  # the sections of every construction
            return float(np.mean([table[f"{spec} x{G}|sections|{method}"]["ari"] for spec, G in LONG]))
        spec = {"Choi": "choi-1", "meetings": "qmsum-train"}[genre]
        return table[f"{spec}|sections|{method}"]["ari"]

    logo = []
    for genres in (("Choi", "meetings", "PEPs"), ("Choi", "meetings", "PEPs", "long texts")):
        for family in ("significance", "merge", "refined"):
            if len(genres) == 4 and family != "refined":
                continue
            options_ = [m for m in methods if m.startswith(family)] + (["default"] if family == "refined" else [])
            for genre in genres:
                others = [g for g in genres if g != genre]
                pick = max(options_, key=lambda m: np.mean([genre_ari(g, m) for g in others]))
                logo.append(
                    {
                        "family": family,
                        "genres": len(genres),
                        "left out": genre,
                        "chosen": pick,
                        "ari": genre_ari(genre, pick),
                        "default": genre_ari(genre, "default"),
                    }
                )

    out = Path(args.out)
    out.parent.mkdir(parents=True, exist_ok=True)
    machine = f"{platform.processor() or platform.machine()}, {os.cpu_count()} cores"
    cmd = "python research/2026-11-24-granularity-criteria/granularity_criteria.py" + (
        "" if args.limit is None else f" --limit {args.limit}"
    )
    lines = [
        "# The number of segments: boundary significance, stability, merging, recursion, refined counts (issue 20)",
        "",
        f"Command: `{cmd}`. Machine: {machine}. {seconds:.0f} s. Development data only. Runs path of the default "
        "(see the script's docstring). ARI / Pk over the labelled units (Pk: lower is better); segs/gold: runs "
        "found over gold runs, median.",
        "",
        "| set | gold | " + " | ".join(methods) + " |",
        "|---|---|" + "---:|" * len(methods),
    ]
    for name in results:
        for annotation in dict.fromkeys(k.split("|")[0] for k in results[name][0]):
            cells = [table[f"{name}|{annotation}|{m}"] for m in methods]
            lines.append(
                f"| {name} ({cells[0]['docs']}) | {annotation} | "
                + " | ".join(f"{c['ari']:.3f} / {c['pk']:.3f} / {c['segs_over_gold']:.2f}" for c in cells)
                + " |"
            )
    lines += [
        "",
        "Leave one genre out (single documents; PEPs as the mean of its two annotations): the threshold the other "
        "two genres prefer (for the refined count, the default is one of the options), scored on the genre left out, beside the default.",
        "",
        "The last rows count the long texts (their sections) as a fourth genre.",
        "",
        "| family | genres | left out | chosen | ARI | default |",
        "|---|---:|---|---|---:|---:|",
    ]
    lines += [
        f"| {r['family']} | {r['genres']} | {r['left out']} | {r['chosen']} | {r['ari']:.3f} | {r['default']:.3f} |"
        for r in logo
    ]
    out.with_suffix(".md").write_text("\n".join(lines) + "\n", encoding="utf-8")
    out.with_suffix(".json").write_text(
        json.dumps({"command": cmd, "machine": machine, "seconds": seconds, "table": table, "logo": logo}, indent=1),
        encoding="utf-8",
    )
    print("\n".join(lines))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
