"""Record (or compare) the default labels of every development document: the no-behaviour-change check.

A restructuring of the code must leave every label where it was. This script segments every
document of the development sets (Choi set 1, its interleaved documents, QMSum train, PEPs train
and the round-robin sets) with each method (by default the automatic ``bpseg`` and the runs model
given the gold k) exactly as ``bpseg bench corpus`` does (:func:`bpseg_bench.runner.segment`:
unit weights and word counts as the text pipeline gives them), plus the ``bpseg demo`` output, and
writes them to one JSON file; ``--compare OLD.json`` then lists every document whose labels differ.

    python benchmarks/record_labels.py -o before.json              # on the old checkout
    python benchmarks/record_labels.py -o after.json --compare before.json

Embeddings come from the on-disk cache (the first run embeds ~130k units: ~10 min on 2 cores).
"""

from __future__ import annotations

import argparse
import json
import subprocess
import sys
import time

import numpy as np

DATASETS = ("choi-1", "interleaved", "choi-1-rr", "qmsum-train", "peps-train", "peps-train-rr")
METHODS = ("bpseg", "bpseg-contiguous-true-k")


def record(datasets, limit=None, methods=METHODS) -> dict:
    from bpseg_bench.bench_corpus import load_dataset
    from bpseg_bench.runner import embed_documents, segment
    from bpseg_pgm.text import Embedder

    embedder = Embedder(show_progress=True)
    out: dict = {"labels": {name: {} for name in methods}, "seconds": {}}
    for ds in datasets:
        docs = load_dataset(ds, limit=limit)
        vectors, _ = embed_documents(docs, embedder)
        t0 = time.perf_counter()
        for i, (doc, X) in enumerate(zip(docs, vectors)):
            doc_id = getattr(doc, "doc_id", None) or getattr(doc, "id", None)
            for name in methods:
                labels, _ = segment(doc, X, name, 0)
                out["labels"][name][f"{ds}/{i}/{doc_id}"] = np.asarray(labels).tolist()
        out["seconds"][ds] = round(time.perf_counter() - t0, 1)
        print(f"{ds}: {len(docs)} documents, {out['seconds'][ds]} s", file=sys.stderr)
    demo = subprocess.run(["bpseg", "demo"], capture_output=True, text=True)
    out["demo"] = demo.stdout
    return out


def compare(new: dict, old: dict) -> int:
    bad = 0
    for name, docs in old["labels"].items():
        for key, labels in docs.items():
            got = new["labels"].get(name, {}).get(key)
            if got != labels:
                bad += 1
                print(f"DIFFERS {name} {key}")
    if new.get("demo") != old.get("demo"):
        bad += 1
        print("DIFFERS bpseg demo output")
    total = sum(len(d) for d in old["labels"].values())
    print(
        f"{total - bad + (new.get('demo') != old.get('demo'))} of {total} documents identical; demo "
        f"{'identical' if new.get('demo') == old.get('demo') else 'DIFFERS'}"
    )
    return 1 if bad else 0


def main(argv=None) -> int:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("-o", "--out", required=True)
    p.add_argument("--datasets", nargs="+", default=list(DATASETS))
    p.add_argument("--methods", nargs="+", default=list(METHODS))
    p.add_argument("--limit", type=int, default=None)
    p.add_argument("--compare", default=None, help="a JSON file written before; exit 1 if any label differs")
    args = p.parse_args(argv)
    result = record(args.datasets, args.limit, tuple(args.methods))
    with open(args.out, "w", encoding="utf-8") as fh:
        json.dump(result, fh)
    if args.compare:
        with open(args.compare, encoding="utf-8") as fh:
            return compare(result, json.load(fh))
    return 0


if __name__ == "__main__":
    sys.exit(main())
