"""Character spans of a text: ``(start, end)`` pairs, end excluded."""

from __future__ import annotations

import re

__all__ = ["BLANK_LINE", "join_sentences", "outermost", "paragraph_spans", "paths_under", "trim_span", "trim_spans"]

#: A blank line (two line ends with only spaces between them): where a paragraph ends, for the sentence
#: splitter's hard boundaries, the text's layout, the chunks' preferred cuts and the HTML view alike.
BLANK_LINE = re.compile(r"\n[ \t\r\f\v]*\n")


def paragraph_spans(text: str, start: int = 0, end: int | None = None) -> list[tuple[int, int]]:
    """The paragraphs of ``text[start:end]`` (offsets in ``text``): the pieces between blank lines, blank ones too."""
    end = len(text) if end is None else end
    bounds = [start]
    for m in BLANK_LINE.finditer(text, start, end):
        bounds += [m.start(), m.end()]
    bounds.append(end)
    return list(zip(bounds[::2], bounds[1::2]))


_NON_SPACE = re.compile(r"\S")  # what str.isspace calls whitespace, negated


def _first_non_space(text: str, start: int) -> int:
    """The offset of the first non-whitespace character at or after ``start``, else ``len(text)``."""
    m = _NON_SPACE.search(text, start)
    return len(text) if m is None else m.start()


def _after_last_non_space(text: str, end: int) -> int:
    """One past the last non-whitespace character before ``end``, else 0 (read backwards in growing pieces, so a
    long run of whitespace costs its length, not a character at a time in Python)."""
    size = 64
    while end > 0:
        lo = max(0, end - size)
        kept = text[lo:end].rstrip()
        if kept:
            return lo + len(kept)
        end, size = lo, size * 2
    return 0


def trim_span(text: str, start: int, end: int) -> tuple[int, int] | None:
    """``(start, end)`` shrunk to exclude whitespace at both ends; None if nothing but whitespace is left."""
    start = _first_non_space(text, start) if start < end else start
    if start >= end:
        return None
    return start, _after_last_non_space(text, end)


def trim_spans(text: str, spans) -> list[tuple[int, int] | None]:
    """:func:`trim_span` of each of ``spans``, in time linear in ``len(text)`` plus the number of spans: a run of
    whitespace is read once however many spans start or end in it (nested blocks all start in the same run of
    blanked tags; one :func:`trim_span` each would read it again and again)."""
    spans = [(int(a), int(b)) for a, b in spans]
    first: dict[int, int] = {}
    scanned_from, found = 1, 0  # text[scanned_from:found] is whitespace, text[found] is not (or found == len)
    for a in sorted({a for a, _ in spans}):
        if not scanned_from <= a <= found:
            scanned_from, found = a, _first_non_space(text, a)
        first[a] = found
    last: dict[int, int] = {}
    found, scanned_to = 1, 0  # text[found:scanned_to] is whitespace, text[found - 1] is not (or found == 0)
    for b in sorted({b for _, b in spans}, reverse=True):
        if not found <= b <= scanned_to:
            found, scanned_to = _after_last_non_space(text, b), b
        last[b] = found
    return [(first[a], last[b]) if a < b and first[a] < b else None for a, b in spans]


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
