"""How the text and HTML views show a unit, by the format its text was read in.

A segmentation's units are spans of its text; their sentence strings (``seg.sentences``) are what was embedded,
their whitespace collapsed and, in reStructuredText, their markup as typed. The views show the text as it is:

* Markdown (``seg.markdown``): :mod:`bpseg_pgm.formats.markdown_view`;
* reStructuredText (``seg.format == "rst"``): :mod:`bpseg_pgm.formats.rst_view` (docutils);
* HTML (``seg.format == "html"``): :mod:`bpseg_pgm.formats.html_view` (the standard library's parser);
* anything else (plain text, numbered headings, a text read one sentence per line): the sentences, escaped.

:func:`unit_kinds` gives each unit's kind (``"block"``: a code block, directive or table, one unit;
``"heading"``; ``"prose"``), :func:`written_text` what the text view prints (a block with its lines kept),
:func:`unit_html` the HTML of a unit, :func:`starts_list_item` whether it starts a list item,
:func:`heading_html` a heading's title as HTML, and :func:`layout_text` the text whose blank lines are the
paragraph breaks (HTML: where a block element starts or ends). None of them changes a span, a sentence or a label.
"""

from __future__ import annotations

import bisect
import functools
import textwrap
import warnings
from html import escape
from typing import Any

from bpseg_pgm.formats import markdown_view
from bpseg_pgm.formats.html_view import html_block_text, html_unit_html, starts_html_list_item
from bpseg_pgm.formats.rst_view import literal_html, rst_block_html, rst_inline_html, starts_rst_list
from bpseg_pgm.structure.blocks import line_starts
from bpseg_pgm.structure.detect import read_structure
from bpseg_pgm.structure.rst import literal_block_lines

__all__ = [
    "block_lines",
    "heading_html",
    "layout_text",
    "shown_format",
    "starts_list_item",
    "unit_html",
    "unit_kinds",
    "written_text",
]

_RENDERED = ("rst", "html")


def shown_format(seg: Any) -> str:
    """The format the views show ``seg``'s text in: "markdown", "rst", "html" or "plain"."""
    if getattr(seg, "lines", False) or not seg.text:
        return "plain"
    if getattr(seg, "markdown", None):
        return "markdown"
    fmt = getattr(seg, "format", None)
    return fmt if fmt in _RENDERED else "plain"


def _structure(seg: Any, fmt: str):
    """The structure of ``seg``'s text as the reader gave it (its warnings were given when it was segmented)."""
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        try:
            return read_structure(seg.text, fmt)
        except ValueError:
            return None


def unit_kinds(seg: Any) -> list[str]:
    """Each unit's kind: ``"block"``, ``"heading"`` or ``"prose"`` (every unit ``"prose"`` in plain text)."""
    fmt = shown_format(seg)
    if fmt == "markdown":
        return markdown_view.unit_kinds(seg)
    structure = _structure(seg, fmt) if fmt in _RENDERED else None
    if structure is None:
        return ["prose"] * len(seg.sentences)
    heads, units = set(structure.headings), set(structure.units)
    return ["heading" if s in heads else "block" if s in units else "prose" for s in map(tuple, seg.spans)]


@functools.lru_cache(maxsize=4)
def _line_starts(text: str) -> list[int]:
    return line_starts(text)


def _line(text: str, a: int) -> int:
    """The line (index, from 0, as ``str.splitlines`` counts them) offset ``a`` lies on."""
    return bisect.bisect_right(_line_starts(text), a) - 1


def block_lines(text: str, a: int, b: int) -> str:
    """``text[a:b]``, a block, with its lines as written: from the start of its first line when only its
    indentation comes before it there, the indentation the lines share taken off."""
    start = _line_starts(text)[_line(text, a)]
    if text[start:a].strip(" \t"):
        return text[a:b]
    return textwrap.dedent(text[start:b])


def written_text(seg: Any, i: int, kind: str) -> str:
    """Unit ``i`` as the text view prints it: a block with its lines kept (as written; an HTML block as its
    text), else its sentence string."""
    if kind != "block":
        return seg.sentences[i]
    a, b = seg.spans[i]
    if shown_format(seg) == "html":
        return html_block_text(seg.text, a, b)
    return block_lines(seg.text, a, b)  # Markdown's and reStructuredText's blocks as written


def unit_html(seg: Any, i: int, kind: str) -> str:
    """Unit ``i`` as HTML, its format rendered (see the module's notes)."""
    fmt = shown_format(seg)
    if fmt == "markdown":
        return markdown_view.unit_html(seg, i, kind)
    a, b = seg.spans[i]
    if fmt == "html":
        return html_unit_html(seg.text, a, b, block=kind == "block")
    if fmt == "rst":
        if kind != "block":
            return rst_inline_html(seg.text[a:b])
        body = block_lines(seg.text, a, b)
        # a literal block (after "::"): the unit is its body, whose first line docutils names
        if not body.lstrip().startswith("..") and _line(seg.text, a) in literal_block_lines(seg.text):
            return literal_html(body.strip("\n"))
        return rst_block_html(body)
    return escape(seg.sentences[i], quote=True)


def starts_list_item(seg: Any, i: int) -> bool:
    """True when unit ``i`` starts a list item."""
    fmt = shown_format(seg)
    if fmt == "markdown":
        return markdown_view.starts_list_item(seg, i)
    a, b = seg.spans[i]
    if fmt == "html":
        return starts_html_list_item(seg.text, a)
    return fmt == "rst" and starts_rst_list(seg.text[a:b])


def heading_html(title: str, seg: Any) -> str:
    """A heading's title (``seg.segment_headings``) as HTML, its inline markup rendered in ``seg``'s format."""
    fmt = shown_format(seg)
    if fmt == "rst":
        return rst_inline_html(title)
    return markdown_view.heading_html(title, markdown=fmt == "markdown")


def layout_text(seg: Any) -> str:
    """The text whose blank lines break paragraphs: reStructuredText's and HTML's structure view (an HTML block
    element's start or end is a blank line), else the text itself. As long as the text."""
    fmt = shown_format(seg)
    structure = _structure(seg, fmt) if fmt in _RENDERED else None
    return seg.text if structure is None else structure.view
