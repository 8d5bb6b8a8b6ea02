"""HTML: headings, paragraphs, lists, preformatted text and tables, read with the standard library's parser.

``html.parser.HTMLParser`` reads the file (it accepts broken markup); the units are the text inside the tags, with
offsets into the file as given (docs/howto/formats.md):

* the view blanks every tag, comment and declaration and the text of the dropped elements (``<script>``,
  ``<style>``, ``<nav>``, ``<head>``, ``<template>``, ``<noscript>``, ``<svg>``); an entity becomes its character
  followed by spaces; a block element's start or end is a blank line, so no sentence crosses it;
* ``<h1>``-``<h6>`` are headings (one unit each); ``<pre>`` and ``<table>`` are one unit each, never cut; each
  ``<li>`` is a block no chunk cuts. An element left open ends where the next block of its kind starts, or at
  the end of the file;
* a dropped element left open ends where HTML5 ends it (``<head>`` at the first element it may not hold or at text
  outside ``<title>``, ``<svg>`` at HTML markup, ``<nav>`` and ``<svg>`` at the end tag of an element around
  them); one that drops text without its own end tag is a ``UserWarning`` naming it.
"""

from __future__ import annotations

import bisect
import functools
import html
import re
import warnings
from collections import Counter
from html.parser import HTMLParser

from bpseg_pgm.structure.blocks import Structure, line_starts, outermost
from bpseg_pgm.utils.spans import trim_spans

__all__ = ["html_structure", "looks_like_html"]

