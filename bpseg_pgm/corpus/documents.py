"""The documents of a corpus to segment: read from a folder, a JSONL file or a Parquet file.

* a **folder**: every ``.txt`` and ``.md`` file under it (sub-folders included, hidden files and
  folders skipped), in sorted order; a document's id is its path relative to the folder
  (``reports/2024/q1.txt``);
* a **JSONL** file (``.jsonl`` / ``.ndjson``): one object per line, ``{"id": ..., "text": "..."}``
  or ``{"id": ..., "units": ["...", ...]}`` (units: sentences or turns, taken as they are);
* a **Parquet** file (``.parquet``): a column ``id`` and a column ``text`` or ``units``
  (a list of strings).

What makes a *document* unusable (a binary or empty file, text that is not UTF-8, a record whose
``text`` is not a string) is kept as the document's ``error``: it becomes an error row in the
output and the other documents go on. What makes the *input* unusable (a path that does not exist,
a line that is not JSON, a record without an id, two documents with one id) is a ``ValueError``
before any work, naming the place.
"""

from __future__ import annotations

import json
import os
from dataclasses import dataclass
from pathlib import Path
from typing import Any

__all__ = ["CorpusDocument", "read_documents", "TEXT_SUFFIXES", "DEFAULT_MAX_BYTES"]

TEXT_SUFFIXES = (".txt", ".md")
_JSONL_SUFFIXES = (".jsonl", ".ndjson")
_PARQUET_SUFFIXES = (".parquet", ".pq")
DEFAULT_MAX_BYTES = 50 * 2**20  # per document, as `bpseg segment --max-bytes`


@dataclass(frozen=True)
class CorpusDocument:
    """One document: its ``id`` and either ``text`` or ``units``, or the ``error`` that stops it."""

    id: str
    text: str | None = None
    units: tuple[str, ...] | None = None
    error: str | None = None

    @property
    def size(self) -> int:
        """Characters to embed (0 for a document in error): what tasks are balanced on."""
        if self.text is not None:
            return len(self.text)
        return sum(len(u) for u in self.units) if self.units is not None else 0


def read_documents(source: str | os.PathLike, max_bytes: int = DEFAULT_MAX_BYTES) -> list[CorpusDocument]:
    """The documents of ``source`` (a folder, a ``.jsonl`` or a ``.parquet`` file), in order."""
    if isinstance(source, bool) or not isinstance(source, (str, os.PathLike)) or not os.fspath(source):
        raise ValueError(f"corpus input must be a folder or file path, got {source!r}")
    path = Path(source)
    if not path.exists():
        raise ValueError(f"corpus input does not exist: {os.fspath(source)}")
    if path.is_dir():
        docs = _read_folder(path, max_bytes)
    elif path.suffix.lower() in _JSONL_SUFFIXES:
        docs = _read_jsonl(path)
    elif path.suffix.lower() in _PARQUET_SUFFIXES:
        docs = _read_parquet(path)
    else:
        raise ValueError(f"{os.fspath(source)}: expected a folder of .txt/.md files, a .jsonl or a .parquet file")
    if not docs:
        raise ValueError(f"{os.fspath(source)} holds no documents"
                         + (" (no .txt or .md files)" if path.is_dir() else ""))
    return docs


def decode_document(data: bytes) -> str:
    """UTF-8 text (a byte-order mark dropped), or a ValueError saying why ``data`` is not text."""
    if b"\x00" in data:
        raise ValueError("looks like a binary file (it contains NUL bytes); expected UTF-8 text")
    try:
        return data.decode("utf-8-sig")
    except UnicodeDecodeError as exc:
        raise ValueError(f"not valid UTF-8 (byte 0x{data[exc.start]:02x} at offset {exc.start})") from None


def _read_folder(root: Path, max_bytes: int) -> list[CorpusDocument]:
    docs = []
    for dirpath, dirnames, filenames in os.walk(root):
        dirnames[:] = sorted(d for d in dirnames if not d.startswith("."))
        for name in filenames:
            if name.startswith(".") or not name.lower().endswith(TEXT_SUFFIXES):
                continue
            docs.append(_read_file(Path(dirpath) / name, Path(dirpath, name).relative_to(root).as_posix(), max_bytes))
    return sorted(docs, key=lambda d: d.id)


