"""Does the automatic number of segments grow with a text made of many parts? (issue 20)

The span rule (about three correlation lengths per run on gradual text) sees a correlation length of about
n / 10 on every development genre, whatever the text holds, so it gives about 3-4 runs to any gradual
text: the unseen lectures (12 gold segments in 514 units) got 3. This script builds long texts from
development documents only, by putting G documents end to end, and scores the default ``BPSeg`` on them
with and without the units' word counts (the words' DCM evidence, :mod:`bpseg_pgm.runs.evidence`, which
the text pipeline now gives the estimator):

* ``peps-train x2``, ``peps-train x5``: 2 or 5 PEPs train documents, gold = their sections (a different
  label for every section of every document); also scored against the sub-sections;
* ``qmsum-train x3``: 3 QMSum train meetings, gold = their topics;
* ``choi-1 x5``: 5 Choi set 1 documents (50 passages), gold = the passages;
* every construction is also scored against the documents (gold = which document a unit came from): the
  coarsest annotation, to see whether the words over-cut a text annotated coarsely.

The documents of each text are drawn without replacement from the set with a seeded generator
(``--seed``), ``--texts`` texts per construction. Methods: the default fitted as the text pipeline fits it
(``fit(X, sample_weight=unit_weights(units), word_counts=unit_word_counts(units))``); the same without
``word_counts`` (the span rule alone, the default before session 15); equal blocks with the gold number of
segments; one segment (Pk). Scores: ARI (scikit-learn) and Pk (nltk) over the labelled units, segments
found (contiguous runs of the labels) over gold, median. Only development data is read.

    python research/2026-11-24-words-evidence/granularity_long_text.py              # ~3 min on 2 cores, embeddings cached
    python research/2026-11-24-words-evidence/granularity_long_text.py --texts 5    # quicker

Outputs: ``research/2026-11-24-words-evidence/results/granularity_long_text.{md,json}`` (``--out`` changes the stem).
"""

from __future__ import annotations

import argparse
import json
import platform
import sys
import time
import warnings
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))  # research/, for common.py
from common import build_texts  # noqa: E402

CONSTRUCTIONS = (("peps-train", 2), ("peps-train", 5), ("qmsum-train", 3), ("choi-1", 5))


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--texts", type=int, default=30, help="texts per construction (default 30)")
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--out", default=str(Path(__file__).parent / "results" / "granularity_long_text"))
    args = parser.parse_args(argv)
    if args.texts < 1:
        parser.error("--texts must be >= 1")
    warnings.filterwarnings("ignore")

    from bpseg_bench.bench_corpus import load_dataset
    from bpseg_bench.runner import embed_documents, make_embedder
    from bpseg_pgm.estimator import BPSeg
    from bpseg_pgm.evaluation.metrics import evaluate_partial
    from bpseg_pgm.features.weights import unit_weights
    from bpseg_pgm.features.words import unit_word_counts
    from bpseg_pgm.policy import DEFAULT_POLICY
    from bpseg_pgm.utils.labels import n_runs

    embedder = make_embedder(progress=False)
    rng = np.random.default_rng(args.seed)
    started = time.perf_counter()
    rows, per_text = [], []
    for spec, G in CONSTRUCTIONS:
        docs = load_dataset(spec)
        subs = None
        if spec == "peps-train":
            by_id = {d.doc_id: d for d in load_dataset("peps-train-sub")}
            subs = [by_id[d.doc_id] for d in docs]
        vectors, _ = embed_documents(docs, embedder)
        texts = build_texts(docs, subs, G, args.texts, rng)
        scores: dict[str, dict[str, list]] = {}
        for text in texts:
            X = np.vstack([vectors[i] for i in text["index"]])
            units = text["units"]
            w = unit_weights(units, DEFAULT_POLICY.word_scale)
            n = len(units)
            found = {
                "default (words)": BPSeg(random_state=0).fit(X, sample_weight=w, word_counts=unit_word_counts(units)),
                "span rule alone (no words)": BPSeg(random_state=0).fit(X, sample_weight=w),
            }
            record = {"construction": f"{spec} x{G}", "docs": text["docs"], "n": n}
            for annotation, gold in text["gold"].items():
                k_gold = n_runs(gold[gold >= 0])
                labels = {name: est.labels_ for name, est in found.items()}
                labels["equal blocks, gold k"] = np.minimum((np.arange(n) * k_gold) // n, k_gold - 1)
                labels["one segment"] = np.zeros(n, dtype=int)
                for name, lab in labels.items():
                    s = evaluate_partial([None if g < 0 else int(g) for g in gold], lab)  # -1: unlabelled
                    entry = scores.setdefault(annotation, {}).setdefault(name, [])
                    entry.append((s["ari"], s["pk"], n_runs(np.asarray(lab)) / k_gold))
                record[annotation] = {
                    "gold_k": k_gold,
                    **{name: n_runs(np.asarray(lab)) for name, lab in labels.items()},
                }
            record["granularity"] = found["default (words)"].granularity_
            per_text.append(record)
        for annotation, by_method in scores.items():
            for name, vals in by_method.items():
                a = np.array(vals)
                rows.append(
                    {
                        "construction": f"{spec} x{G}",
                        "annotation": annotation,
                        "method": name,
                        "texts": len(vals),
                        "units": float(np.mean([t["n"] for t in per_text if t["construction"] == f"{spec} x{G}"])),
                        "ari": float(a[:, 0].mean()),
                        "pk": float(a[:, 1].mean()),
                        "segs_over_gold": float(np.median(a[:, 2])),
                    }
                )
        print(f"{spec} x{G}: {len(texts)} texts, {time.perf_counter() - started:.0f} s", file=sys.stderr, flush=True)
    seconds = time.perf_counter() - started

    out = Path(args.out)
    out.parent.mkdir(parents=True, exist_ok=True)
    machine = f"{platform.processor() or platform.machine()}, {__import__('os').cpu_count()} cores"
    cmd = "python research/2026-11-24-words-evidence/granularity_long_text.py" + (
        "" if args.texts == 30 else f" --texts {args.texts}"
    )
    lines = [
        "# Long texts made of many parts: the automatic number of segments (issue 20)",
        "",
        f"Command: `{cmd}`. Machine: {machine}. {seconds:.0f} s. Development data only "
        "(PEPs train, QMSum train, Choi set 1). ARI / Pk over the labelled units; segs/gold: segments found "
        "(contiguous runs) over gold, median. Pk: lower is better.",
        "",
        "| long text | gold | units | method | ARI | Pk | segs/gold |",
        "|---|---|---:|---|---:|---:|---:|",
    ]
    for r in rows:
        if r["method"] == "one segment":
            lines.append(
                f"| {r['construction']} | {r['annotation']} | {r['units']:.0f} | {r['method']} | - | {r['pk']:.3f} | - |"
            )
        else:
            lines.append(
                f"| {r['construction']} | {r['annotation']} | {r['units']:.0f} | {r['method']} | {r['ari']:.3f} | "
                f"{r['pk']:.3f} | {r['segs_over_gold']:.2f} |"
            )
    out.with_suffix(".md").write_text("\n".join(lines) + "\n")
    out.with_suffix(".json").write_text(
        json.dumps(
            {"command": cmd, "machine": machine, "seconds": seconds, "rows": rows, "texts": per_text},
            indent=1,
            default=lambda o: o.tolist(),
        )
    )
    print("\n".join(lines))
    print(f"Wrote {out.with_suffix('.md')}, {out.with_suffix('.json')}", file=sys.stderr)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
