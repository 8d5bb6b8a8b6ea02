"""Chunk sizes on a real meeting and on the README (issue 23): the largest chunk and the size distribution.

    python research/2026-11-24-chunk-sizes/chunk_sizes.py [--max-tokens 256] [--meeting Bed004] [--json OUT]

For each document: the number of chunks, the largest chunk in the embedding model's tokens (special tokens
included), the quartiles, the share of chunks under a quarter of the cap, whether ``text[start:end] ==
chunk.text`` for every chunk, and (README.md) how many chunks start or end inside a fenced code block.
Uses whatever ``Segmentation.chunks`` defaults the checkout has, so running it before and after a change
measures the change.
"""

from __future__ import annotations

import argparse
import inspect
import json
import re
import time
from pathlib import Path

import numpy as np

from bpseg_bench.qmsum import load_qmsum
from bpseg_pgm.text import segment_text
from bpseg_pgm.text.segmentation import Segmentation

ROOT = Path(__file__).resolve().parents[2]  # the repository (README.md)
_FENCE = re.compile(r"^ {0,3}(`{3,}|~{3,})", re.M)


def fence_ranges(text: str) -> list[tuple[int, int]]:
    """Character ranges of fenced code blocks (opening line to closing line), by a plain line scan."""
    ranges, opened = [], None
    for m in _FENCE.finditer(text):
        if opened is None:
            opened = (m.start(1), m.group(1)[0], len(m.group(1)))
        elif m.group(1)[0] == opened[1] and len(m.group(1)) >= opened[2]:
            end = text.find("\n", m.end())
            ranges.append((opened[0], len(text) if end < 0 else end))
            opened = None
    return ranges


def inside(pos: int, ranges: list[tuple[int, int]]) -> bool:
    return any(a < pos < b for a, b in ranges)


def measure(name: str, text: str, max_tokens: int, lines: bool) -> dict:
    t0 = time.perf_counter()
    seg = segment_text(text, lines=lines)
    t1 = time.perf_counter()
    chunks = seg.chunks(max_tokens=max_tokens)
    t2 = time.perf_counter()
    sizes = np.array([c.n_tokens for c in chunks])
    fences = fence_ranges(text)
    return {
        "document": name,
        "sentences": len(seg.spans),
        "chunks": len(chunks),
        "max_tokens_asked": max_tokens,
        "largest": int(sizes.max()),
        "over_cap": int((sizes > max_tokens).sum()),
        "quartiles": [float(q) for q in np.percentile(sizes, [25, 50, 75])],
        "smallest": int(sizes.min()),
        "under_quarter_cap": int((sizes < max_tokens / 4).sum()),
        "exact_offsets": all(text[c.start : c.end] == c.text for c in chunks if c.contiguous),
        "cuts_inside_fence": sum(inside(c.start, fences) or inside(c.end, fences) for c in chunks),
        "segment_s": round(t1 - t0, 2),
        "chunks_s": round(t2 - t1, 2),
    }


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--max-tokens", type=int, default=256)
    ap.add_argument("--meeting", default="Bed004")
    ap.add_argument("--json", type=Path)
    args = ap.parse_args()
    meeting = next(d for d in load_qmsum(splits=("train",)) if d.doc_id.endswith(args.meeting))
    rows = [
        measure(
            f"QMSum train {args.meeting} ({len(meeting.units)} turns, one per line)",
            "\n".join(meeting.units),
            args.max_tokens,
            lines=True,
        ),
        measure("README.md", (ROOT / "README.md").read_text("utf-8"), args.max_tokens, lines=False),
    ]
    print("chunks() signature:", inspect.signature(Segmentation.chunks))
    for row in rows:
        print(json.dumps(row))
    if args.json:
        args.json.write_text(json.dumps(rows, indent=2) + "\n", "utf-8")


if __name__ == "__main__":
    main()
