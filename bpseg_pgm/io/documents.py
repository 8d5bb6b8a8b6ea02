"""The one document reader: a folder, a JSONL file or a Parquet file as :class:`~bpseg_pgm.types.document.Document` s.

* a **folder**: every file with one of :data:`TEXT_SUFFIXES` under it (hidden ones skipped, symlinked sub-folders
  followed once), in sorted order, its id its path relative to the folder; a Markdown file's document says
  ``meta["markdown"] = True``, an rst or HTML one's ``meta["format"]``; only regular files are opened, never past
  ``max_bytes``;
* a **JSONL** file: one object per line, ``{"id": ..., "text": "..."}`` or ``{"id": ..., "units": ["...", ...]}``;
* a **Parquet** file: a column ``id`` and a column ``text`` or ``units`` (a list of strings).

:func:`read_documents` reads any of them (``bpseg corpus``, docs/howto/corpus.md); :func:`read_jsonl` is the JSONL
reader itself, which the benchmark corpus uses with its own record format. Lines end at ``\\n``, ``\\r\\n`` or
``\\r`` only, so a U+2028 inside a JSON string stays in its string. What makes a *document* unusable is kept as
its ``error`` (an error row; the others go on); what makes the *input* unusable (no such path, a line that is not
JSON, a record without an id, two documents with one id) is a ``ValueError`` before any work, naming the place.
"""

from __future__ import annotations

import functools
import json
import os
import re
import stat
from collections.abc import Callable
from pathlib import Path

from bpseg_pgm.io.decoding import DEFAULT_MAX_BYTES, decode_text
from bpseg_pgm.structure.detect import format_for_path
from bpseg_pgm.types.document import Document
from bpseg_pgm.utils.files import file_kind, read_regular
from bpseg_pgm.utils.validation import check_str_list

__all__ = [
    "DEFAULT_MAX_BYTES",
    "JSONL_SUFFIXES",
    "MARKDOWN_SUFFIXES",
    "PARQUET_SUFFIXES",
    "TEXT_SUFFIXES",
    "content_record",
    "check_source",
    "escape_name",
    "read_documents",
    "read_jsonl",
    "read_regular",
    "record_id",
]

MARKDOWN_SUFFIXES = (".md", ".markdown")
#: A folder's documents, as ``bpseg segment`` reads them.
TEXT_SUFFIXES = (".txt", *MARKDOWN_SUFFIXES, ".rst", ".html", ".htm")
JSONL_SUFFIXES = (".jsonl", ".ndjson")
PARQUET_SUFFIXES = (".parquet", ".pq")
_LINE_END = re.compile(r"\r\n|\r|\n")

#: A record reader: (the line's JSON object, where it is for messages, the id of a record without one) -> Document.
Record = Callable[[dict, str, str], Document]


def check_source(source: object) -> Path:
    """``source`` as a path that exists, or a ValueError saying what is wrong with it (nothing is read)."""
    if isinstance(source, bool) or not isinstance(source, (str, os.PathLike)) or not os.fspath(source):
        raise ValueError(f"corpus input must be a folder or file path, got {source!r}")
    path = Path(source)
    if not path.exists():
        raise ValueError(f"corpus input does not exist: {os.fspath(source)}")
    return path


def read_documents(source: str | os.PathLike, max_bytes: int = DEFAULT_MAX_BYTES) -> list[Document]:
    """The documents of ``source`` (a folder, a ``.jsonl`` or a ``.parquet`` file), in order."""
    path = check_source(source)
    if path.is_dir():
        docs = _read_folder(path, max_bytes)
    elif path.suffix.lower() in JSONL_SUFFIXES:
        docs = read_jsonl(path, functools.partial(content_record, max_bytes=max_bytes))
    elif path.suffix.lower() in PARQUET_SUFFIXES:
        docs = _read_parquet(path, functools.partial(content_record, max_bytes=max_bytes))
    else:
        raise ValueError(
            f"{os.fspath(source)}: expected a folder of .txt/.md/.markdown files, a .jsonl or a .parquet file"
        )
    if not docs:
        raise ValueError(
            f"{os.fspath(source)} holds no documents" + (" (no .txt, .md or .markdown files)" if path.is_dir() else "")
        )
    return docs


def _read_folder(root: Path, max_bytes: int) -> list[Document]:
    docs = []
    seen = {_dir_key(root)}
    for dirpath, dirnames, filenames in os.walk(root, followlinks=True):
        kept = []
        for d in sorted(dirnames):  # symlinked folders are followed, each folder read once (no loop)
            key = None if d.startswith(".") else _dir_key(Path(dirpath, d))
            if key is not None and key not in seen:
                seen.add(key)
                kept.append(d)
        dirnames[:] = kept
        for name in filenames:
            if name.startswith(".") or not name.lower().endswith(TEXT_SUFFIXES):
                continue
            path = Path(dirpath, name)
            doc_id = path.relative_to(root).as_posix()
            if not _is_utf8(doc_id):
                docs.append(
                    Document(
                        escape_name(doc_id),
                        error="its path is not valid UTF-8 (shown with \\x escapes); rename it to segment it",
                    )
                )
                continue
            docs.append(_read_file(path, doc_id, max_bytes))
    return sorted(docs, key=lambda d: d.id)


