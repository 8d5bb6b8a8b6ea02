"""PEPs written as Markdown (each top-level section under its `# h1` heading) and as paragraphs (blank lines,
no headings), segmented by `segment_text` with the document's structure as evidence, against the same
sentences with no structure (`segment_sentences`, what the library did before) and the gold-k baselines.

    python research/2026-11-27-structure-evidence/measure.py --split train   # development
    python research/2026-11-27-structure-evidence/measure.py --split val     # held out, reported

Per-document rows go to --out (default /tmp/structure-evidence/<split>.jsonl); the summary is printed.
Frozen study of 2026-11-27 (not maintained).
"""

from __future__ import annotations

import argparse
import bisect
import json
import time
from pathlib import Path

import numpy as np

from bpseg_bench.jsonl_data import read_records
from bpseg_bench.peps import resolve_peps_dir
from bpseg_bench.runner import make_embedder
from bpseg_pgm.evaluation.metrics import evaluate
from bpseg_pgm.text import segment_sentences, segment_text


def compose(obj: dict, headings: bool) -> tuple[str, list[int], list[int]]:
    """The PEP as one text, the start offset of each piece, and each piece's gold section (pieces: the headings
    and the paragraphs, in order)."""
    parts, starts, gold, index, pos, last = [], [], [], {}, 0, None
    for block in obj["blocks"]:
        label = index.setdefault(block["h1"], len(index))
        if not block["text"].strip():
            continue
        if headings and block["h1"] != last:
            piece = f"# {block['h1']}"
            parts.append(piece), starts.append(pos), gold.append(label)
            pos += len(piece) + 2
        last = block["h1"]
        parts.append(block["text"]), starts.append(pos), gold.append(label)
        pos += len(block["text"]) + 2
    return "\n\n".join(parts), starts, gold


def unit_gold(seg, starts: list[int], gold: list[int]) -> np.ndarray:
    return np.array([gold[bisect.bisect_right(starts, a) - 1] for a, _ in seg.spans])


def paragraph_blocks(seg, k: int) -> np.ndarray:
    """Equal blocks of k given, each boundary moved to the nearest paragraph start (seg.paragraph of units)."""
    n = len(seg.labels)
    para = seg._layout_paragraphs
    starts = np.flatnonzero(np.r_[True, para[1:] != para[:-1]])
    cuts = sorted({int(starts[np.argmin(np.abs(starts - round(i * n / k)))]) for i in range(1, k)} - {0})
    return np.searchsorted(np.array(cuts), np.arange(n), side="right")


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--split", default="train", choices=["train", "val"])
    ap.add_argument("--limit", type=int, default=None)
    ap.add_argument("--out", default="/tmp/structure-evidence")
    ap.add_argument("--policy", nargs="*", default=[], help="Policy changes for the structured runs, name=value")
    args = ap.parse_args()
    from bpseg_pgm import Policy

    changes = {k: type(getattr(Policy(), k))(v) for k, v in (c.split("=") for c in args.policy)}
    params = {"policy": Policy(**changes)} if changes else {}
    from bpseg_pgm.text.layout import unit_layout

    embedder = make_embedder(progress=False)
    records = sorted(read_records(resolve_peps_dir() / f"{args.split}.jsonl", ("blocks",)), key=lambda r: r["id"])[
        : args.limit
    ]
    out = Path(args.out)
    out.mkdir(parents=True, exist_ok=True)
    rows = []
    t0 = time.perf_counter()
    for r in records:
        row = {"id": r["id"]}
        for variant, heads in (("markdown", True), ("paragraphs", False)):
            text, starts, gold = compose(r, heads)
            seg = segment_text(text, embedder=embedder, markdown=heads, **params)
            g = unit_gold(seg, starts, gold)
            k = len(set(g.tolist()))
            if k < 2:
                break
            row[f"{variant}_n"], row[f"{variant}_k_gold"] = len(g), k
            row[f"{variant}_auto"] = {**evaluate(g, seg.labels), "k": int(seg.n_segments), "structure": seg.structure}
            if not heads:
                para, _ = unit_layout(text, seg.spans)
                seg._layout_paragraphs = para
                row["paragraphs_given_k"] = evaluate(g, segment_text(text, k, embedder=embedder, **params).labels)
                row["paragraph_blocks"] = evaluate(g, paragraph_blocks(seg, k))
                n = len(g)
                row["equal_blocks"] = evaluate(g, (np.arange(n) * k) // n)
                row["one_segment"] = evaluate(g, np.zeros(n, dtype=int))
                plain = segment_sentences(seg.sentences, embedder=embedder)
                row["sentences_auto"] = {**evaluate(g, plain.labels), "k": int(plain.n_segments)}
                row["sentences_given_k"] = evaluate(g, segment_sentences(seg.sentences, k, embedder=embedder).labels)
                row["paragraphs_runs"] = evaluate(g, seg.runs_fit.labels) if seg.runs_fit is not None else None
        else:
            rows.append(row)
    seconds = time.perf_counter() - t0
    (out / f"{args.split}.jsonl").write_text("".join(json.dumps(x) + "\n" for x in rows))
    keys = [
        "markdown_auto",
        "paragraphs_auto",
        "paragraphs_given_k",
        "paragraph_blocks",
        "equal_blocks",
        "one_segment",
        "sentences_auto",
        "sentences_given_k",
    ]
    print(f"PEPs {args.split}: {len(rows)} documents, {seconds:.0f} s")
    print("| method | ARI | Pk | segments |")
    print("|---|---|---|---|")
    for key in keys:
        ari = np.mean([x[key]["ari"] for x in rows])
        pk = np.mean([x[key]["pk"] for x in rows])
        ks = [x[key].get("k") for x in rows if x[key].get("k") is not None]
        print(f"| {key} | {ari:.3f} | {pk:.3f} | {np.mean(ks) if ks else float('nan'):.1f} |")
    runs = [x["paragraphs_runs"] for x in rows if x.get("paragraphs_runs")]
    print(
        f"| paragraphs: the runs before grouping ({len(runs)} docs) | {np.mean([x['ari'] for x in runs]):.3f} | "
        f"{np.mean([x['pk'] for x in runs]):.3f} | |"
    )
    from collections import Counter

    print("structures (paragraphs):", Counter(x["paragraphs_auto"]["structure"] for x in rows))
    print(f"gold sections: {np.mean([x['paragraphs_k_gold'] for x in rows]):.1f}")


if __name__ == "__main__":
    main()
