"""Plain text with numbered headings: ``1. Introduction``, ``2.3 Results``, RFC style ``1.  Introduction``.

A line is a heading when it is a paragraph of its own, starts with a number (``2``, ``2.3``, with or without a
final dot), its title has at most ``MAX_TITLE_WORDS`` words and is not a sentence (it ends in none of
``. ! : ; ,`` and has no sentence end inside), its number continues the outline (:func:`_follows`), and it is not
an item of a numbered list (:func:`numbered_structure`: items numbered in sequence next to each other, or an item
continuing the list before it); its level is the count of its numbers. A numbered list whose items are sentences
is therefore not read as headings, nor a list of short items between the sections.
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
_LINE_END = re.compile(r"\r\n|\r|\n")
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


def _numbered_paragraphs(text: str) -> list[tuple[tuple[int, int], tuple[int, ...], tuple[int, ...], bool]]:
    """Every paragraph whose first line starts with a number (``3.``, ``2.1``), in order: its span, that number, the
    number its last numbered line starts with (a list written one item a line), and whether it is a heading
    candidate (a line of its own whose title is not a sentence)."""
    out = []
    for a, b in paragraph_spans(text):
        span = trim_span(text, a, b)
        if span is None:
            continue
        lines = _LINE_END.split(text[a:b].strip("\r\n"))
        m = _HEADING.match(lines[0])
        if m is None:
            continue
        title = m.group(2)
        candidate = (
            len(lines) == 1
            and len(title.split()) <= MAX_TITLE_WORDS
            and not _SENTENCE_END.search(title)
            and any(c.isalpha() for c in title)
        )
        last = next(n for line in reversed(lines) if (n := _number(line)))
        out.append((span, tuple(int(x) for x in m.group(1).split(".")), last, candidate))
    return out


def _next_item(prev: tuple[int, ...], number: tuple[int, ...]) -> bool:
    """Whether ``number`` is the item after ``prev`` in a list: the next one at the same level or above (``4``
    after ``3``; ``2.2`` or ``3`` after ``2.1``), not a first child."""
    return len(number) <= len(prev) and _complete(prev, number)


def _listed(text: str, numbered: list) -> set[int]:
    """The candidates that are items of a list: two next to each other (nothing but a blank line between them)
    numbered in sequence (:func:`_next_item`), since a heading is followed by its section's text or a deeper
    heading."""
    items: set[int] = set()
    for i in range(len(numbered) - 1):
        (_, end), _, last, ok = numbered[i]
        (start, _), number, _, ok_after = numbered[i + 1]
        if ok and ok_after and _next_item(last, number) and not text[end:start].strip():
            items.update((i, i + 1))
    return items


def _successors(prev: tuple[int, ...] | None) -> list[tuple[int, ...]]:
    """The numbers that come right after ``prev`` with no gap (:func:`_complete`); the first heading's: 0 or 1."""
    if prev is None:
        return [(0,), (1,)]
    return [prev + (1,), *(prev[:k] + (prev[k] + 1,) for k in range(len(prev)))]


@functools.lru_cache(maxsize=4)
def numbered_structure(text: str) -> Structure:
    """The :class:`Structure` of plain text with numbered headings: its headings (one unit each) and their levels;
    the view is the text itself.

    Read in order, a candidate line whose number follows the previous heading's (:func:`_follows`) is the next
    heading, unless it is a list's item: one of two candidates next to each other numbered in sequence
    (:func:`_listed`); or one that continues the numbered paragraph before it, itself no heading (``16.`` after the
    list item ``15. Do a cvs update.``), and either skips numbers from the previous heading (``16`` after ``3``) or
    a later candidate, one that continues no list, has a number that comes next (``3`` after ``2`` in a list
    ``1. .. 2. .. 3. ..`` with the heading ``3.`` to come)."""
    numbered = _numbered_paragraphs(text)
    listed = _listed(text, numbered)
    where: dict[tuple[int, ...], int] = {}  # the last candidate of each number that continues no list
    for i, (_, number, _, ok) in enumerate(numbered):
        if ok and i not in listed and not (i and _next_item(numbered[i - 1][2], number)):
            where[number] = i
    headings, levels, prev, before = [], [], None, None  # before: the last numbered paragraph's last number
    for i, (span, number, last, ok) in enumerate(numbered):
        heading = ok and i not in listed and _follows(prev, number)
        if heading and before is not None and _next_item(before, number):
            nexts = _successors(prev)
            heading = number in nexts and not any(where.get(n, -1) > i for n in nexts)
        if heading:
            headings.append(span)
            levels.append(len(number))
            prev = number
        before = None if heading else last
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
