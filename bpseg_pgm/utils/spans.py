"""Character spans of a text: ``(start, end)`` pairs, end excluded."""

from __future__ import annotations

__all__ = ["trim_span"]


def trim_span(text: str, start: int, end: int) -> tuple[int, int] | None:
    """``(start, end)`` shrunk to exclude whitespace at both ends; None if nothing but whitespace is left."""
    while start < end and text[start].isspace():
        start += 1
    while end > start and text[end - 1].isspace():
        end -= 1
    return (start, end) if start < end else None
