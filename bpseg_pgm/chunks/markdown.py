"""Markdown structure that chunks respect: blocks never cut, headings as boundaries, inline code.

The blocks come from ``markdown-it-py`` (CommonMark with GFM tables), whose block tokens carry the
lines they cover; their character ranges in the original text are found from those lines (CRLF and
lone CR count as line ends, as markdown-it normalises them; a leading BOM is read as a space).

* :func:`markdown_blocks`: the character ranges of the blocks a chunk must not cut (fenced and
  indented code, tables, HTML blocks, list items: the outermost of nested ones), of the blocks that
  are one sentence each (code, tables, HTML blocks, headings) and of the headings,
  with their levels and titles;
* :func:`heading_paths`: the headings each unit lies under (``("Usage", "Reading files")``);
* :func:`image_spans`: the ranges of inline images (``![alt](url)``), which no sentence end cuts;
* :func:`looks_like_markdown`: a conservative guess (a code fence, an ATX heading ``# Title`` or a
  GFM table); a list alone is not enough, since plain text has lists too;
* :func:`inline_code_spans`: the ranges of inline code (`` `like this` ``), where no sentence ends.

What counts as structure:

* **YAML front matter** (a ``---`` line at the very top, ``key: value`` lines, a closing ``---`` or ``...``
  line) is the document's metadata, not its text: no block, no unit, no section (:func:`front_matter_end`
  says where it ends; the sentence splitter starts after it).  Read as Markdown, its closing ``---`` would
  underline the last line as a setext heading ("title: ..."), an extra section.
* **A heading inside a blockquote or a list item** is quoted or listed text, not a section of the document:
  it stays one unit but is not a heading (level 0), so it neither cuts a section nor enters a heading path
  (LangChain's ``MarkdownHeaderTextSplitter`` does not read it either).
* **An HTML heading** (``<h1>`` in an HTML block) is an HTML block: one unit, not a heading.  Markdown
  headings are the document's structure; raw HTML is shown escaped, never interpreted.
"""

from __future__ import annotations

import functools
import re
from collections.abc import Sequence
from dataclasses import dataclass

from bpseg_pgm.types.chunk import Span
from bpseg_pgm.utils.spans import outermost as _outermost
from bpseg_pgm.utils.spans import paths_under
from bpseg_pgm.utils.spans import trim_span as _trim

__all__ = [
    "MarkdownBlocks",
    "front_matter_end",
    "heading_paths",
    "image_spans",
    "inline_code_spans",
    "looks_like_markdown",
    "markdown_blocks",
]

_LINE_END = re.compile(r"\r\n|\r|\n")
# cheap signs, checked before parsing: a fence line, an ATX heading line, a table delimiter row
_SIGNS = re.compile(r"^ {0,3}(?:`{3,}|~{3,}|#{1,6}(?:[ \t]|$))|^ {0,3}\|?[ \t]*:?-+:?[ \t]*\|", re.M)
_INLINE_CODE = re.compile(r"(?<!`)(`+)(?!`)(.+?)(?<!`)\1(?!`)", re.S)
# YAML front matter: "---" on the first line, then lines up to a closing "---" or "..." line
_FRONT_MATTER = re.compile(
    r"\A\ufeff?---[ \t]*(?:\r\n|\r|\n)(?:.*?(?:\r\n|\r|\n))??(?:---|\.\.\.)[ \t]*(?=\r\n|\r|\n|\Z)", re.S
)
# the first line of front matter: a YAML key (a thematic break followed by prose is not front matter)
_YAML_KEY = re.compile(r"[A-Za-z0-9_\"'][^:\n]*:(?:[ \t]|$)")
# an inline image: ![alt](destination "title") or ![alt][reference]; alt may hold one level of brackets
_IMAGE = re.compile(
    r"!\[(?:[^\[\]\n]|\[[^\[\]\n]*\])*\](?:\([^()\s]*(?:[ \t]+(?:\"[^\"\n]*\"|'[^'\n]*'))?[ \t]*\)|\[[^\[\]\n]*\])?"
)

_ATOMIC = {"fence", "code_block", "table_open", "html_block", "list_item_open"}
_ONE_UNIT = {"fence", "code_block", "table_open", "html_block", "heading_open"}


