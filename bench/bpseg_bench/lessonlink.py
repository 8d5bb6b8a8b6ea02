"""Loader for LessonLink (Wang et al., EMNLP 2024 Findings) tutoring transcripts as segmentation documents.

Each line of ``train.jsonl`` / ``val.jsonl`` is one real tutoring session, one utterance a unit (the speaker is
not prefixed)::

    {"id": "05ac49ca-...", "units": ["All right. Hello, everyone! ...", ...], "segment": [0, 0, ...],
     "problem": [-1, -1, ..., 0, 0, ...]}

``segment`` is the annotated segment of each utterance (contiguous, 0..k-1), ``problem`` the worksheet problem it
discusses (0..p-1, or -1 for none). The gold labels are the segments (``level="segment"``, every unit labelled) or
the problems (``level="problem"``: a unit on no problem is unlabelled, None; about half the units). Every segment
lies within one problem (or none). No problem returns after another in these transcripts; 2 train and 3 val
transcripts discuss no problem at all and are skipped at the problem level. ``meta`` keeps the ``level`` and the
other annotation (``"problem"`` at the segment level, ``"segment"`` at the problem level).

The data lives outside the package: ``data_dir``, else ``$BPSEG_LESSONLINK_DIR``, else a
``shared/data/lessonlink`` folder above the working directory or this file. Only 130 of the 300 transcripts are
used (90 train, 40 val); the others are kept out on purpose, as an unseen test: they are never fetched or rebuilt.
"""

from __future__ import annotations

import functools
import os
from collections.abc import Iterable
from pathlib import Path

from bpseg_bench.corpus import LabelledDocument
from bpseg_bench.jsonl_data import find_data_dir, int_list, read_records, split_files
from bpseg_pgm.utils.validation import check_str_list

__all__ = [
    "LESSONLINK_LEVELS",
    "LESSONLINK_SPLITS",
    "WHERE_TO_GET",
    "load_lessonlink",
    "parse_transcript",
    "resolve_lessonlink_dir",
]

ENV_VAR = "BPSEG_LESSONLINK_DIR"
#: Where the data can be had (it is not shipped), said when it is not found.
WHERE_TO_GET = (
    "get LessonLink's train and val transcripts (Apache-2.0) from https://github.com/rosewang2008/posr, one a line "
    'as {"id", "units", "segment", "problem"} (see bpseg_bench.lessonlink)'
)
LESSONLINK_SPLITS = ("train", "val")
LESSONLINK_LEVELS = ("segment", "problem")
_RELATIVE = Path("shared") / "data" / "lessonlink"
_KEYS = ("units", "segment", "problem")


def resolve_lessonlink_dir(data_dir: str | os.PathLike | None = None) -> Path:
    """The LessonLink folder (holding ``train.jsonl`` and ``val.jsonl``); ValueError when none is found."""
    return find_data_dir(data_dir, ENV_VAR, _RELATIVE, LESSONLINK_SPLITS, "LessonLink", WHERE_TO_GET)


def parse_transcript(obj: dict, doc_id: str, level: str = "segment", where: str | None = None) -> LabelledDocument:
    """One LessonLink record as a LabelledDocument: one unit per utterance, gold = its segment or its problem
    (-1, no problem: unlabelled); ValueError naming ``where`` on a malformed record."""
    where = where or doc_id
    try:
        units = check_str_list(obj["units"], "'units'", item="unit")
    except ValueError as exc:
        raise ValueError(f"{where}: {exc}") from None
    segment = int_list(obj["segment"], len(units), "segment", where)
    problem = int_list(obj["problem"], len(units), "problem", where)
    if level == "segment":
        labels: tuple = tuple(segment)
        meta = {"level": level, "problem": problem}
    else:
        labels = tuple(None if p < 0 else p for p in problem)
        meta = {"level": level, "segment": segment}
    return LabelledDocument(doc_id, tuple(units), labels, meta)


def load_lessonlink(
    data_dir: str | os.PathLike | None = None,
    splits: Iterable[str] = ("train",),
    limit: int | None = None,
    level: str = "segment",
) -> list[LabelledDocument]:
    """Transcripts of the given splits (``"train"``, ``"val"``), sorted by id within a split, gold at ``level``
    (``"segment"`` or ``"problem"``); transcripts of fewer than two units, or (at the problem level) with no unit
    on a problem, are skipped, and ``limit`` counts the documents kept, per split."""
    root = functools.partial(resolve_lessonlink_dir, data_dir)
    docs = []
    for split, path in split_files(root, splits, LESSONLINK_SPLITS, level, LESSONLINK_LEVELS, limit, "LessonLink"):
        kept = []
        for obj in sorted(read_records(path, _KEYS), key=lambda o: o["id"]):
            doc = parse_transcript(obj, f"lessonlink/{split}/{obj['id']}", level, where=f"{path} id {obj['id']}")
            if len(doc) >= 2 and any(lab is not None for lab in doc.labels):
                kept.append(doc)
            if limit is not None and len(kept) == limit:
                break
        docs.extend(kept)
    return docs
