"""How the text and HTML views show a Markdown document's units: blocks as written, Markdown rendered safely.

A segmentation read as Markdown (``seg.markdown``) has units that are whole blocks: a fenced or indented code
block, a table, an HTML block.  Their sentence strings (``seg.sentences``) have their
whitespace collapsed (what was embedded), so the views take the original text instead:

* :func:`unit_kinds`: each unit's kind, ``"block"``, ``"heading"`` or ``"prose"``;
* :func:`written_text`: what the text view prints for a unit (a block exactly as written, the rest as its
  sentence string);
* :func:`front_matter_html`: the YAML front matter (no unit: metadata) as the HTML shows it, uncoloured;
* :func:`unit_html`: a unit as HTML, its Markdown rendered by ``markdown-it-py`` (CommonMark with GFM tables:
  headings, code, links, emphasis, lists; the list marker shown as a bullet or its number).  Raw HTML in the
  Markdown is escaped, never passed through (the parser runs with ``html`` off, and links whose scheme is
  ``javascript:``, ``vbscript:``, ``file:`` or ``data:`` are not made links); an image is shown as a link to
  it (``[image: alt]``), so the page loads nothing from the network.
"""

from __future__ import annotations

import functools
import re
from html import escape
from typing import Any

from bpseg_pgm.chunks.markdown import front_matter_end, markdown_blocks

__all__ = ["front_matter_html", "heading_html", "starts_list_item", "unit_html", "unit_kinds", "written_text"]

# a list item's marker at the start of a unit, and the quote marks before it
_LIST_MARKER = re.compile(r"\A[ \t]*(?:>[ \t]?)*[ \t]*(?:([-*+])|(\d{1,9})[.)])(?:[ \t]+|\Z)")
_QUOTE = re.compile(r"^[ \t]{0,3}>[ \t]?", re.M)


@functools.lru_cache(maxsize=1)
def _parser():
    from markdown_it import MarkdownIt

    md = MarkdownIt("commonmark", {"html": False}).enable("table")

    def image(renderer, tokens, idx, options, env):
        tok = tokens[idx]
        alt = escape(renderer.renderInlineAsText(tok.children or [], options, env), quote=True)
        src = escape(str(tok.attrGet("src") or ""), quote=True)
        return f'<a class="img" href="{src}">[image: {alt}]</a>' if src else f"[image: {alt}]"

    md.add_render_rule("image", image)
    return md


def unit_kinds(seg: Any) -> list[str]:
    """Each unit's kind in a Markdown segmentation: ``"block"`` (code, table, HTML block), ``"heading"`` or
    ``"prose"``; every unit is ``"prose"`` when the text was not read as Markdown."""
    n = len(seg.sentences)
    if not getattr(seg, "markdown", None) or getattr(seg, "lines", False) or not seg.text:
        return ["prose"] * n
    blocks = markdown_blocks(seg.text)
    units, headings = set(blocks.units), set(blocks.headings)
    kinds = []
    for a, b in seg.spans:
        span = (a, b)
        if span in headings:
            kinds.append("heading")
        elif span in units:
            kinds.append("block")
        else:
            kinds.append("prose")
    return kinds


def written_text(seg: Any, i: int, kind: str) -> str:
    """Unit ``i`` as the text view prints it: a block exactly as written, else its sentence string."""
    if kind == "block":
        a, b = seg.spans[i]
        return seg.text[a:b]
    return seg.sentences[i]


def unit_html(seg: Any, i: int, kind: str) -> str:
    """Unit ``i`` as HTML (its Markdown rendered; plain text escaped when the text was not Markdown)."""
    if kind == "prose" and not getattr(seg, "markdown", None):
        return escape(seg.sentences[i], quote=True)
    a, b = seg.spans[i]
    raw = seg.text[a:b]
    md = _parser()
    if kind == "block":
        return md.render(raw)
    if kind == "heading":
        tokens = md.parse(raw)
        title = next((t.content for t in tokens if t.type == "inline"), raw)
        return md.renderInline(title.strip())
    marker = _LIST_MARKER.match(raw)
    lead = ""
    if marker:
        lead = "• " if marker.group(1) else f"{marker.group(2)}. "
        raw = raw[marker.end() :]
    return escape(lead) + md.renderInline(_QUOTE.sub("", raw).strip())


def front_matter_html(seg: Any) -> str:
    """The YAML front matter of a Markdown segmentation's text, escaped in a ``<pre class="front">``, or ``""``."""
    if not getattr(seg, "markdown", None) or getattr(seg, "lines", False) or not seg.text:
        return ""
    end = front_matter_end(seg.text)
    return f'<pre class="front">{escape(seg.text[:end].strip(), quote=True)}</pre>' if end else ""


def heading_html(title: str, *, markdown: bool) -> str:
    """A heading's title as HTML: rendered as inline Markdown when the text was read as Markdown (``markdown``),
    else escaped as the plain text it is (an RST or HTML heading's ``[x](url)`` is no link)."""
    return _parser().renderInline(title) if markdown else escape(title, quote=True)


def starts_list_item(seg: Any, i: int) -> bool:
    """True when Markdown unit ``i`` starts a list item (its text starts with a list marker)."""
    a, b = seg.spans[i]
    return bool(getattr(seg, "markdown", None)) and bool(_LIST_MARKER.match(seg.text[a:b]))
