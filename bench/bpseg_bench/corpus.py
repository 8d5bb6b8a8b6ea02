"""One corpus format for every segmentation benchmark: a document's units and gold labels.

A corpus is a JSONL file, one document per line::

    {"id": "qmsum/val/Bed004", "units": ["Okay .", "So ...", ...], "labels": ["t0", "t0", null, ...]}

* ``units``: the document's units in reading order (sentences, or meeting turns), strings;
* ``labels``: one gold label per unit (a string or an integer; the same label on units far
  apart means a topic that returns), or ``null`` for a unit that belongs to no gold segment
  (chit-chat between topics). Scores are computed on the labelled units only;
* any other keys (``"meta"``) are kept and ignored by the scorer.

:func:`read_corpus` (the one JSONL reader, :func:`bpseg_pgm.io.documents.read_jsonl`, with
:func:`labelled_record`) / :func:`write_corpus` convert. Every document is a
:class:`~bpseg_pgm.types.document.Document` with gold ``labels``: :class:`LabelledDocument` here and
from the QMSum loader, ``ChoiDocument`` / ``InterleavedDocument`` from the Choi loaders; every
benchmark segments them through one runner (:mod:`bpseg_bench.runner`).
"""

from __future__ import annotations

import json
import os
from collections.abc import Iterable, Sequence
from pathlib import Path
from typing import Any

import numpy as np

from bpseg_pgm.io.documents import read_jsonl, record_id
from bpseg_pgm.io.reports import write_atomically
from bpseg_pgm.types.document import Document
from bpseg_pgm.utils.validation import check_str_list

__all__ = ["LabelledDocument", "corpus_to_jsonl", "from_choi", "labelled_record", "read_corpus", "write_corpus"]


class LabelledDocument(Document):
    """A :class:`~bpseg_pgm.types.document.Document` built as ``LabelledDocument(doc_id, units, labels, meta)``:
    ``units`` (strings) and one gold label per unit (None: unlabelled)."""

    def __init__(self, doc_id: str, units: Sequence[str], labels: Sequence[Any], meta: dict | None = None):
        super().__init__(doc_id, units=units, labels=labels, meta={} if meta is None else meta)


def from_choi(doc) -> LabelledDocument:
    """A :class:`~bpseg_bench.choi.ChoiDocument` or interleaved document as a LabelledDocument."""
    meta = {k: getattr(doc, k) for k in ("set", "range") if hasattr(doc, k)}
    return LabelledDocument(str(doc.doc_id), tuple(doc.sentences), tuple(int(x) for x in doc.labels), meta)


def labelled_record(obj: dict, where: str, default_id: str) -> LabelledDocument:
    """One line of a benchmark corpus as a document (see the module docstring); ValueError naming ``where``."""
    units, labels = obj.get("units"), obj.get("labels")
    if units is None:
        raise ValueError(f"{where}: the record has no 'units'")
    try:
        units = check_str_list(units, "'units'", item="unit")
    except ValueError as exc:
        raise ValueError(f"{where}: {exc}") from None
    if not units:
        raise ValueError(f"{where}: 'units' is empty")
    if not isinstance(labels, list) or len(labels) != len(units):
        raise ValueError(f"{where}: 'labels' must be a list with one label (or null) per unit")
    for lab in labels:
        if lab is not None and (isinstance(lab, bool) or not isinstance(lab, (str, int))):
            raise ValueError(f"{where}: labels must be strings, integers or null, got {lab!r}")
    if all(lab is None for lab in labels):
        raise ValueError(f"{where}: every label is null")
    return LabelledDocument(record_id(obj, where, default_id), units, tuple(labels), obj.get("meta") or {})


def read_corpus(path: str | os.PathLike, limit: int | None = None) -> list[LabelledDocument]:
    """Read a JSONL corpus (see the module docstring) with :func:`bpseg_pgm.io.documents.read_jsonl`;
    ValueError naming the line on bad input."""
    if limit is not None and (isinstance(limit, bool) or not isinstance(limit, (int, np.integer)) or limit < 1):
        raise ValueError(f"limit must be a positive integer, got {limit!r}")
    path = Path(path)
    if not path.is_file():
        raise ValueError(f"corpus file {path} does not exist")
    docs = read_jsonl(path, labelled_record, limit=limit)
    if not docs:
        raise ValueError(f"corpus file {path} holds no documents")
    return docs


def corpus_to_jsonl(docs: Iterable[LabelledDocument]) -> str:
    """The JSONL text of ``docs`` (one object per line, ending in a newline)."""
    lines = []
    for d in docs:
        obj = {"id": d.doc_id, "units": list(d.units), "labels": [_plain(x) for x in d.labels]}
        if d.meta:
            obj["meta"] = d.meta
        lines.append(json.dumps(obj, ensure_ascii=False))
    return "\n".join(lines) + "\n"


def _plain(x):
    return int(x) if isinstance(x, np.integer) else x


def write_corpus(docs: Sequence[LabelledDocument], path: str | os.PathLike) -> Path:
    """Write ``docs`` as a JSONL corpus, all-or-nothing; returns the path."""
    return write_atomically({path: corpus_to_jsonl(docs)})[0]
