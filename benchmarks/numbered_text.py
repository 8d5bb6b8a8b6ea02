"""Numbered plain text against its sections: the PEPs written with numbered headings and numbered lists (issue 52).

Each PEP with at least two sections is written as plain text: ``1. Title`` before each top-level section and
``1.1 Title`` before each sub-section (``--styles dot``), or RFC style ``1.  Title`` / ``1.1.  Title``
(``rfc``); its prose blocks are paragraphs with a blank line between them. A block that is a list item of its own
(``2. Be a painless upgrade. ...``) stays a paragraph; a block holding a numbered list inline (``1. Standard
library imports. 2. Related third party imports. ...``) is written one item a line (``--lists line``), or one
item a paragraph (``--lists blank``), its lead-in (``... in the following order:``) before it; ``bare``: as
``blank`` with each list item's final period dropped (``2. Be a painless upgrade. Users should feel confident``),
a stress test: more items then look like titles. These are the numbered lists between the sections, the case a
numbered-heading reader gets wrong.

Scored per document, against the gold top-level sections (each sentence's block's ``h1``; a title's, the section
it opens; ARI and Pk), then the mean:

* ``reader``: ``format="numbered"`` given, the headings deciding the sections (``n_segments="auto"``): the
  sections the library's reader makes (:func:`bpseg_pgm.structure.detect.read_structure`, through the same
  :func:`~bpseg_pgm.text.layout.unit_layout` and :func:`~bpseg_pgm.decisions.layout.document_layout` the fit
  uses), so no embedding is needed; ``guessed``: how many texts the format guess
  (:func:`bpseg_pgm.text.pipeline.read_format`) takes for numbered; false / missed: top-level headings read that
  are none (a list item) and true ones not read, summed;
* with ``--segment``, also ``segment_text(text)`` end to end (format guessed, default model), with the embedder.

::

    python benchmarks/numbered_text.py --out /tmp/numbered    # PEPs train, every style and list layout
    python benchmarks/numbered_text.py --splits train val     # the snapshot in results/ (val: report once)
    python benchmarks/numbered_text.py --segment --limit 40 --out /tmp/numbered   # end to end, a quick look

Writes ``<out>.md`` (the table) and ``<out>.json`` (config, machine, summaries, the five lowest documents below 0.99 ARI), default
``benchmarks/results/numbered_text``. Needs the bench package (``pip install -e ./bench``) and the PEPs
(``shared/data/peps`` or ``$BPSEG_PEPS_DIR``).
"""

from __future__ import annotations

import argparse
import bisect
import re
import shlex
import sys
import time
import warnings
from pathlib import Path

import numpy as np

RESULTS = Path(__file__).resolve().parent / "results" / "numbered_text"
STYLES = ("dot", "rfc")
LISTS = ("line", "blank", "bare")
#: A list marker inside a block: a number and a dot, then a space, at the block's start or after a space.
_MARKER = re.compile(r"(?:\A|(?<=\s))(\d{1,2})\.\s+(?=\S)")


def split_list(text: str) -> list[str] | None:
    """A block holding a numbered list inline, as its lead-in (if any) and its items; None if it holds none.

    The list starts at a ``1.`` at the block's start or after a sentence end or colon (``protocol 1. The``
    is no list), then ``2.``, ``3.``, ... in order; at least two items."""
    marks = [m for m in _MARKER.finditer(text)]
    for i, m in enumerate(marks):
        if m.group(1) != "1" or not (m.start() == 0 or re.search(r"[.:!?;)]\s+\Z", text[: m.start()])):
            continue
        items, want = [m], 2
        for n in marks[i + 1 :]:
            if int(n.group(1)) == want:
                items.append(n)
                want += 1
        if len(items) < 2:
            continue
        cuts = [x.start() for x in items] + [len(text)]
        lead = text[: cuts[0]].strip()
        return ([lead] if lead else []) + [text[a:b].strip() for a, b in zip(cuts, cuts[1:])]
    return None


def _body(text: str, lists: str) -> str:
    """A block as written: its inline list one item a line or a paragraph (:func:`split_list`); with ``bare``, each
    list item's final period dropped (a block that is an item of its own too)."""
    items = split_list(text)
    if lists == "bare":
        if items is None:
            return text.rstrip(".") if _MARKER.match(text) else text
        items = [x.rstrip(".") if _MARKER.match(x) else x for x in items]
    return text if items is None else ("\n" if lists == "line" else "\n\n").join(items)


def _heading(style: str, number: tuple[int, ...], title: str) -> str:
    if style == "rfc":
        return f"{'.'.join(map(str, number))}.  {title}"
    return f"{number[0]}. {title}" if len(number) == 1 else f"{'.'.join(map(str, number))} {title}"


