"""One corpus format for every segmentation benchmark: a document's units and gold labels.

A corpus is a JSONL file, one document per line::

    {"id": "qmsum/val/Bed004", "units": ["Okay .", "So ...", ...], "labels": ["t0", "t0", null, ...]}

* ``units``: the document's units in reading order (sentences, or meeting turns), strings;
* ``labels``: one gold label per unit (a string or an integer; the same label on units far
  apart means a topic that returns), or ``null`` for a unit that belongs to no gold segment
  (chit-chat between topics). Scores are computed on the labelled units only;
* any other keys (``"meta"``) are kept and ignored by the scorer.

:func:`read_corpus` / :func:`write_corpus` convert; the dataset loaders (Choi, QMSum,
interleaved) return :class:`LabelledDocument` lists in the same shape, so every benchmark
runs through one code path (:mod:`bpseg_pgm.evaluation.bench_corpus`).
"""

from __future__ import annotations

import json
import os
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import numpy as np

__all__ = ["LabelledDocument", "from_choi", "read_corpus", "write_corpus", "corpus_to_jsonl"]


@dataclass(frozen=True)
class LabelledDocument:
    """A document to segment: ``units`` (strings) and one gold label per unit (None: unlabelled)."""

    doc_id: str
    units: tuple[str, ...]
    labels: tuple[Any, ...]
    meta: dict = field(default_factory=dict, compare=False)

    def __post_init__(self):
        if len(self.units) != len(self.labels):
            raise ValueError(f"{self.doc_id}: {len(self.units)} units but {len(self.labels)} labels")

    def __len__(self) -> int:
        return len(self.units)

    @property
    def sentences(self) -> tuple[str, ...]:
        return self.units

    @property
    def labelled(self) -> np.ndarray:
        """Boolean mask of the units that carry a gold label."""
        return np.array([lab is not None for lab in self.labels], dtype=bool)

    @property
    def gold(self) -> np.ndarray:
        """Integer gold labels of the labelled units (first appearance order, 0-based)."""
        codes: dict[Any, int] = {}
        return np.array([codes.setdefault(lab, len(codes)) for lab in self.labels if lab is not None], dtype=np.int64)

    @property
    def n_segments(self) -> int:
        """Number of distinct gold labels (topics; a returning topic counts once)."""
        return len({lab for lab in self.labels if lab is not None})


def from_choi(doc) -> LabelledDocument:
    """A :class:`~bpseg_pgm.evaluation.choi.ChoiDocument` or interleaved document as a LabelledDocument."""
    meta = {k: getattr(doc, k) for k in ("set", "range") if hasattr(doc, k)}
    return LabelledDocument(str(doc.doc_id), tuple(doc.sentences), tuple(int(x) for x in doc.labels), meta)


def _check_record(obj: Any, where: str) -> LabelledDocument:
    if not isinstance(obj, dict):
        raise ValueError(f"{where}: expected a JSON object, got {type(obj).__name__}")
    units, labels = obj.get("units"), obj.get("labels")
    if not isinstance(units, list) or not units or not all(isinstance(u, str) for u in units):
        raise ValueError(f"{where}: 'units' must be a non-empty list of strings")
    if not isinstance(labels, list) or len(labels) != len(units):
        raise ValueError(f"{where}: 'labels' must be a list with one label (or null) per unit")
    for lab in labels:
        if lab is not None and (isinstance(lab, bool) or not isinstance(lab, (str, int))):
            raise ValueError(f"{where}: labels must be strings, integers or null, got {lab!r}")
    if all(lab is None for lab in labels):
        raise ValueError(f"{where}: every label is null")
    doc_id = obj.get("id", where)
    if not isinstance(doc_id, (str, int)):
        raise ValueError(f"{where}: 'id' must be a string")
    return LabelledDocument(str(doc_id), tuple(units), tuple(labels), obj.get("meta") or {})


def read_corpus(path: str | os.PathLike, limit: int | None = None) -> list[LabelledDocument]:
    """Read a JSONL corpus (see the module docstring); ValueError naming the line on bad input."""
    if limit is not None and (isinstance(limit, bool) or not isinstance(limit, (int, np.integer)) or limit < 1):
        raise ValueError(f"limit must be a positive integer, got {limit!r}")
    path = Path(path)
    if not path.is_file():
        raise ValueError(f"corpus file {path} does not exist")
    docs: list[LabelledDocument] = []
    seen: set[str] = set()
    with path.open(encoding="utf-8") as fh:
        for lineno, line in enumerate(fh, 1):
            if not line.strip():
                continue
            try:
                obj = json.loads(line)
            except json.JSONDecodeError as exc:
                raise ValueError(f"{path}:{lineno}: not JSON ({exc.msg})") from None
            doc = _check_record(obj, f"{path}:{lineno}")
            if doc.doc_id in seen:
                raise ValueError(f"{path}:{lineno}: duplicate id {doc.doc_id!r}")
            seen.add(doc.doc_id)
            docs.append(doc)
            if limit is not None and len(docs) >= limit:
                break
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
    from bpseg_pgm.io.reports import write_atomically

    return write_atomically({path: corpus_to_jsonl(docs)})[0]
