"""The default's granularity against every annotation the development data has (issue 20).

The shipped span rule (``RUN_SCALE`` = 3 correlation lengths per segment on gradual text) was chosen on
QMSum's coarse topics. PEPs come with two annotations of the same text, sections and sub-sections, so a
rule that suits one annotation and not the other shows up here. For ``RUN_SCALE`` in ``--spans`` the whole
default (``BPSeg(random_state=0)``, word-weighted units, topics over runs) is fitted once per document and
scored against each annotation: QMSum train (topics), PEPs train (sections, sub-sections), Choi set 1
(every 2nd document). Beside it: the runs model told the gold k, equal blocks (gold k), one segment.
Regret = ARI of the runs model with the gold k minus the default's. Only development data is read.

    python research/2026-11-24-granularity-annotations/granularity_annotations.py                  # ~6 min on 2 cores, embeddings cached
    python research/2026-11-24-granularity-annotations/granularity_annotations.py --limit 40       # quicker
"""

from __future__ import annotations

import argparse
import json
import time
import warnings
from pathlib import Path

import numpy as np

SPANS = (1.5, 2.0, 2.5, 3.0)


def main(argv=None) -> int:
    from bpseg_bench.bench_corpus import load_dataset
    from bpseg_bench.peps import load_peps
    from bpseg_bench.report import machine_info
    from bpseg_bench.runner import embed_documents, make_embedder
    from bpseg_pgm.estimator import BPSeg
    from bpseg_pgm.evaluation.metrics import evaluate_partial
    from bpseg_pgm.features.weights import unit_weights
    from bpseg_pgm.io.reports import write_atomically
    from bpseg_pgm.policy import DEFAULT_POLICY
    from bpseg_pgm.runs.model import fit_runs
    from bpseg_pgm.utils.validation import normalize_rows

    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--limit", type=int, default=None, help="documents per set")
    ap.add_argument("--spans", type=float, nargs="+", default=list(SPANS), help="Policy.run_scale values to try")
    ap.add_argument(
        "--out",
        default="research/2026-11-24-granularity-annotations/results/granularity_annotations",
        help="output stem (.md, .json)",
    )
    args = ap.parse_args(argv)
    warnings.filterwarnings("ignore")
    start = time.time()
    sub = {d.doc_id: list(d.labels) for d in load_peps(splits=("train",), level="subsection")}
    embedder = make_embedder(progress=False)
    table: dict[str, dict[str, list[float]]] = {}

    def score(key, name, golds, labels):
        ev = [evaluate_partial(g, lab) for g, lab in zip(golds, labels)]
        table.setdefault(key, {})[name] = [
            float(np.mean([e["ari"] for e in ev])),
            float(np.mean([e["pk"] for e in ev])),
            float(np.median([e["runs_per_segment"] for e in ev])),
        ]

    for ds in ("qmsum-train", "peps-train", "choi-1"):
        docs = load_dataset(ds, limit=args.limit)
        if ds == "choi-1" and args.limit is None:
            docs = docs[::2]
        Xs, _ = embed_documents(docs, embedder)
        Xs = [normalize_rows(np.asarray(X, dtype=np.float64)) for X in Xs]
        ws = [unit_weights(d.units, DEFAULT_POLICY.word_scale) for d in docs]
        annotations = {ds: [list(d.labels) for d in docs]}
        if ds == "peps-train":
            annotations["peps-train (sub-sections)"] = [sub[d.doc_id] for d in docs]
        for key, golds in annotations.items():
            ks = [len({g for g in gold if g is not None}) for gold in golds]
            score(key, "runs, gold k", golds, [fit_runs(X, w, k).labels for X, w, k in zip(Xs, ws, ks)])
            score(
                key,
                "equal blocks, gold k",
                golds,
                [np.minimum(np.arange(len(g)) * k // len(g), k - 1) for g, k in zip(golds, ks)],
            )
            score(key, "one segment", golds, [np.zeros(len(g), dtype=int) for g in golds])
        for s in args.spans:
            policy = DEFAULT_POLICY.replace(run_scale=float(s))
            labels = [BPSeg(random_state=0, policy=policy).fit(X, sample_weight=w).labels_ for X, w in zip(Xs, ws)]
            for key, golds in annotations.items():
                score(key, f"default, RUN_SCALE {s:g}", golds, labels)
        print(ds, f"{time.time() - start:.0f} s", flush=True)
    keys = list(table)
    rows = [r for r in table[keys[0]]]
    md = [
        f"Command: `python research/2026-11-24-granularity-annotations/granularity_annotations.py{'' if args.limit is None else f' --limit {args.limit}'}`. "
        f"Machine: {machine_info()['cpu']}, {machine_info()['cores']} cores. {time.time() - start:.0f} s. "
        "ARI / Pk / median predicted runs per gold run; regret = runs-with-gold-k ARI minus the row's ARI.",
        "",
        "| method | " + " | ".join(keys) + " | mean regret | max regret |",
        "|---|" + "---|" * (len(keys) + 2),
    ]
    for r in rows:
        reg = [table[k]["runs, gold k"][0] - table[k][r][0] for k in keys]
        md.append(
            f"| {r} | "
            + " | ".join("{:.3f} / {:.3f} / {:.2f}".format(*table[k][r]) for k in keys)
            + f" | {np.mean(reg):.3f} | {np.max(reg):.3f} |"
        )
    Path(args.out).parent.mkdir(parents=True, exist_ok=True)
    write_atomically({args.out + ".md": "\n".join(md) + "\n", args.out + ".json": json.dumps(table, indent=2) + "\n"})
    print("\n".join(md))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
