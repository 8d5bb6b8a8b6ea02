"""HTML: headings, paragraphs, lists, preformatted text and tables, read with the standard library's parser.

``html.parser.HTMLParser`` reads the file (it accepts unbalanced or broken markup). The units are the text inside
the tags, with offsets into the file as given:

* the view keeps each piece of text at its place and blanks every tag, comment and declaration; an entity
  (``&amp;``) becomes its character followed by spaces; the text of ``<script>``, ``<style>``, ``<nav>``,
  ``<head>``, ``<template>``, ``<noscript>`` and ``<svg>`` is dropped; where a block element (``<p>``, ``<div>``,
  ``<li>``, ``<h2>``, ``<br>``, ...) starts or ends, the view has a blank line, so no sentence crosses it;
* a unit's span runs from its first to its last character in the file: a sentence's span may hold inline tags
  (``<b>``, ``<a href=...>``), which its text (the view's) does not; the tags around it are outside;
* ``<h1>``-``<h6>`` are headings of levels 1-6 (one unit each); ``<pre>`` and ``<table>`` are one unit each and
  never cut; each ``<li>`` is a block no chunk cuts. An element left open ends where the next block of its kind
  starts (a heading: at the next block element), or at the end of the file.
"""

from __future__ import annotations

import functools
import html
import re
from html.parser import HTMLParser

from bpseg_pgm.structure.blocks import Structure, line_starts, outermost
from bpseg_pgm.utils.spans import trim_span

__all__ = ["html_structure", "looks_like_html"]

_DROPPED = frozenset("script style nav head template noscript svg".split())
_BLOCK = frozenset(
    """address article aside blockquote body br caption dd details dialog div dl dt fieldset figcaption figure footer
    form h1 h2 h3 h4 h5 h6 header hr html li main ol p pre section summary table tbody td tfoot th thead tr ul""".split()
)
_HEADINGS = {f"h{i}": i for i in range(1, 7)}
_WHOLE = frozenset({"pre", "table"})
_LISTS = frozenset({"ul", "ol", "li"})
_SIGNS = re.compile(r"<(?:!doctype\s+html|html|body|p|h[1-6]|div|ul|ol|li|table|pre|section|article)\b[^>]*>", re.I)
_CLOSE = re.compile(r"</(?:html|body|p|h[1-6]|div|ul|ol|li|table|pre|section|article)\s*>", re.I)


