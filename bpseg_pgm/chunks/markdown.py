"""Markdown structure that chunks respect: blocks never cut, headings as boundaries, inline code.

The blocks come from ``markdown-it-py`` (CommonMark with GFM tables), whose block tokens carry the
lines they cover; their character ranges in the original text are found from those lines (CRLF and
lone CR count as line ends, as markdown-it normalises them; a leading BOM is read as a space).

* :func:`markdown_blocks`: the character ranges of the blocks a chunk must not cut (fenced and
  indented code, tables, HTML blocks, list items: the outermost of nested ones), of the blocks that
  are one sentence each (code, tables, HTML blocks, headings) and of the headings;
* :func:`looks_like_markdown`: a conservative guess (a code fence, an ATX heading ``# Title`` or a
  GFM table); a list alone is not enough, since plain text has lists too;
* :func:`inline_code_spans`: the ranges of inline code (`` `like this` ``), where no sentence ends.
"""

from __future__ import annotations

import functools
import re
from dataclasses import dataclass

from bpseg_pgm.types.chunk import Span
from bpseg_pgm.utils.spans import trim_span as _trim

__all__ = ["MarkdownBlocks", "inline_code_spans", "looks_like_markdown", "markdown_blocks"]

_LINE_END = re.compile(r"\r\n|\r|\n")
# cheap signs, checked before parsing: a fence line, an ATX heading line, a table delimiter row
_SIGNS = re.compile(r"^ {0,3}(?:`{3,}|~{3,}|#{1,6}(?:[ \t]|$))|^ {0,3}\|?[ \t]*:?-+:?[ \t]*\|", re.M)
_INLINE_CODE = re.compile(r"(?<!`)(`+)(?!`)(.+?)(?<!`)\1(?!`)", re.S)

_ATOMIC = {"fence", "code_block", "table_open", "html_block", "list_item_open"}
_ONE_UNIT = {"fence", "code_block", "table_open", "html_block", "heading_open"}


@dataclass(frozen=True)
class MarkdownBlocks:
    """Character ranges ``(start, end)`` of a Markdown text's blocks, trimmed of whitespace, in reading order.

    ``atomic``: blocks a chunk never cuts (unless one alone is longer than the token cap): code fences,
    indented code, tables, HTML blocks and list items, the outermost of nested ones.  ``units``: blocks
    that are one sentence each (code, tables, HTML blocks, headings).  ``headings``: the headings, and
    ``heading_levels`` their levels (1 for ``#`` or a ``===`` underline, 2 for ``##`` or ``---``, ...), in the
    same order.
    """

    atomic: tuple[Span, ...] = ()
    units: tuple[Span, ...] = ()
    headings: tuple[Span, ...] = ()
    heading_levels: tuple[int, ...] = ()


@functools.lru_cache(maxsize=1)
def _parser():
    from markdown_it import MarkdownIt

    return MarkdownIt("commonmark").enable("table")


def _outermost(spans: list[Span]) -> tuple[Span, ...]:
    """The spans not inside another one, overlapping ones joined, in order."""
    out: list[Span] = []
    for a, b in sorted(spans):
        if out and a < out[-1][1]:
            out[-1] = (out[-1][0], max(out[-1][1], b))
        else:
            out.append((a, b))
    return tuple(out)


@functools.lru_cache(maxsize=4)
def markdown_blocks(text: str) -> MarkdownBlocks:
    """The :class:`MarkdownBlocks` of ``text`` (read as CommonMark with GFM tables). The last few texts' blocks
    are kept (the result is immutable), so the splitter, the layout and the chunks parse a text once."""
    starts = [0, *(m.end() for m in _LINE_END.finditer(text))]
    source = " " + text[1:] if text.startswith("\ufeff") else text

    def span(line_map: list[int]) -> Span | None:
        a, b = line_map
        end = starts[b] if b < len(starts) else len(text)
        return _trim(text, starts[a], end) if a < len(starts) else None

    atomic, units, headings = [], [], []
    for tok in _parser().parse(source):
        if tok.map is None or (tok.type not in _ATOMIC and tok.type not in _ONE_UNIT):
            continue
        s = span(tok.map)
        if s is None:
            continue
        if tok.type in _ATOMIC:
            atomic.append(s)
        if tok.type in _ONE_UNIT:
            units.append(s)
        if tok.type == "heading_open":
            headings.append((s, int(tok.tag[1:])))
    headings.sort()
    return MarkdownBlocks(
        _outermost(atomic), _outermost(units), tuple(h for h, _ in headings), tuple(v for _, v in headings)
    )


def looks_like_markdown(text: str) -> bool:
    """True if ``text`` has a code fence, an ATX heading (``# Title``) or a GFM table, as Markdown reads them.

    Conservative on purpose: a list alone, emphasis or links do not count (plain text has them too).
    """
    if not isinstance(text, str) or not _SIGNS.search(text):
        return False
    source = " " + text[1:] if text.startswith("\ufeff") else text
    return any(
        tok.type in ("fence", "table_open") or (tok.type == "heading_open" and tok.markup.startswith("#"))
        for tok in _parser().parse(source)
    )


def inline_code_spans(text: str, start: int = 0, end: int | None = None) -> list[Span]:
    """Ranges of inline code (a run of backticks to the next run of the same length) in ``text[start:end]``."""
    end = len(text) if end is None else end
    return [(m.start(), m.end()) for m in _INLINE_CODE.finditer(text, start, end)]