def _read_file(path: Path, doc_id: str, max_bytes: int) -> CorpusDocument:
    try:
        if path.stat().st_size > max_bytes:
            return CorpusDocument(doc_id, error=f"larger than {max_bytes} bytes")
        return CorpusDocument(doc_id, text=decode_document(path.read_bytes()))
    except ValueError as exc:
        return CorpusDocument(doc_id, error=str(exc))
    except OSError as exc:
        return CorpusDocument(doc_id, error=f"cannot read: {exc.strerror or exc}")


def _doc_id(value: Any, where: str) -> str:
    if isinstance(value, bool) or not isinstance(value, (str, int)) or str(value) == "":
        raise ValueError(f"{where}: 'id' must be a non-empty string or an integer, got {value!r}")
    return str(value)


def _record(obj: Any, where: str) -> CorpusDocument:
    """One JSONL/Parquet record as a document; a bad id is fatal, bad content is the document's error."""
    if not isinstance(obj, dict):
        raise ValueError(f"{where}: expected a JSON object, got {type(obj).__name__}")
    if "id" not in obj:
        raise ValueError(f"{where}: the record has no 'id'")
    doc_id = _doc_id(obj["id"], where)
    text, units = obj.get("text"), obj.get("units")
    if text is not None and units is not None:
        return CorpusDocument(doc_id, error="has both 'text' and 'units'; give one")
    if text is None and units is None:
        return CorpusDocument(doc_id, error="has neither 'text' nor 'units'")
    if text is not None:
        if not isinstance(text, str):
            return CorpusDocument(doc_id, error=f"'text' is {type(text).__name__}, not a string")
        return CorpusDocument(doc_id, text=text)
    if isinstance(units, (str, bytes)) or not isinstance(units, (list, tuple)):
        return CorpusDocument(doc_id, error=f"'units' must be a list of strings, got {type(units).__name__}")
    bad = [i for i, u in enumerate(units) if not isinstance(u, str)]
    if bad:
        return CorpusDocument(doc_id, error=f"unit {bad[0]} is {type(units[bad[0]]).__name__}, not a string")
    return CorpusDocument(doc_id, units=tuple(units))


def _unique(docs: list[CorpusDocument], source: Path) -> list[CorpusDocument]:
    seen: dict[str, int] = {}
    for i, d in enumerate(docs):
        if d.id in seen:
            raise ValueError(f"{source}: id {d.id!r} is used by records {seen[d.id] + 1} and {i + 1}; ids must be unique")
        seen[d.id] = i
    return docs


def _read_jsonl(path: Path) -> list[CorpusDocument]:
    try:
        raw = path.read_bytes()
    except OSError as exc:
        raise ValueError(f"cannot read {path}: {exc.strerror or exc}") from None
    try:
        lines = decode_document(raw).splitlines()
    except ValueError as exc:
        raise ValueError(f"{path}: {exc}") from None
    docs = []
    for n, line in enumerate(lines, 1):
        if not line.strip():
            continue
        try:
            obj = json.loads(line)
        except json.JSONDecodeError as exc:
            raise ValueError(f"{path} line {n}: not valid JSON ({exc.msg})") from None
        docs.append(_record(obj, f"{path} line {n}"))
    return _unique(docs, path)


def _read_parquet(path: Path) -> list[CorpusDocument]:
    import pyarrow as pa
    import pyarrow.parquet as pq

    try:
        table = pq.read_table(path)
    except (OSError, pa.ArrowException) as exc:
        raise ValueError(f"cannot read {path} as Parquet: {' '.join(str(exc).split())}") from None
    names = set(table.column_names)
    if "id" not in names or not names & {"text", "units"}:
        raise ValueError(f"{path}: expected columns 'id' and 'text' or 'units', found {sorted(names)}")
    columns = [c for c in ("id", "text", "units") if c in names]
    records = table.select(columns).to_pylist()
    return _unique([_record(obj, f"{path} row {i + 1}") for i, obj in enumerate(records)], path)