@dataclass(frozen=True)
class MarkdownBlocks:
    """Character ranges ``(start, end)`` of a Markdown text's blocks, trimmed of whitespace, in reading order.

    ``atomic``: blocks a chunk never cuts (unless one alone is longer than the token cap): code fences,
    indented code, tables, HTML blocks and list items, the outermost of nested ones.  ``units``: blocks
    that are one sentence each (code, tables, HTML blocks, headings).  ``headings``: the headings, and
    ``heading_levels`` their levels (1 for ``#`` or a ``===`` underline, 2 for ``##`` or ``---``, ...) and
    ``heading_titles`` their text (the inline Markdown, without the ``#`` marks or the underline), in the same
    order.  Only the document's own headings count, not those inside a blockquote or a list item.
    """

    atomic: tuple[Span, ...] = ()
    units: tuple[Span, ...] = ()
    headings: tuple[Span, ...] = ()
    heading_levels: tuple[int, ...] = ()
    heading_titles: tuple[str, ...] = ()


@functools.lru_cache(maxsize=1)
def _parser():
    from markdown_it import MarkdownIt

    return MarkdownIt("commonmark").enable("table")


@functools.lru_cache(maxsize=4)
def markdown_blocks(text: str) -> MarkdownBlocks:
    """The :class:`MarkdownBlocks` of ``text`` (read as CommonMark with GFM tables). The last few texts' blocks
    are kept (the result is immutable), so the splitter, the layout and the chunks parse a text once."""
    starts = [0, *(m.end() for m in _LINE_END.finditer(text))]
    source = " " + text[1:] if text.startswith("\ufeff") else text
    front = front_matter_end(text)
    if front:  # its lines read as blank lines, so the line numbers still match
        source = "\n" * len(_LINE_END.findall(text, 0, front)) + source[front:]

    def span(line_map: list[int]) -> Span | None:
        a, b = line_map
        end = starts[b] if b < len(starts) else len(text)
        return _trim(text, starts[a], end) if a < len(starts) else None

    atomic, units, headings = [], [], []
    tokens = _parser().parse(source)
    for t, tok in enumerate(tokens):
        if tok.map is None or (tok.type not in _ATOMIC and tok.type not in _ONE_UNIT):
            continue
        s = span(tok.map)
        if s is None:
            continue
        if tok.type in _ATOMIC:
            atomic.append(s)
        if tok.type in _ONE_UNIT:
            units.append(s)
        if tok.type == "heading_open" and tok.level == 0:  # not one inside a blockquote or a list item
            title = tokens[t + 1].content.strip() if t + 1 < len(tokens) and tokens[t + 1].type == "inline" else ""
            headings.append((s, int(tok.tag[1:]), title))
    headings.sort()
    return MarkdownBlocks(
        _outermost(atomic),
        _outermost(units),
        tuple(h[0] for h in headings),
        tuple(h[1] for h in headings),
        tuple(h[2] for h in headings),
    )


def front_matter_end(text: str) -> int:
    """Where the YAML front matter at the very top of ``text`` ends (after its closing line), or 0 if none."""
    m = _FRONT_MATTER.match(text)
    if m is None:
        return 0
    first = _LINE_END.split(m.group(), 2)[1]  # the line after the opening "---"
    return m.end() if first.rstrip() in ("---", "...") or _YAML_KEY.match(first) else 0


def heading_paths(text: str, spans: Sequence[Span]) -> list[tuple[str, ...]]:
    """The headings each unit at ``spans`` lies under, outermost first: ``("Usage", "Reading files")``.

    A heading unit's path ends with the heading itself; a unit before the first heading has ``()``.  A
    heading of level L closes every open heading of level L or deeper (a skipped level is no empty title).
    """
    blocks = markdown_blocks(text)
    at = {
        span: (level, title)
        for span, level, title in zip(blocks.headings, blocks.heading_levels, blocks.heading_titles)
    }
    return paths_under(spans, at)


def image_spans(text: str, start: int = 0, end: int | None = None) -> list[Span]:
    """Ranges of inline images (``![alt](url)``, ``![alt][ref]``) in ``text[start:end]``."""
    end = len(text) if end is None else end
    return [(m.start(), m.end()) for m in _IMAGE.finditer(text, start, end)]


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
