"""Loader for Python Enhancement Proposals (PEPs) as sectioned real-prose segmentation documents.

Each line of ``train.jsonl`` / ``val.jsonl`` is one PEP, its prose paragraphs ("blocks") in reading
order with their headings::

    {"id": "pep-0572", "title": "...", "blocks": [{"h1": "Rationale", "h2": "..." | null, "text": "..."}, ...]}

Units are sentences: each block's text is split with :func:`bpseg_pgm.text.split.split_sentences`
(one block may give several sentences; a sentence never spans two blocks). A sentence's gold label
is its block's section: the ``h1`` heading (``level="section"``) or the sub-section, ``"h1 / h2"``
when the block has an ``h2`` and ``"h1"`` otherwise (``level="subsection"``). Labels are integers,
one per distinct heading text in order of first appearance, so a heading that comes back after
another one is a returning topic. That happens in 4 train PEPs at the section level (0207, whose
appendix repeats "Abstract" and "Motivation"; 0237; 0425; 0584, with "Advantages" /
"Disadvantages" twice) and 5 at the sub-section level (those and 0412); the val split has none.
``meta`` keeps the PEP's ``title``, its ``level`` and the block index of every sentence (``"block"``).
Documents with fewer than two sentences are skipped.

The data lives outside the package: ``data_dir``, else ``$BPSEG_PEPS_DIR``, else a
``shared/data/peps`` folder above the working directory or this file. Only the train and val
splits exist; a further part of the PEPs is held out on purpose and is not rebuilt.
"""

from __future__ import annotations

import functools
import os
from collections.abc import Iterable
from pathlib import Path

from bpseg_bench.corpus import LabelledDocument
from bpseg_bench.jsonl_data import find_data_dir, read_records, split_files
from bpseg_pgm.text.split import split_sentences

__all__ = ["PEPS_LEVELS", "PEPS_SPLITS", "WHERE_TO_GET", "heading", "load_peps", "parse_pep", "resolve_peps_dir"]

ENV_VAR = "BPSEG_PEPS_DIR"
#: Where the data comes from (it is not shipped), said when it is not found.
WHERE_TO_GET = (
    "build train.jsonl and val.jsonl from the public-domain and CC0 PEPs of https://github.com/python/peps, one PEP "
    'a line as {"id", "title", "blocks": [{"h1", "h2", "text"}, ...]} (see bpseg_bench.peps)'
)
PEPS_SPLITS = ("train", "val")
PEPS_LEVELS = ("section", "subsection")
_RELATIVE = Path("shared") / "data" / "peps"


def resolve_peps_dir(data_dir: str | os.PathLike | None = None) -> Path:
    """The PEPs folder (holding ``train.jsonl`` and ``val.jsonl``); ValueError when none is found."""
    return find_data_dir(data_dir, ENV_VAR, _RELATIVE, PEPS_SPLITS, "PEPs", WHERE_TO_GET)


def heading(block: dict, level: str = "section") -> str:
    """A block's gold heading: ``h1`` (``"section"``), or ``"h1 / h2"`` / ``"h1"`` (``"subsection"``)."""
    if level == "subsection" and block.get("h2") is not None:
        return f"{block['h1']} / {block['h2']}"
    return block["h1"]


def parse_pep(obj: dict, doc_id: str, level: str = "section") -> LabelledDocument:
    """One PEP record as a LabelledDocument: one unit per sentence, one integer label per heading."""
    units: list[str] = []
    labels: list[int] = []
    blocks: list[int] = []
    index: dict[str, int] = {}
    for b, block in enumerate(obj["blocks"]):
        for sentence in split_sentences(block["text"]):  # a block without a sentence names no heading
            units.append(sentence)
            labels.append(index.setdefault(heading(block, level), len(index)))
            blocks.append(b)
    meta = {"title": obj.get("title", ""), "level": level, "block": blocks}
    return LabelledDocument(doc_id, tuple(units), tuple(labels), meta)


def load_peps(
    data_dir: str | os.PathLike | None = None,
    splits: Iterable[str] = ("train",),
    limit: int | None = None,
    level: str = "section",
) -> list[LabelledDocument]:
    """PEPs of the given splits (``"train"``, ``"val"``), sorted by id within a split, gold at ``level``
    (``"section"`` or ``"subsection"``); documents of fewer than two sentences are skipped, and
    ``limit`` counts the documents kept, per split."""
    root = functools.partial(resolve_peps_dir, data_dir)
    docs = []
    for split, path in split_files(root, splits, PEPS_SPLITS, level, PEPS_LEVELS, limit, "PEPs"):
        kept = []
        for obj in sorted(read_records(path, ("blocks",)), key=lambda o: o["id"]):
            doc = parse_pep(obj, f"peps/{split}/{obj['id']}", level)
            if len(doc) >= 2:
                kept.append(doc)
            if limit is not None and len(kept) == limit:
                break
        docs.extend(kept)
    return docs
