"""A document's structure in reStructuredText, HTML and numbered plain text: PEPs written in each format, segmented
by `segment_text` with the format detected (no `format=` given), automatically and given the sub-section count.

    python research/2026-11-28-formats/measure.py --split train   # development
    python research/2026-11-28-formats/measure.py --split val     # held out

Each PEP with at least two sections is written as
- reStructuredText: each section title underlined with `=`, each sub-section title with `-`;
- HTML: a page with a `<head>` (title, style), a `<nav>`, `<h1>`/`<h2>` titles and `<p>` paragraphs (escaped);
- numbered plain text: `1. Title` before each section, `1.1 Title` before each sub-section (RFC-like);
and as Markdown (`#`, `##`) for comparison. Each unit's gold: its paragraph's section (h1) and sub-section (h1, h2);
a title's, the section it opens. Rows per document go to --out; the summary is printed. Frozen study of 2026-11-28.
"""

from __future__ import annotations

import argparse
import bisect
import html
import json
import time
from pathlib import Path

import numpy as np

from bpseg_bench.jsonl_data import read_records
from bpseg_bench.peps import resolve_peps_dir
from bpseg_bench.runner import make_embedder
from bpseg_pgm.evaluation.metrics import evaluate
from bpseg_pgm.text import segment_text
from bpseg_pgm.text.pipeline import read_format


def _heading(fmt: str, level: int, title: str, number: str) -> str:
    if fmt == "markdown":
        return f"{'#' * level} {title}"
    if fmt == "rst":
        return f"{title}\n{('=' if level == 1 else '-') * len(title)}"
    if fmt == "html":
        return f"<h{level}>{html.escape(title)}</h{level}>"
    return f"{number} {title}" if level == 1 else f"{number} {title}"


def compose(obj: dict, fmt: str) -> tuple[str, list[int], list[int], list[int]]:
    """The PEP in ``fmt``, each piece's start offset, its section and its sub-section."""
    head = ""
    if fmt == "html":
        head = (
            f"<!DOCTYPE html>\n<html>\n<head><title>{html.escape(obj['title'])}</title>"
            "<style>p { margin: 0 }</style></head>\n<body>\n<nav><a href='/'>Home</a> | <a href='/peps'>PEPs</a></nav>"
        )
    parts, starts, g1, g2, index, sub, last = [], [], [], [], {}, {}, (None, None)
    pos = len(head) + (2 if head else 0)
    n1 = n2 = 0
    for block in obj["blocks"]:
        if not block["text"].strip():
            continue
        a = index.setdefault(block["h1"], len(index))
        b = sub.setdefault((block["h1"], block["h2"]), len(sub))
        pieces = []
        if block["h1"] != last[0]:
            n1, n2 = n1 + 1, 0
            pieces.append(_heading(fmt, 1, " ".join(block["h1"].split()), f"{n1}."))
        if block["h2"] and (block["h1"], block["h2"]) != last:
            n2 += 1
            pieces.append(_heading(fmt, 2, " ".join(block["h2"].split()), f"{n1}.{n2}"))
        last = (block["h1"], block["h2"])
        body = f"<p>{html.escape(block['text'])}</p>" if fmt == "html" else block["text"]
        for piece in [*pieces, body]:
            parts.append(piece), starts.append(pos), g1.append(a), g2.append(b)
            pos += len(piece) + 2
    text = "\n\n".join(([head] if head else []) + parts)
    if fmt == "html":
        text += "\n</body>\n</html>\n"
    return text, starts, g1, g2


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--split", default="train", choices=["train", "val"])
    ap.add_argument("--limit", type=int, default=None)
    ap.add_argument("--formats", default="rst,html,numbered,markdown")
    ap.add_argument("--out", default="/tmp/formats")
    ap.add_argument("--given", action="store_true", help="pass format= (the format each text is written in)")
    args = ap.parse_args()
    formats = args.formats.split(",")
    embedder = make_embedder(progress=False)
    records = sorted(read_records(resolve_peps_dir() / f"{args.split}.jsonl", ("blocks",)), key=lambda r: r["id"])[
        : args.limit
    ]
    rows, t0 = [], time.perf_counter()
    for r in records:
        row = {"id": r["id"]}
        for fmt in formats:
            text, starts, h1, h2 = compose(r, fmt)
            given = {"format": fmt} if args.given else {}
            seg = segment_text(text, embedder=embedder, **given)
            at = [max(0, bisect.bisect_right(starts, a) - 1) for a, _ in seg.spans]
            g1, g2 = np.array([h1[i] for i in at]), np.array([h2[i] for i in at])
            k1, k2 = len(set(h1)), len(set(h2))
            if k1 < 2:
                break
            row["k1"], row["k2"] = k1, k2
            got = {"detected": read_format(text, False, None, given.get("format")), "auto": evaluate(g1, seg.labels)}
            if k2 > k1:
                got["given_k2"] = evaluate(g2, segment_text(text, k2, embedder=embedder, **given).labels)
            row[fmt] = got
        else:
            rows.append(row)
    out = Path(args.out)
    out.mkdir(parents=True, exist_ok=True)
    (out / f"{args.split}.jsonl").write_text("".join(json.dumps(x) + "\n" for x in rows))
    print(
        f"PEPs {args.split} with at least two sections: {len(rows)} documents, {time.perf_counter() - t0:.0f} s; "
        f"sections {np.mean([x['k1'] for x in rows]):.2f}, sub-sections {np.mean([x['k2'] for x in rows]):.2f}"
    )
    print("| format | detected as | automatic vs sections: ARI / Pk | given k2 vs sub-sections: ARI / Pk (docs) |")
    print("|---|---|---|---|")
    for fmt in formats:
        got = [x[fmt] for x in rows]
        detected = {d: sum(g["detected"] == d for g in got) for d in sorted({g["detected"] for g in got})}
        sub = [g["given_k2"] for g in got if "given_k2" in g]
        print(
            f"| {fmt} | {detected} | {np.mean([g['auto']['ari'] for g in got]):.3f} / "
            f"{np.mean([g['auto']['pk'] for g in got]):.3f} | {np.mean([g['ari'] for g in sub]):.3f} / "
            f"{np.mean([g['pk'] for g in sub]):.3f} ({len(sub)}) |"
        )


if __name__ == "__main__":
    main()
