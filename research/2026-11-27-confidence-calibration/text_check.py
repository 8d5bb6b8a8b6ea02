"""The calibrated confidence on text a user gives ``segment_text``: PEPs val written as Markdown (each top-level
section under its ``# h1`` heading) and as paragraphs (blank lines, no headings), where the layout is evidence
(issue 38 item 1).  For each variant: the structure chosen, the fraction of units in their matched gold section,
the mean raw belief and the mean calibrated confidence, and the ECE.

    python research/2026-11-27-confidence-calibration/text_check.py [--limit N]

The calibration was fitted on sentence lists (no layout); this checks how it reads where the layout decides.
"""

from __future__ import annotations

import argparse
import bisect
import collections
import sys

import numpy as np

from bpseg_bench.jsonl_data import read_records
from bpseg_bench.peps import resolve_peps_dir
from bpseg_bench.runner import make_embedder
from bpseg_pgm.confidence import expected_calibration_error, matched_correct
from bpseg_pgm.text import segment_text


def compose(obj: dict, headings: bool) -> tuple[str, list[int], list[int]]:
    """The PEP as one text, the start offset of each piece and its gold section (as the structure-evidence study
    writes it: headings and paragraphs in order)."""
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


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--split", default="val", choices=["train", "val"])
    ap.add_argument("--limit", type=int, default=None)
    args = ap.parse_args(argv)
    embedder = make_embedder(progress=False)
    records = sorted(read_records(resolve_peps_dir() / f"{args.split}.jsonl", ("blocks",)), key=lambda r: r["id"])[
        : args.limit
    ]
    print("| variant | documents | units | structures | fraction right | raw belief | confidence | ECE |")
    print("|---|---:|---:|---|---:|---:|---:|---:|")
    for variant, heads in (("markdown", True), ("paragraphs", False)):
        ok_all, conf_all, raw_all, structures = [], [], [], collections.Counter()
        for r in records:
            text, starts, gold = compose(r, heads)
            if len(set(gold)) < 2:
                continue
            seg = segment_text(text, embedder=embedder, markdown=heads)
            g = [gold[bisect.bisect_right(starts, a) - 1] for a, _ in seg.spans]
            ok, labelled = matched_correct(seg.labels, g)
            ok_all.append(ok[labelled])
            conf_all.append(seg.confidence()[labelled])
            raw_all.append(seg.belief_in_label()[labelled])
            structures[seg.structure] += 1
        ok, conf, raw = (np.concatenate(x) for x in (ok_all, conf_all, raw_all))
        kinds = ", ".join(f"{k} {v}" for k, v in structures.most_common())
        print(
            f"| {variant} | {len(ok_all)} | {len(ok):,} | {kinds} | {ok.mean():.3f} | {raw.mean():.3f} | "
            f"{conf.mean():.3f} | {expected_calibration_error(conf, ok):.3f} |",
            flush=True,
        )
    return 0


if __name__ == "__main__":
    sys.exit(main())
