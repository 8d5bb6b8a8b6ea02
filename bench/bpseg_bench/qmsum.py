"""Loader for QMSum (Zhong et al., 2021) meeting transcripts as topic-segmentation documents.

Units are speaker turns; a turn's gold label is the topic whose ``relevant_text_span`` covers
it (spans are turn indices, both ends inclusive; a turn covered by two topics takes the first
listed), and turns no topic covers (~7%: chit-chat, microphone checks) are unlabelled. A topic
with several spans returns later in the meeting: those documents are non-contiguous gold.

Transcription markers such as ``{disfmarker}`` and ``{vocalsound}`` are annotation, not words:
they are removed from the unit text (a turn made only of markers keeps its raw text).

The data lives outside the package: ``data_dir``, else ``$BPSEG_QMSUM_DIR``, else a
``shared/data/qmsum`` folder above the working directory or this file. Only the train and
val splits are used; the test split is kept unseen on purpose.
"""

from __future__ import annotations

import json
import os
import re
from collections.abc import Iterable
from pathlib import Path

from bpseg_bench.corpus import LabelledDocument
from bpseg_pgm.utils.validation import check_limit

__all__ = ["QMSUM_SPLITS", "WHERE_TO_GET", "clean_turn", "load_qmsum", "resolve_qmsum_dir"]

ENV_VAR = "BPSEG_QMSUM_DIR"
#: Where the data can be had (it is not shipped), said when it is not found.
WHERE_TO_GET = "get QMSum's meetings from data/ALL/train and data/ALL/val of https://github.com/Yale-LILY/QMSum"
QMSUM_SPLITS = ("train", "val")
_RELATIVE = Path("shared") / "data" / "qmsum"
_MARKER = re.compile(r"\{[a-z_]+\}")
_SPACES = re.compile(r"\s+")


def resolve_qmsum_dir(data_dir: str | os.PathLike | None = None) -> Path:
    """The QMSum folder (holding ``train/`` and ``val/``); ValueError when none is found."""
    if data_dir is not None or os.environ.get(ENV_VAR):
        path = Path(data_dir if data_dir is not None else os.environ[ENV_VAR]).expanduser()
        if not (path / "train").is_dir() and not (path / "val").is_dir():
            raise ValueError(f"{str(path)!r} is not a QMSum data folder (expected train/ and val/): {WHERE_TO_GET}")
        return path
    for start in (Path.cwd(), Path(__file__).parent):
        for parent in (start.resolve(), *start.resolve().parents):
            if (parent / _RELATIVE / "train").is_dir():
                return parent / _RELATIVE
    raise ValueError(
        f"QMSum data not found (no {_RELATIVE} above the current folder or the package): {WHERE_TO_GET}; then set "
        f"${ENV_VAR} to the folder holding train/ and val/ or pass it (data_dir=)"
    )


def clean_turn(text: str) -> str:
    """A turn without transcription markers, whitespace collapsed (the raw text if nothing is left)."""
    cleaned = _SPACES.sub(" ", _MARKER.sub(" ", text)).strip()
    return cleaned if cleaned.strip(" .,?!-") else _SPACES.sub(" ", text).strip() or text


def _spans(raw) -> list[tuple[int, int]]:
    return [(int(a), int(b)) for a, b in raw]


def parse_meeting(path: Path, doc_id: str) -> LabelledDocument:
    """One QMSum meeting file as a LabelledDocument (queries in ``meta["queries"]``)."""
    obj = json.loads(path.read_text(encoding="utf-8"))
    turns = obj["meeting_transcripts"]
    units = tuple(clean_turn(t["content"]) for t in turns)
    labels: list[int | None] = [None] * len(units)
    for t, topic in enumerate(obj.get("topic_list", [])):
        for a, b in _spans(topic["relevant_text_span"]):
            for i in range(max(a, 0), min(b, len(units) - 1) + 1):
                if labels[i] is None:
                    labels[i] = t
    queries = [
        {"query": q["query"], "spans": _spans(q["relevant_text_span"])} for q in obj.get("specific_query_list", [])
    ]
    meta = {"speakers": [t.get("speaker", "") for t in turns], "queries": queries}
    return LabelledDocument(doc_id, units, tuple(labels), meta)


def load_qmsum(
    data_dir: str | os.PathLike | None = None, splits: Iterable[str] = ("train",), limit: int | None = None
) -> list[LabelledDocument]:
    """Meetings of the given splits (``"train"``, ``"val"``), sorted by file name within a split."""
    splits = tuple(splits)
    bad = [s for s in splits if s not in QMSUM_SPLITS]
    if bad or not splits:
        raise ValueError(f"QMSum splits must be among {QMSUM_SPLITS}, got {list(splits)}")
    check_limit(limit)
    root = resolve_qmsum_dir(data_dir)
    docs = []
    for split in splits:
        files = sorted((root / split).glob("*.json"))
        if not files:
            raise ValueError(f"no QMSum meetings in {root / split}")
        for path in files[:limit]:
            docs.append(parse_meeting(path, f"qmsum/{split}/{path.stem}"))
    return docs
