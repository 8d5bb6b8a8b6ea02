"""Character spans of a text: ``(start, end)`` pairs, end excluded."""

from __future__ import annotations

import re

__all__ = ["BLANK_LINE", "join_sentences", "outermost", "paths_under", "trim_span"]

#: A blank line (two line ends with only spaces between them): where a paragraph ends, for the sentence
#: splitter's hard boundaries, the text's layout, the chunks' preferred cuts and the HTML view alike.
BLANK_LINE = re.compile(r"\n[ \t\r\f\v]*\n")


def trim_span(text: str, start: int, end: int) -> tuple[int, int] | None:
    """``(start, end)`` shrunk to exclude whitespace at both ends; None if nothing but whitespace is left."""
    while start < end and text[start].isspace():
        start += 1
    while end > start and text[end - 1].isspace():
        end -= 1
    return (start, end) if start < end else None


def outermost(spans: list[tuple[int, int]]) -> tuple[tuple[int, int], ...]:
    """The spans not inside another one, overlapping ones joined, in order."""
    out: list[tuple[int, int]] = []
    for a, b in sorted(spans):
        if out and a < out[-1][1]:
            out[-1] = (out[-1][0], max(out[-1][1], b))
        else:
            out.append((a, b))
    return tuple(out)


def join_sentences(sentences: list[str]) -> tuple[str, list[tuple[int, int]]]:
    """The sentences as one text, one per line, and their spans in it (the text of a list of sentences)."""
    spans, pos = [], 0
    for sentence in sentences:
        spans.append((pos, pos + len(sentence)))
        pos += len(sentence) + 1
    return "\n".join(sentences), spans


def paths_under(spans, headings: dict) -> list[tuple[str, ...]]:
    """The headings each unit at ``spans`` lies under, outermost first, from ``headings``: a heading unit's span ->
    ``(level, title)``. A heading unit's path ends with itself; a unit before the first heading has ``()``; a
    heading of level L closes every open heading of level L or deeper (a skipped level is no empty title)."""
    open_: list[tuple[int, str]] = []
    out: list[tuple[str, ...]] = []
    for span in spans:
        heading = headings.get(tuple(span))
        if heading is not None:
            open_ = [h for h in open_ if h[0] < heading[0]] + [heading]
        out.append(tuple(title for _, title in open_))
    return out
