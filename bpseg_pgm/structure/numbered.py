"""Plain text with numbered headings: ``1. Introduction``, ``2.3 Results``, RFC style ``1.  Introduction``.

A line is a heading when it is a paragraph of its own, starts with a number (``2``, ``2.3``, with or without a
final dot), its title has at most ``MAX_TITLE_WORDS`` words and is not a sentence (it ends in none of
``. ! : ; ,`` and has no sentence end inside), and its number continues the outline (:func:`_follows`); its level
is the count of its numbers. A numbered list whose items are sentences is therefore not read as headings.
"""

from __future__ import annotations

import functools
import re

from bpseg_pgm.structure.blocks import Structure
from bpseg_pgm.utils.spans import paragraph_spans, trim_span

__all__ = ["MAX_TITLE_WORDS", "looks_like_numbered", "numbered_structure"]

#: The most words a numbered heading's title has (a longer numbered line is a list item or a sentence).
MAX_TITLE_WORDS = 12

_HEADING = re.compile(r"\A[ \t]{0,3}(\d{1,9}(?:\.\d{1,9}){0,5})\.?[ \t]+(\S[^\n\r]*?)[ \t]*\Z")
_SENTENCE_END = re.compile(r"[.!:;,]\W*\Z|[.!?]\s+[A-Z]")


def _follows(prev: tuple[int, ...] | None, number: tuple[int, ...]) -> bool:
    """Whether ``number`` may come after ``prev`` in an outline: after it in order, and either its next sibling or
    an ancestor's (numbers may be skipped: ``4`` after ``2.1``) or a first child (ending in 0 or 1). The first
    heading: a number ending in 0 or 1, or a top-level number."""
    if prev is None:
        return number[-1] in (0, 1) or len(number) == 1
    if number <= prev:
        return False
    d = len(number)
    sibling = d <= len(prev) and number[: d - 1] == prev[: d - 1]
    return sibling or number[-1] in (0, 1)


def _candidates(text: str) -> list[tuple[tuple[int, int], tuple[int, ...]]]:
    out = []
    for a, b in paragraph_spans(text):
        span = trim_span(text, a, b)
        if span is None:
            continue
        line = text[a:b].strip("\r\n")
        if "\n" in line or "\r" in line:
            continue
        m = _HEADING.match(line)
        if m is None:
            continue
        title = m.group(2)
        if len(title.split()) > MAX_TITLE_WORDS or _SENTENCE_END.search(title) or not any(c.isalpha() for c in title):
            continue
        out.append((span, tuple(int(x) for x in m.group(1).split("."))))
    return out


@functools.lru_cache(maxsize=4)
def numbered_structure(text: str) -> Structure:
    """The :class:`Structure` of plain text with numbered headings: its headings (one unit each) and their levels;
    the view is the text itself."""
    headings, levels, prev = [], [], None
    for span, number in _candidates(text):
        if _follows(prev, number):
            headings.append(span)
            levels.append(len(number))
            prev = number
    return Structure(text, (), tuple(headings), tuple(headings), tuple(levels))


def _number(line: str) -> tuple[int, ...]:
    m = _HEADING.match(line)
    return tuple(int(x) for x in m.group(1).split(".")) if m else ()


def _complete(prev: tuple[int, ...], number: tuple[int, ...]) -> bool:
    """Whether ``number`` is the next one after ``prev`` with no gap: a first child ``.1``, the next sibling, or
    the next sibling of an ancestor."""
    d = len(number)
    if d == len(prev) + 1:
        return number[:-1] == prev and number[-1] == 1
    return d <= len(prev) and number[: d - 1] == prev[: d - 1] and number[-1] == prev[d - 1] + 1


def looks_like_numbered(text: str) -> bool:
    """True if ``text`` has at least two numbered headings, numbered with no gaps (``1``, ``1.1``, ``1.2``, ``2``;
    the first one ``1`` or ``0``), each followed by prose or by a deeper heading (``2`` then ``2.1``): a numbered
    list of short items, one after the other, or with items left out, is not taken for headings."""
    s = numbered_structure(text)
    if len(s.headings) < 2:
        return False
    paragraphs = [p for a, b in paragraph_spans(text) if (p := trim_span(text, a, b)) is not None]
    level = dict(zip(s.headings, s.heading_levels))
    after = dict(zip(paragraphs, paragraphs[1:]))
    if not all(h in after and level.get(after[h], 99) > level[h] for h in s.headings):
        return False
    if sum(not text[a:b].endswith("?") for a, b in s.headings) < 2:  # numbered questions: a FAQ or a checklist
        return False
    numbers = [_number(text[a:b]) for a, b in s.headings]
    return numbers[0] in ((0,), (1,)) and all(_complete(p, n) for p, n in zip(numbers, numbers[1:]))