class _Reader(HTMLParser):
    def __init__(self, text: str) -> None:
        super().__init__(convert_charrefs=False)
        self.text = text
        self.starts = line_starts(text)
        self.view = [" " if c not in "\r\n" else c for c in text]
        self.dropped = 0
        self.open: dict[str, list[int]] = {}  # whole blocks and list items: their open tags' offsets
        self.heading: tuple[int, int] | None = None  # (start, level) of an open heading
        self.headings: list[tuple[int, int, int]] = []
        self.whole: list[tuple[int, int]] = []
        self.items: list[tuple[int, int]] = []

    def _list_start(self) -> int:
        return max([-1, *self.open.get("ul", []), *self.open.get("ol", [])])

    def _offset(self) -> int:
        line, col = self.getpos()
        return min(self.starts[min(line - 1, len(self.starts) - 1)] + col, len(self.text))

    def _break(self, at: int) -> None:
        """A blank line in the view at ``at`` (a tag's first two characters)."""
        for i in range(at, min(at + 2, len(self.view))):
            self.view[i] = "\n"

    def _end_heading(self, at: int) -> None:
        if self.heading is not None:
            start, level = self.heading
            self.headings.append((start, at, level))
            self.heading = None

    def handle_starttag(self, tag: str, attrs) -> None:
        at = self._offset()
        if tag in _DROPPED:
            self.dropped += 1
            return
        if tag not in _BLOCK:
            return
        self._break(at)
        self._end_heading(at)
        if tag in _HEADINGS and not self.dropped:
            self.heading = (at, _HEADINGS[tag])
        if tag in _WHOLE or tag in _LISTS:
            if tag == "li" and self.open.get("li") and self.open["li"][-1] > self._list_start():
                self.items.append((self.open["li"].pop(), at))  # an unclosed item ends where the next one starts
            self.open.setdefault(tag, []).append(at)

    def handle_startendtag(self, tag: str, attrs) -> None:
        if tag in _BLOCK and not self.dropped:
            self._break(self._offset())

    def handle_endtag(self, tag: str) -> None:
        at = self._offset()
        end = self.text.find(">", at)
        end = len(self.text) if end < 0 else end + 1
        if tag in _DROPPED:
            self.dropped = max(0, self.dropped - 1)
            return
        if tag not in _BLOCK:
            return
        self._break(at)
        if tag in _HEADINGS:
            self._end_heading(at)
        if tag in ("ul", "ol"):
            start = self.open[tag].pop() if self.open.get(tag) else -1
            while self.open.get("li") and self.open["li"][-1] > start:  # the list's unclosed items end with it
                self.items.append((self.open["li"].pop(), at))
        elif self.open.get(tag):
            (self.whole if tag in _WHOLE else self.items).append((self.open[tag].pop(), end))

    def _put(self, data: str, at: int) -> None:
        if self.dropped:
            return
        for i, c in enumerate(data):
            if at + i < len(self.view) and self.text[at + i] == c and c not in "\r\n":
                self.view[at + i] = c

    def handle_data(self, data: str) -> None:
        self._put(data, self._offset())

    def _entity(self, raw: str) -> None:
        at = self._offset()
        if self.dropped or not self.text.startswith(raw, at):
            return
        char = html.unescape(raw)
        if len(char) == 1 and not char.isspace() and char.isprintable():
            self.view[at] = char

    def handle_entityref(self, name: str) -> None:
        self._entity(f"&{name};" if self.text.startswith(f"&{name};", self._offset()) else f"&{name}")

    def handle_charref(self, name: str) -> None:
        self._entity(f"&#{name};" if self.text.startswith(f"&#{name};", self._offset()) else f"&#{name}")

    def finish(self) -> None:
        self.close()
        n = len(self.text)
        self._end_heading(n)
        for tag, starts in self.open.items():
            if tag in _WHOLE or tag == "li":
                for a in starts:
                    (self.whole if tag in _WHOLE else self.items).append((a, n))


@functools.lru_cache(maxsize=4)
def html_structure(text: str) -> Structure:
    """The :class:`Structure` of an HTML text (see the module's notes on spans). Broken markup is read as the
    parser reads it; a text the parser cannot read is a ValueError."""
    reader = _Reader(text)
    try:
        reader.feed(text)
        reader.finish()
    except Exception as exc:  # the stdlib parser accepts nearly anything; say so if it does not
        raise ValueError(f"format 'html': the text could not be read as HTML ({exc})") from None
    view = "".join(reader.view)

    def trim(spans):
        return [s for a, b in spans if (s := trim_span(view, a, b)) is not None]

    headings = sorted({s: level for a, b, level in reader.headings if (s := trim_span(view, a, b))}.items())
    whole = list(outermost(trim(reader.whole)))
    heads = [(a, b) for (a, b), _ in headings if not any(w0 <= a < w1 for w0, w1 in whole)]
    levels = [level for (a, b), level in headings if (a, b) in set(heads)]
    return Structure(
        view,
        outermost(trim(reader.whole) + trim(reader.items)),
        outermost(whole + heads),
        tuple(heads),
        tuple(levels),
    )


def looks_like_html(text: str) -> bool:
    """True if ``text`` starts with ``<!DOCTYPE html>`` or ``<html>``, or has at least two block tags (``<p>``,
    ``<h2>``, ``<div>``, ...) and one closing block tag."""
    if not isinstance(text, str):
        return False
    head = text.lstrip("\ufeff \t\r\n")[:15].lower()
    if head.startswith(("<!doctype html", "<html")):
        return True
    return len(_SIGNS.findall(text, 0, 200_000)) >= 2 and _CLOSE.search(text, 0, 200_000) is not None