def compose(obj: dict, style: str, lists: str) -> tuple[str, list[int], list[int], list[bool]]:
    """The PEP as numbered plain text; each piece's start offset, its gold section, and whether it is a top-level
    title."""
    parts: list[str] = []
    starts: list[int] = []
    gold: list[int] = []
    title: list[bool] = []
    index: dict[str, int] = {}
    last: tuple = (None, None)
    pos = n1 = n2 = 0
    for block in obj["blocks"]:
        if not block["text"].strip():
            continue
        section = index.setdefault(block["h1"], len(index))
        pieces = []
        if block["h1"] != last[0]:
            n1, n2 = n1 + 1, 0
            pieces.append((_heading(style, (n1,), " ".join(block["h1"].split())), True))
        if block["h2"] and (block["h1"], block["h2"]) != last:
            n2 += 1
            pieces.append((_heading(style, (n1, n2), " ".join(block["h2"].split())), False))
        last = (block["h1"], block["h2"])
        body = _body(block["text"], lists)
        for piece, top in [*pieces, (body, False)]:
            parts.append(piece)
            starts.append(pos)
            gold.append(section)
            title.append(top)
            pos += len(piece) + 2
    return "\n\n".join(parts) + "\n", starts, gold, title


def reader_labels(text: str, spans) -> np.ndarray:
    """The sections the library makes of ``text`` read as numbered text, with the headings deciding them: one
    label per unit at ``spans``."""
    from bpseg_pgm.decisions.layout import document_layout
    from bpseg_pgm.policy import DEFAULT_POLICY
    from bpseg_pgm.text.layout import unit_layout

    paragraphs, headings = unit_layout(text, spans, False, "numbered")
    layout = document_layout(paragraphs, headings, "auto", DEFAULT_POLICY)
    labels = np.zeros(len(spans), dtype=np.int64)
    if layout.starts is not None and layout.evidence == "headings":
        labels[layout.starts] = 1
    return np.cumsum(labels)


def score_document(obj: dict, style: str, lists: str, embedder=None) -> dict:
    """One PEP in one rendering: the reader's ARI and Pk, the guessed format, false and missed top-level headings,
    and with ``embedder`` ``segment_text``'s ARI and Pk."""
    from bpseg_pgm.evaluation.metrics import evaluate
    from bpseg_pgm.structure.detect import read_structure
    from bpseg_pgm.text.checks import split_for_segmentation
    from bpseg_pgm.text.pipeline import read_format

    text, starts, gold, title = compose(obj, style, lists)
    _, spans = split_for_segmentation(text, False, False, "numbered")
    g = np.array([gold[max(0, bisect.bisect_right(starts, a) - 1)] for a, _ in spans])
    got = evaluate(g, reader_labels(text, spans))
    structure = read_structure(text, "numbered")
    top = {a for (a, _), level in zip(structure.headings, structure.heading_levels) if level == 1}
    true = {s for s, t in zip(starts, title) if t}
    row = {
        "id": obj["id"],
        "sections": len(set(gold)),
        "ari": got["ari"],
        "pk": got["pk"],
        "guessed": read_format(text, False),
        "false_headings": len(top - true),
        "missed_headings": len(true - top),
    }
    if embedder is not None:
        from bpseg_pgm.text import segment_text

        seg = segment_text(text, embedder=embedder)
        at = [gold[max(0, bisect.bisect_right(starts, a) - 1)] for a, _ in seg.spans]
        end = evaluate(np.array(at), seg.labels)
        row.update(segment_ari=end["ari"], segment_pk=end["pk"])
    return row


def run(splits: dict[str, list[dict]], styles, lists, embedder=None) -> dict:
    """Every PEP of each split (split name -> records with at least two sections) in every style and list layout:
    summaries and the lowest-scoring documents, keyed ``"<split> <style>/<lists>"``."""
    summaries, worst = {}, {}
    for split, records in splits.items():
        for style in styles:
            for layout in lists:
                rows = [score_document(r, style, layout, embedder) for r in records]
                key = f"{split} {style}/{layout}"
                summaries[key] = {
                    "documents": len(rows),
                    "ari": float(np.mean([r["ari"] for r in rows])),
                    "pk": float(np.mean([r["pk"] for r in rows])),
                    "guessed_numbered": sum(r["guessed"] == "numbered" for r in rows),
                    "false_headings": sum(r["false_headings"] for r in rows),
                    "missed_headings": sum(r["missed_headings"] for r in rows),
                    "below_0_9": sum(r["ari"] < 0.9 for r in rows),
                }
                if embedder is not None:
                    summaries[key]["segment_ari"] = float(np.mean([r["segment_ari"] for r in rows]))
                    summaries[key]["segment_pk"] = float(np.mean([r["segment_pk"] for r in rows]))
                worst[key] = [r for r in sorted(rows, key=lambda r: r["ari"])[:5] if r["ari"] < 0.99]
    return {"summaries": summaries, "worst": worst}


