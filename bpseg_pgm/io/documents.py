"""The one document reader: a folder, a JSONL file or a Parquet file as :class:`~bpseg_pgm.types.document.Document` s.

* a **folder**: every ``.txt`` and ``.md`` file under it (sub-folders included, hidden files and
  folders skipped), in sorted order; a document's id is its path relative to the folder
  (``reports/2024/q1.txt``);
* a **JSONL** file (``.jsonl`` / ``.ndjson``): one object per line, ``{"id": ..., "text": "..."}``
  or ``{"id": ..., "units": ["...", ...]}`` (units: sentences or turns, taken as they are);
* a **Parquet** file (``.parquet``): a column ``id`` and a column ``text`` or ``units``
  (a list of strings).

:func:`read_documents` reads any of them (``bpseg corpus``); :func:`read_jsonl` is the JSONL reader
itself, which the benchmark corpus (:func:`bpseg_pgm.evaluation.corpus.read_corpus`) uses with its
own record format. One set of rules for both: the file is UTF-8 (a byte-order mark dropped), lines
end at ``\\n`` (or ``\\r\\n``, ``\\r``) only, so a U+2028 or U+0085 inside a JSON string stays in its
string; blank lines are skipped; a line that is not JSON is ``<file> line <n>: not valid JSON (...)``;
ids are compared as strings and must be unique.

What makes a *document* unusable (a binary or empty file, text that is not UTF-8, a record whose
``text`` is not a string) is kept as the document's ``error``: it becomes an error row in the
output and the other documents go on. What makes the *input* unusable (a path that does not exist,
a line that is not JSON, a record without an id, two documents with one id) is a ``ValueError``
before any work, naming the place.
"""

from __future__ import annotations

import json
import os
import re
from collections.abc import Callable
from pathlib import Path

from bpseg_pgm.io.decoding import DEFAULT_MAX_BYTES, decode_text
from bpseg_pgm.types.document import Document
from bpseg_pgm.utils.validation import check_str_list

__all__ = [
    "DEFAULT_MAX_BYTES",
    "JSONL_SUFFIXES",
    "PARQUET_SUFFIXES",
    "TEXT_SUFFIXES",
    "content_record",
    "read_documents",
    "read_jsonl",
    "record_id",
]

TEXT_SUFFIXES = (".txt", ".md")
JSONL_SUFFIXES = (".jsonl", ".ndjson")
PARQUET_SUFFIXES = (".parquet", ".pq")
_LINE_END = re.compile(r"\r\n|\r|\n")

#: A record reader: (the line's JSON object, where it is for messages, the id of a record without one) -> Document.
Record = Callable[[dict, str, str], Document]


def read_documents(source: str | os.PathLike, max_bytes: int = DEFAULT_MAX_BYTES) -> list[Document]:
    """The documents of ``source`` (a folder, a ``.jsonl`` or a ``.parquet`` file), in order."""
    if isinstance(source, bool) or not isinstance(source, (str, os.PathLike)) or not os.fspath(source):
        raise ValueError(f"corpus input must be a folder or file path, got {source!r}")
    path = Path(source)
    if not path.exists():
        raise ValueError(f"corpus input does not exist: {os.fspath(source)}")
    if path.is_dir():
        docs = _read_folder(path, max_bytes)
    elif path.suffix.lower() in JSONL_SUFFIXES:
        docs = read_jsonl(path)
    elif path.suffix.lower() in PARQUET_SUFFIXES:
        docs = _read_parquet(path)
    else:
        raise ValueError(f"{os.fspath(source)}: expected a folder of .txt/.md files, a .jsonl or a .parquet file")
    if not docs:
        raise ValueError(f"{os.fspath(source)} holds no documents"
                         + (" (no .txt or .md files)" if path.is_dir() else ""))
    return docs


def _read_folder(root: Path, max_bytes: int) -> list[Document]:
    docs = []
    for dirpath, dirnames, filenames in os.walk(root):
        dirnames[:] = sorted(d for d in dirnames if not d.startswith("."))
        for name in filenames:
            if name.startswith(".") or not name.lower().endswith(TEXT_SUFFIXES):
                continue
            docs.append(_read_file(Path(dirpath) / name, Path(dirpath, name).relative_to(root).as_posix(), max_bytes))
    return sorted(docs, key=lambda d: d.id)


