"""The output table: one row per sentence (or unit) of every document, one row per failed document; its columns
(:data:`COLUMNS`, :func:`schema`) are described in docs/howto/corpus.md. ``start`` and ``end`` are offsets of the
document's text: the file as decoded, the ``text`` of a record, or a record's ``units`` joined by newlines."""

from __future__ import annotations

from typing import Any

__all__ = ["schema", "segmentation_rows", "error_rows", "to_table", "COLUMNS"]

COLUMNS = ("doc", "sentence", "start", "end", "text", "label", "confidence", "error")


def schema():
    """The pyarrow schema of every output part."""
    import pyarrow as pa

    return pa.schema(
        [
            ("doc", pa.string()),
            ("sentence", pa.int32()),
            ("start", pa.int64()),
            ("end", pa.int64()),
            ("text", pa.string()),
            ("label", pa.int32()),
            ("confidence", pa.float64()),
            ("error", pa.string()),
        ]
    )


def segmentation_rows(doc_id: str, seg: Any) -> list[dict[str, Any]]:
    """One row per sentence of a :class:`~bpseg_pgm.text.pipeline.Segmentation`."""
    conf = seg.confidence()
    return [
        {
            "doc": doc_id,
            "sentence": i,
            "start": a,
            "end": b,
            "text": seg.text[a:b],
            "label": int(seg.labels[i]),
            "confidence": float(conf[i]),
            "error": None,
        }
        for i, (a, b) in enumerate(seg.spans)
    ]


def error_rows(doc_id: str, error: str) -> list[dict[str, Any]]:
    """The single row recording that a document failed, and why."""
    return [{**dict.fromkeys(COLUMNS), "doc": doc_id, "error": " ".join(str(error).split()) or "failed"}]


def to_table(rows: list[dict[str, Any]]):
    """Rows as a pyarrow Table with :func:`schema`."""
    import pyarrow as pa

    return pa.Table.from_pylist(rows, schema=schema())
