"""The heading hierarchy as the coarse levels: PEPs written as Markdown with their top-level (`#`) and sub-section
(`##`) headings, segmented by `segment_text` automatically, given k, and re-cut.

    python research/2026-11-27-heading-hierarchy/measure.py --split train   # development
    python research/2026-11-27-heading-hierarchy/measure.py --split val     # held out

Each unit's gold: its paragraph's top-level section (h1) and its sub-section (h1, h2); a heading's, the section it
opens. Per-document rows go to --out (default /tmp/heading-hierarchy/<split>.jsonl); the summary is printed. Run it
on two checkouts to compare them (the rows it cannot compute on an older library are left out). Frozen study of
2026-11-27 (not maintained).
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
from bpseg_pgm.text import segment_text


def compose(obj: dict) -> tuple[str, list[int], list[int], list[int]]:
    """The PEP as Markdown (`# h1` before each top-level section, `## h2` before each sub-section), each piece's
    start offset, its section and its sub-section."""
    parts, starts, g1, g2, index, sub, pos, last = [], [], [], [], {}, {}, 0, (None, None)
    for block in obj["blocks"]:
        if not block["text"].strip():
            continue
        a = index.setdefault(block["h1"], len(index))
        b = sub.setdefault((block["h1"], block["h2"]), len(sub))
        pieces = []
        if block["h1"] != last[0]:
            pieces.append(f"# {block['h1']}")
        if block["h2"] and (block["h1"], block["h2"]) != last:
            pieces.append(f"## {block['h2']}")
        last = (block["h1"], block["h2"])
        for piece in [*pieces, block["text"]]:
            parts.append(piece), starts.append(pos), g1.append(a), g2.append(b)
            pos += len(piece) + 2
    return "\n\n".join(parts), starts, g1, g2


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--split", default="train", choices=["train", "val"])
    ap.add_argument("--limit", type=int, default=None)
    ap.add_argument("--out", default="/tmp/heading-hierarchy")
    args = ap.parse_args()
    embedder = make_embedder(progress=False)
    records = sorted(read_records(resolve_peps_dir() / f"{args.split}.jsonl", ("blocks",)), key=lambda r: r["id"])[
        : args.limit
    ]
    rows, t0 = [], time.perf_counter()
    for r in records:
        text, starts, h1, h2 = compose(r)
        seg = segment_text(text, embedder=embedder, markdown=True)
        at = [bisect.bisect_right(starts, a) - 1 for a, _ in seg.spans]
        g1, g2 = np.array([h1[i] for i in at]), np.array([h2[i] for i in at])
        k1, k2 = len(set(g1.tolist())), len(set(g2.tolist()))
        if k2 <= k1 or k1 < 2:  # only PEPs with sub-sections
            continue
        row = {"id": r["id"], "k1": k1, "k2": k2, "auto_h1": evaluate(g1, seg.labels)}
        for name, k, gold in (("given_k1", k1, g1), ("given_k2", k2, g2)):
            given = segment_text(text, k, embedder=embedder, markdown=True)
            row[name] = {**evaluate(gold, given.labels), "structure": given.structure}
        mid = (k1 + k2 + 1) // 2
        given = segment_text(text, mid, embedder=embedder, markdown=True)
        kept = set((np.flatnonzero(np.diff(g1)) + 1).tolist()) <= set(
            (np.flatnonzero(np.diff(given.labels)) + 1).tolist()
        )
        row["given_mid"] = {**evaluate(g2, given.labels), "h1_kept": bool(kept), "k": mid}
        try:
            row["recut_k2"] = evaluate(g2, seg.recut(k2).labels)
        except ValueError:  # an older library: the heading fit keeps the top level only
            pass
        rows.append(row)
    out = Path(args.out)
    out.mkdir(parents=True, exist_ok=True)
    (out / f"{args.split}.jsonl").write_text("".join(json.dumps(x) + "\n" for x in rows))
    print(
        f"PEPs {args.split} with sub-sections, as Markdown (# and ##): {len(rows)} documents, "
        f"{time.perf_counter() - t0:.0f} s; sections {np.mean([x['k1'] for x in rows]):.2f}, "
        f"sub-sections {np.mean([x['k2'] for x in rows]):.2f}"
    )
    print("| what | against | ARI | Pk |\n|---|---|---|---|")
    for key, against in (
        ("auto_h1", "sections"),
        ("given_k1", "sections"),
        ("given_k2", "sub-sections"),
        ("given_mid", "sub-sections"),
        ("recut_k2", "sub-sections"),
    ):
        got = [x[key] for x in rows if key in x]
        if got:
            print(
                f"| {key} ({len(got)} docs) | {against} | {np.mean([g['ari'] for g in got]):.3f} | "
                f"{np.mean([g['pk'] for g in got]):.3f} |"
            )
    for key in ("given_k1", "given_k2"):
        print(
            key,
            "structures:",
            {s: sum(x[key]["structure"] == s for x in rows) for s in {x[key]["structure"] for x in rows}},
        )
    print(
        "given k between the two counts: every top-level boundary kept in",
        sum(x["given_mid"]["h1_kept"] for x in rows),
        "of",
        len(rows),
    )


if __name__ == "__main__":
    main()
