"""PEPs as paragraphs, each paragraph embedded whole (one unit per paragraph) against sentences restricted to
paragraph breaks: does the paragraph's own embedding carry evidence the sentences' do not?

    python research/2026-11-27-structure-evidence/paragraph_units.py --split train --limit 100

Frozen study of 2026-11-27 (not maintained).
"""

from __future__ import annotations

import argparse
import time

import numpy as np

from bpseg_bench.jsonl_data import read_records
from bpseg_bench.peps import resolve_peps_dir
from bpseg_bench.runner import make_embedder
from bpseg_pgm import BPSeg, Units
from bpseg_pgm.evaluation.metrics import evaluate
from bpseg_pgm.text.split import split_sentences


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--split", default="train", choices=["train", "val"])
    ap.add_argument("--limit", type=int, default=None)
    args = ap.parse_args()
    embedder = make_embedder(progress=False)
    records = sorted(read_records(resolve_peps_dir() / f"{args.split}.jsonl", ("blocks",)), key=lambda r: r["id"])[
        : args.limit
    ]
    rows = {"paragraph units": [], "paragraph units given k": [], "mixed sentences": [], "mixed given k": []}
    t0 = time.perf_counter()
    for r in records:
        blocks = [b for b in r["blocks"] if split_sentences(b["text"])]
        index: dict = {}
        sents, gold, para = [], [], []
        for j, b in enumerate(blocks):
            for s in split_sentences(b["text"]):
                sents.append(s), gold.append(index.setdefault(b["h1"], len(index))), para.append(j)
        gold, para = np.array(gold), np.array(para)
        k = len(index)
        if k < 2 or len(blocks) < 3:
            continue
        texts = [" ".join(split_sentences(b["text"])) for b in blocks]
        P = embedder.encode(texts)
        units = Units.from_sentences(texts, embeddings=P)
        lab = BPSeg().fit(units).labels_
        rows["paragraph units"].append(evaluate(gold, lab[para]))
        lab = BPSeg(structure="runs", n_segments=min(k, len(blocks))).fit(units).labels_
        rows["paragraph units given k"].append(evaluate(gold, lab[para]))
        S = embedder.encode(sents)
        M = S / np.linalg.norm(S, axis=1, keepdims=True) + P[para] / np.linalg.norm(P[para], axis=1, keepdims=True)
        mixed = Units.from_sentences(sents, embeddings=M, paragraphs=para)
        rows["mixed sentences"].append(evaluate(gold, BPSeg().fit(mixed).labels_))
        rows["mixed given k"].append(evaluate(gold, BPSeg(structure="runs", n_segments=k).fit(mixed).labels_))
    print(f"PEPs {args.split}: {len(rows['paragraph units'])} documents, {time.perf_counter() - t0:.0f} s")
    for name, v in rows.items():
        print(f"| {name} | {np.mean([x['ari'] for x in v]):.3f} | {np.nanmean([x['pk'] for x in v]):.3f} |")


if __name__ == "__main__":
    main()