_DROPPED = frozenset("script style nav head template noscript svg".split())
_BLOCK = frozenset(
    """address article aside blockquote body br caption dd details dialog div dl dt fieldset figcaption figure footer
    form h1 h2 h3 h4 h5 h6 header hr html li main ol p pre section summary table tbody td tfoot th thead tr ul""".split()
)
#: start tags that leave ``<head>`` open (HTML5's "in head" insertion mode); any other start tag, and any text outside
#: ``<title>``, ends it, as ``<body>`` does
_IN_HEAD = frozenset("base basefont bgsound head html link meta noframes noscript script style template title".split())
#: start tags that end an ``<svg>`` (HTML5's breakout from foreign content; ``<font>`` only with these attributes)
_OUT_OF_SVG = frozenset(
    """b big blockquote body br center code dd div dl dt em embed h1 h2 h3 h4 h5 h6 head hr i img li listing menu meta
    nobr ol p pre ruby s small span strong strike sub sup table tt u ul var""".split()
)
_FONT_OUT_OF_SVG = frozenset({"color", "face", "size"})
#: elements whose end tag closes every element opened inside them, a dropped one (``<nav>``) included
_CONTAINERS = frozenset(
    """address article aside blockquote body details dialog div dl fieldset figure footer form header html main ol
    section table ul""".split()
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
        self.dropping: list[tuple[str, int, dict[str, int]]] = []  # open dropped elements: name, offset, depths
        self.depth: Counter[str] = Counter()  # how many of each container are open
        self.names: Counter[str] = Counter()  # how many of each dropped element are open
        self.in_title = False
        self.unclosed: list[str] = []  # what to warn of: dropped elements never closed
        self.open: dict[str, list[int]] = {}  # whole blocks and list items: their open tags' offsets
        self.heading: tuple[int, int] | None = None  # (start, level) of an open heading
        self.headings: list[tuple[int, int, int]] = []
        self.whole: list[tuple[int, int]] = []
        self.items: list[tuple[int, int]] = []

    @property
    def dropped(self) -> bool:
        """True inside a dropped element (its text is not in the view)."""
        return bool(self.dropping)

    def _list_start(self) -> int:
        """Where the innermost open list starts (-1: none); the offsets of each tag's open elements increase."""
        return max([-1, *(self.open[t][-1] for t in ("ul", "ol") if self.open.get(t))])

    def _undrop(self, i: int) -> None:
        """Close the open dropped element ``i`` and every one opened inside it."""
        for name, _, _ in self.dropping[i:]:
            self.names[name] -= 1
        del self.dropping[i:]

    def _line(self, at: int) -> int:
        return bisect.bisect_right(self.starts, at)

    def _never_closed(self, i: int, at: int, by: str | None) -> None:
        """Say that open dropped element ``i`` (the outermost one still open, not ``<head>``) ends at ``at`` without
        its end tag, at ``by`` (an ancestor's end tag) or at the end of the text (None), if text was dropped."""
        name, start, _ = self.dropping[i]
        tag_end = self.text.find(">", start)
        tag_end = at if tag_end < 0 else min(at, tag_end + 1)
        if name == "head" or not self.text[tag_end:at].strip():
            return
        where = "the rest of the text" if by is None else f"all up to </{by}> (line {self._line(at)})"
        self.unclosed.append(
            f"format 'html': <{name}> at line {self._line(start)} is never closed, so {where}, {at - start} "
            f"characters, is dropped as its content; close it (</{name}>)"
        )

    def _end_head(self) -> None:
        """``<head>``, innermost open, ends here (where HTML5 ends it: a body element, text, ``</body>``)."""
        if self.dropping and self.dropping[-1][0] == "head":
            self._undrop(len(self.dropping) - 1)
            self.in_title = False

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

    def _ends_dropped(self, tag: str, attrs) -> None:
        """A start tag ``tag`` ends the innermost open ``<head>`` unless the head may hold it, and an ``<svg>``
        when it is HTML (as HTML5 reads them)."""
        top = self.dropping[-1][0] if self.dropping else None
        if top == "head" and tag not in _IN_HEAD:
            self._end_head()
        elif top == "svg" and (
            tag in _OUT_OF_SVG or (tag == "font" and any(name in _FONT_OUT_OF_SVG for name, _ in attrs))
        ):
            while self.dropping and self.dropping[-1][0] == "svg":  # HTML markup ends foreign content
                self._undrop(len(self.dropping) - 1)

    def handle_starttag(self, tag: str, attrs) -> None:
        at = self._offset()
        self._ends_dropped(tag, attrs)
        if tag == "title":
            self.in_title = True
        if tag in _CONTAINERS:
            self.depth[tag] += 1
        if tag in _DROPPED:
            if tag != "head" or not self.names["head"]:
                self.dropping.append((tag, at, dict(self.depth)))
                self.names[tag] += 1
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
        self._ends_dropped(tag, attrs)
        if tag in _BLOCK and not self.dropped:
            self._break(self._offset())

    def _close_dropped_by(self, tag: str, at: int) -> None:
        """End tag ``tag``: it closes the dropped elements it names, or, for a container opened before them (a
        ``</div>`` around an unclosed ``<nav>``), those opened inside that container, as HTML5 closes them. (Read
        from the innermost: what is read is closed, or ends the search, so nesting costs no more than its size.)"""
        stack = self.dropping
        if tag in _DROPPED:
            if self.names[tag]:
                i = len(stack) - 1
                while stack[i][0] != tag:
                    i -= 1
                self._undrop(i)
            return
        if stack and stack[-1][0] == "head" and tag in ("body", "html", "br"):
            self._end_head()
            return
        if tag not in _CONTAINERS or not self.depth[tag]:
            return
        # the containers open when each element opened only grow inward, so those opened inside the one closed
        # now are the innermost few
        i = len(stack)
        while i > 0 and stack[i - 1][0] != "template" and stack[i - 1][2].get(tag, 0) >= self.depth[tag]:
            i -= 1  # a template's content is apart: an end tag in it closes nothing outside it
        if i < len(stack):
            self._never_closed(next((j for j in range(i, len(stack)) if stack[j][0] != "head"), i), at, tag)
            self._undrop(i)

    def handle_endtag(self, tag: str) -> None:
        at = self._offset()
        end = self.text.find(">", at)
        end = len(self.text) if end < 0 else end + 1
        if tag == "title":
            self.in_title = False
        self._close_dropped_by(tag, at)
        if tag in _CONTAINERS and self.depth[tag]:
            self.depth[tag] -= 1
        if tag in _DROPPED or tag not in _BLOCK:
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
        if not self.in_title and data.strip():
            self._end_head()  # text is the body's (HTML5): the head has ended
        self._put(data, self._offset())

    def _entity(self, raw: str) -> None:
        at = self._offset()
        if not self.in_title:
            self._end_head()
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
        # the outermost element still open that dropped text (an open head dropped none: text would end it)
        outer = next((i for i, (name, _, _) in enumerate(self.dropping) if name != "head"), None)
        if outer is not None:
            self._never_closed(outer, n, None)
        self._end_heading(n)
        for tag, starts in self.open.items():
            if tag in _WHOLE or tag == "li":
                for a in starts:
                    (self.whole if tag in _WHOLE else self.items).append((a, n))


def html_structure(text: str) -> Structure:
    """The :class:`Structure` of an HTML text (see the module's notes on spans). Broken markup is read as the
    parser reads it; a text the parser cannot read is a ValueError. A dropped element (``<style>``, ``<nav>``,
    ``<template>``, ...) left open to the end of the text, whose text is then all dropped, is a UserWarning
    naming it."""
    structure, unclosed = _read(text)
    for message in unclosed:
        warnings.warn(message, UserWarning, stacklevel=2)
    return structure


@functools.lru_cache(maxsize=4)
def _read(text: str) -> tuple[Structure, tuple[str, ...]]:
    """The structure, and what to warn of; kept for the last few texts (the warnings are given at each call)."""
    reader = _Reader(text)
    try:
        reader.feed(text)
        reader.finish()
    except Exception as exc:  # the stdlib parser accepts nearly anything; say so if it does not
        raise ValueError(f"format 'html': the text could not be read as HTML ({exc})") from None
    view = "".join(reader.view)

    def trim(spans):
        return [s for s in trim_spans(view, spans) if s is not None]

    raw = reader.headings
    headings = sorted({s: level for s, (_, _, level) in zip(trim_spans(view, [h[:2] for h in raw]), raw) if s}.items())
    whole = list(outermost(trim(reader.whole)))  # disjoint, in order
    ends = [b for _, b in whole]

    def in_whole(a: int) -> bool:
        i = bisect.bisect_right(ends, a)
        return i < len(whole) and whole[i][0] <= a

    heads = [(span, level) for span, level in headings if not in_whole(span[0])]
    unclosed = tuple(reader.unclosed)
    structure = Structure(
        view,
        outermost(trim(reader.whole) + trim(reader.items)),
        outermost(whole + [span for span, _ in heads]),
        tuple(span for span, _ in heads),
        tuple(level for _, level in heads),
    )
    return structure, unclosed


def looks_like_html(text: str) -> bool:
    """True if ``text`` starts with ``<!DOCTYPE html>`` or ``<html>``, or has at least two block tags (``<p>``,
    ``<h2>``, ``<div>``, ...) and one closing block tag."""
    if not isinstance(text, str):
        return False
    head = text.lstrip("\ufeff \t\r\n")[:15].lower()
    if head.startswith(("<!doctype html", "<html")):
        return True
    return len(_SIGNS.findall(text, 0, 200_000)) >= 2 and _CLOSE.search(text, 0, 200_000) is not None