def _read_file(path: Path, doc_id: str, max_bytes: int) -> Document:
    try:
        if path.stat().st_size > max_bytes:
            return Document(doc_id, error=f"larger than {max_bytes} bytes")
        return Document(doc_id, text=decode_text(path.read_bytes()))
    except ValueError as exc:
        return Document(doc_id, error=str(exc))
    except OSError as exc:
        return Document(doc_id, error=f"cannot read: {exc.strerror or exc}")


def record_id(obj: dict, where: str, default: str | None = None) -> str:
    """The record's ``id`` as a string (an integer id as its digits); ``default`` when it has none,
    else a ValueError naming ``where``; an id that is not a non-empty string or an integer is one too."""
    if "id" not in obj:
        if default is None:
            raise ValueError(f"{where}: the record has no 'id'")
        return default
    value = obj["id"]
    if isinstance(value, bool) or not isinstance(value, (str, int)) or str(value) == "":
        raise ValueError(f"{where}: 'id' must be a non-empty string or an integer, got {value!r}")
    return str(value)


def content_record(obj: dict, where: str, default_id: str | None = None) -> Document:
    """One ``bpseg corpus`` record as a document: an id is required (a bad one is fatal), and bad
    content (no text or units, both, text not a string, units not strings) is the document's error."""
    doc_id = record_id(obj, where)
    text, units = obj.get("text"), obj.get("units")
    if text is not None and units is not None:
        return Document(doc_id, error="has both 'text' and 'units'; give one")
    if text is None and units is None:
        return Document(doc_id, error="has neither 'text' nor 'units'")
    if text is not None:
        if not isinstance(text, str):
            return Document(doc_id, error=f"'text' is {type(text).__name__}, not a string")
        return Document(doc_id, text=text)
    try:
        return Document(doc_id, units=check_str_list(units, "'units'", item="unit"))
    except ValueError as exc:
        return Document(doc_id, error=str(exc))


def _check_unique(seen: dict[str, int], doc: Document, n: int, source: Path, places: str) -> None:
    if doc.id in seen:
        raise ValueError(f"{source}: id {doc.id!r} is used {places} {seen[doc.id]} and {n}; ids must be unique")
    seen[doc.id] = n


def read_jsonl(path: str | os.PathLike, record: Record = content_record, limit: int | None = None) -> list[Document]:
    """The documents of a JSONL file, one JSON object per non-blank line, ``record`` reading each object
    (:func:`content_record` by default); at most ``limit`` documents (the lines after are not parsed)."""
    path = Path(path)
    try:
        raw = path.read_bytes()
    except OSError as exc:
        raise ValueError(f"cannot read {path}: {exc.strerror or exc}") from None
    try:
        text = decode_text(raw)
    except ValueError as exc:
        raise ValueError(f"{path}: {exc}") from None
    docs: list[Document] = []
    seen: dict[str, int] = {}
    for n, line in enumerate(_LINE_END.split(text), 1):
        if limit is not None and len(docs) >= limit:
            break
        if not line.strip():
            continue
        where = f"{path} line {n}"
        try:
            obj = json.loads(line)
        except json.JSONDecodeError as exc:
            raise ValueError(f"{where}: not valid JSON ({exc.msg})") from None
        if not isinstance(obj, dict):
            raise ValueError(f"{where}: expected a JSON object, got {type(obj).__name__}")
        doc = record(obj, where, f"{path}:{n}")
        _check_unique(seen, doc, n, path, "on lines")
        docs.append(doc)
    return docs


def _read_parquet(path: Path) -> list[Document]:
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
    docs: list[Document] = []
    seen: dict[str, int] = {}
    for n, obj in enumerate(table.select(columns).to_pylist(), 1):
        doc = content_record(obj, f"{path} row {n}")
        _check_unique(seen, doc, n, path, "in rows")
        docs.append(doc)
    return docs