def render_markdown(result: dict, command: str) -> str:
    """The report: one row per split and rendering, then the lowest-scoring documents."""
    segment = result["config"]["segment"]
    machine = result["machine"]
    lines = [
        "# Numbered plain text against its sections (PEPs)",
        "",
        f"`{command}`: the PEPs with at least two sections, {result['seconds']:.0f} s on {machine['cpu']} "
        f'({machine["cores"]} cores), CPU only. Reader: `format="numbered"`, the headings deciding the sections; '
        "false / missed: top-level headings read that are none, and true ones not read.",
        "",
        "| split | headings / lists | documents | reader ARI | reader Pk | below 0.9 | guessed numbered | false / missed "
        "headings |" + (" `segment_text` ARI / Pk |" if segment else ""),
        "|---|---|---|---|---|---|---|---|" + ("---|" if segment else ""),
    ]
    for key, s in result["summaries"].items():
        split, rendering = key.split(" ")
        lines.append(
            f"| {split} | {rendering} | {s['documents']} | {s['ari']:.3f} | {s['pk']:.3f} | {s['below_0_9']} | "
            f"{s['guessed_numbered']} | {s['false_headings']} / {s['missed_headings']} |"
            + (f" {s['segment_ari']:.3f} / {s['segment_pk']:.3f} |" if segment else "")
        )
    lines += ["", "Lowest reader ARI (below 0.99):", ""]
    for key, rows in result["worst"].items():
        low = ", ".join(f"{r['id']} {r['ari']:.2f}" for r in rows) or "none"
        lines.append(f"- {key}: {low}")
    return "\n".join(lines) + "\n"


def parse_args(argv=None) -> argparse.Namespace:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--splits", nargs="+", default=["train"], choices=["train", "val"], help="PEPs splits (train)")
    p.add_argument("--styles", nargs="+", default=list(STYLES), choices=STYLES, help="heading styles (all)")
    p.add_argument("--lists", nargs="+", default=list(LISTS), choices=LISTS, help="list layouts (all)")
    p.add_argument("--limit", type=int, default=None, help="the first N PEPs by id per split (default: all)")
    p.add_argument("--segment", action="store_true", help="also segment_text(text) end to end (embeds; slow)")
    p.add_argument("--data-dir", default=None, help="the PEPs folder (default: shared/data/peps or $BPSEG_PEPS_DIR)")
    p.add_argument("--out", type=Path, default=RESULTS, help="output stem: <out>.md and <out>.json (%(default)s)")
    return p.parse_args(argv)


def main(argv=None) -> int:
    args = parse_args(argv)
    warnings.filterwarnings("ignore")
    from bpseg_bench.jsonl_data import read_records
    from bpseg_bench.peps import resolve_peps_dir
    from bpseg_bench.report import machine_info, write_results

    argv = sys.argv[1:] if argv is None else list(argv)
    command = "python benchmarks/numbered_text.py" + "".join(f" {shlex.quote(a)}" for a in argv)
    splits = {}
    for split in dict.fromkeys(args.splits):
        records = sorted(read_records(resolve_peps_dir(args.data_dir) / f"{split}.jsonl", ("blocks",)),
                         key=lambda r: r["id"])  # fmt: skip
        splits[split] = [r for r in records if len({b["h1"] for b in r["blocks"] if b["text"].strip()}) >= 2][
            : args.limit
        ]
    embedder = None
    if args.segment:
        from bpseg_bench.runner import make_embedder

        embedder = make_embedder(progress=False)
    start = time.perf_counter()
    result = run(splits, args.styles, args.lists, embedder)
    result["seconds"] = time.perf_counter() - start
    result["machine"] = machine_info()
    result["config"] = {"splits": list(splits), "styles": args.styles, "lists": args.lists, "limit": args.limit,
                        "segment": args.segment, "command": command}  # fmt: skip
    markdown = render_markdown(result, command)
    written = write_results(args.out, markdown, result)
    print(markdown)
    print("Wrote " + ", ".join(str(p) for p in written), file=sys.stderr)
    return 0


if __name__ == "__main__":
    sys.exit(main())