def _dir_key(path: Path) -> tuple[int, int] | None:
    try:
        st = os.stat(path)
    except OSError:
        return None
    return (st.st_dev, st.st_ino) if stat.S_ISDIR(st.st_mode) else None


def _is_utf8(name: str) -> bool:
    try:
        name.encode("utf-8")
    except UnicodeEncodeError:
        return False
    return True


def escape_name(name: str) -> str:
    """A file name or id that is not valid UTF-8 (undecodable bytes kept by Python as lone surrogates) as
    valid text: each such byte as ``\\xNN`` (``café`` in Latin-1 → ``caf\\xe9``)."""
    return os.fsencode(name).decode("utf-8", "backslashreplace") if not _is_utf8(name) else name


def _read_file(path: Path, doc_id: str, max_bytes: int) -> Document:
    fmt = format_for_path(path)
    meta = {"markdown": True} if path.suffix.lower() in MARKDOWN_SUFFIXES else ({"format": fmt} if fmt else {})
    try:
        return Document(doc_id, text=decode_text(read_regular(path, max_bytes)), meta=meta)
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


def content_record(obj: dict, where: str, default_id: str | None = None, max_bytes: int | None = None) -> Document:
    """One ``bpseg corpus`` record as a document: an id is required (a bad one is fatal), and bad
    content (no text or units, both, text not a string, units not strings, text that is not valid
    Unicode, more than ``max_bytes`` bytes of UTF-8) is the document's error."""
    doc_id = record_id(obj, where)
    if not _is_utf8(doc_id):  # a JSON "\ud800" escape: no Parquet string can hold it
        return Document(
            doc_id.encode("utf-8", "backslashreplace").decode("utf-8"),
            error="its id is not valid Unicode (a lone surrogate, shown escaped)",
        )
    text, units = obj.get("text"), obj.get("units")
    if text is not None and units is not None:
        return Document(doc_id, error="has both 'text' and 'units'; give one")
    if text is None and units is None:
        return Document(doc_id, error="has neither 'text' nor 'units'")
    if text is not None:
        if not isinstance(text, str):
            return Document(doc_id, error=f"'text' is {type(text).__name__}, not a string")
        doc = Document(doc_id, text=text)
    else:
        try:
            doc = Document(doc_id, units=check_str_list(units, "'units'", item="unit"))
        except ValueError as exc:
            return Document(doc_id, error=str(exc))
    pieces = [text] if text is not None else doc.units
    try:
        size = sum(len(p.encode("utf-8")) for p in pieces) + max(0, len(pieces) - 1)  # units joined by newlines
    except UnicodeEncodeError:
        return Document(doc_id, error="its text is not valid Unicode (a lone surrogate)")
    if max_bytes is not None and size > max_bytes:
        return Document(doc_id, error=f"larger than {max_bytes} bytes")
    return doc


def _check_unique(seen: dict[str, int], doc: Document, n: int, source: Path, places: str) -> None:
    if doc.id in seen:
        raise ValueError(f"{source}: id {doc.id!r} is used {places} {seen[doc.id]} and {n}; ids must be unique")
    seen[doc.id] = n


def read_jsonl(path: str | os.PathLike, record: Record = content_record, limit: int | None = None) -> list[Document]:
    """The documents of a JSONL file, one JSON object per non-blank line, ``record`` reading each object
    (:func:`content_record` by default); at most ``limit`` documents (the lines after are not parsed)."""
    path = Path(path)
    try:
        raw = read_regular(path)
    except ValueError as exc:
        raise ValueError(f"{path} {exc}") from None
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


def _read_parquet(path: Path, record: Record) -> list[Document]:
    try:
        import pyarrow as pa
        import pyarrow.parquet as pq
    except ImportError as exc:
        raise ImportError(
            f"reading {path.name} (Parquet) needs pyarrow, from the corpus extra: pip install 'bpseg_pgm[corpus]' "
            f"({' '.join(str(exc).split())})",
            name="pyarrow",
        ) from exc

    try:
        st = os.stat(path)
    except OSError as exc:
        raise ValueError(f"cannot read {path}: {exc.strerror or exc}") from None
    if not stat.S_ISREG(st.st_mode):
        raise ValueError(f"{path} is {file_kind(st.st_mode)}, not a regular file")
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
        doc = record(obj, f"{path} row {n}", f"{path}:{n}")
        _check_unique(seen, doc, n, path, "in rows")
        docs.append(doc)
    return docs
