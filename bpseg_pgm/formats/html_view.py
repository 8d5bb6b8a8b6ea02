"""How the text and HTML views show a unit of an HTML text: its own markup, kept where it is safe, and its lines.

A unit's span (:mod:`bpseg_pgm.structure.html`) runs from its first to its last character of text, so the tags
around it lie outside it: the elements open where it starts (``<pre><code>`` around a code block, ``<em>`` around
a sentence) are found by reading the whole text once (:func:`_context`, kept for the last few texts), and the unit
is written from them and its own markup, read again by the standard library's parser:

* :func:`html_unit_html`: a unit as HTML with only these elements kept: inline ones (``<code>``, ``<em>``,
  ``<strong>``, ``<a>``, ``<kbd>``, ``<sub>``, ...), and in a block unit ``<pre>`` (its lines kept) and tables. No
  other tag, no attribute but a link's address (only a safe one: :func:`~bpseg_pgm.formats.links.safe_href`), a
  code block's ``language-...`` class and a cell's span; every text escaped; scripts, styles and the other
  elements the reader drops left out; an image shown as a link to it (``[image: alt]``), so nothing is loaded. A
  unit that starts a list item (``<li>``) starts with its bullet or number.
* :func:`html_block_text`: a block unit (``<pre>``, a table) as the text view prints it: its text, tags left out
  and entities read, its lines kept (a table one row a line, its cells between ``|``).
"""

from __future__ import annotations

import bisect
import functools
import re
from html import escape
from html.parser import HTMLParser

from bpseg_pgm.formats.links import safe_href
from bpseg_pgm.structure.blocks import line_starts

__all__ = ["html_block_text", "html_unit_html", "starts_html_list_item"]

_INLINE = frozenset(
    "a abbr b bdi cite code del dfn em i ins kbd mark q s samp small strong sub sup time tt u var".split()
)
_TABLE = frozenset("table caption thead tbody tfoot tr th td".split())
_LISTS = frozenset({"ul", "ol", "li"})
#: the elements :mod:`bpseg_pgm.structure.html` drops, with their text
_DROPPED = frozenset("script style nav head template noscript svg".split())
_VOID = frozenset("area base br col embed hr img input link meta param source track wbr".split())
_RENAMED = {"tt": "code"}
_ENTITY = re.compile(r"&(?:#[0-9]{1,8};?|#[xX][0-9a-fA-F]{1,8};?|[A-Za-z][A-Za-z0-9]{0,31};?)")
_LANGUAGE = re.compile(r"\A(?:language|lang)-([\w+-]{1,40})\Z")
_SPAN = re.compile(r"\A[0-9]{1,3}\Z")


def _attrs(tag: str, attrs) -> str:
    """The attributes kept of an element (see the module's notes), as HTML."""
    values = {name: value for name, value in attrs if value is not None}
    if tag == "a":
        href = safe_href(values.get("href"))
        return f' href="{href}"' if href else ""
    if tag == "code":
        langs = [m.group(1) for c in (values.get("class") or "").split() if (m := _LANGUAGE.match(c))]
        return f' class="language-{langs[0]}"' if langs else ""
    if tag in ("td", "th"):
        return "".join(f' {k}="{values[k]}"' for k in ("colspan", "rowspan") if _SPAN.match(values.get(k) or ""))
    return ""


class _Context(HTMLParser):
    """Reads a whole text: the kept elements open after each tag, and where each list item's text starts."""

    def __init__(self, text: str) -> None:
        super().__init__(convert_charrefs=True)
        self.starts = line_starts(text)
        self.offsets: list[int] = []
        self.stacks: list[tuple[tuple[str, str], ...]] = []
        self.stack: list[tuple[str, str]] = []
        self.dropped = 0
        self.item: str | None = None  # the marker of a list item whose text has not started yet
        self.counts: list[int] = []  # the items seen in each open <ol> (0 for an <ul>)
        self.items: dict[int, str] = {}

    def _offset(self) -> int:
        line, col = self.getpos()
        return self.starts[min(line - 1, len(self.starts) - 1)] + col

    def _pop_to(self, tag: str, within: tuple[str, ...] = ()) -> None:
        """Close the innermost open ``tag`` and what was opened in it, unless one of ``within`` was opened after
        it (an item of a list inside the item: not closed by the inner list's items)."""
        names = [t for t, _ in self.stack]
        for i in range(len(names) - 1, -1, -1):
            if names[i] == tag:
                del self.stack[i:]
                return
            if names[i] in within:
                return

    def _record(self) -> None:
        self.offsets.append(self._offset())
        self.stacks.append(tuple(self.stack))

    def handle_starttag(self, tag: str, attrs) -> None:
        if tag in _DROPPED:
            self.dropped += 1
            return
        if self.dropped or tag in _VOID:
            return
        if tag in ("ul", "ol"):
            self.counts.append(0 if tag == "ul" else 1)
        elif tag == "li":
            n = self.counts[-1] if self.counts else 0
            self.item = f"{n}. " if n else "• "
            if self.counts and n:
                self.counts[-1] += 1
            self._pop_to("li", ("ul", "ol"))
        elif tag in ("tr", "td", "th"):
            for t in ("td", "th") + (("tr",) if tag == "tr" else ()):
                self._pop_to(t, ("table",))
        if tag in _INLINE or tag in _TABLE or tag in _LISTS or tag == "pre":
            self.stack.append((tag, _attrs(tag, attrs)))
            self._record()

    def handle_startendtag(self, tag: str, attrs) -> None:
        self.handle_starttag(tag, attrs)  # <br/> is a start tag alone, no end tag

    def handle_endtag(self, tag: str) -> None:
        if tag in _DROPPED:
            self.dropped = max(0, self.dropped - 1)
            return
        if self.dropped:
            return
        if tag in ("ul", "ol") and self.counts:
            self.counts.pop()
        if any(t == tag for t, _ in self.stack):
            self._pop_to(tag)
        elif tag not in _INLINE:  # a block ends: the inline elements left open in it end with it
            while self.stack and self.stack[-1][0] in _INLINE:
                self.stack.pop()
        self._record()

    def handle_data(self, data: str) -> None:
        if self.dropped or self.item is None or not data.strip():
            return
        self.items[self._offset() + len(data) - len(data.lstrip())] = self.item
        self.item = None


@functools.lru_cache(maxsize=4)
def _context(text: str) -> _Context:
    reader = _Context(text)
    try:
        reader.feed(text)
        reader.close()
    except Exception:  # as the structure reader: the parser reads nearly anything; what it read is kept
        pass
    return reader


def _open_at(text: str, at: int) -> tuple[tuple[str, str], ...]:
    """The kept elements open at offset ``at`` (a unit's first character, never inside a tag)."""
    ctx = _context(text)
    i = bisect.bisect_left(ctx.offsets, at)
    return ctx.stacks[i - 1] if i else ()


class _Unit(HTMLParser):
    """Writes one unit's markup: only the kept elements, their text escaped (or, for the text view, as text)."""

    def __init__(self, opened, keep: frozenset[str], as_text: bool) -> None:
        super().__init__(convert_charrefs=True)
        self.keep, self.as_text = keep, as_text
        self.out: list[str] = []
        self.stack: list[tuple[str, bool]] = []  # the open elements, and whether each was written
        self.dropped = 0
        self.row_cells = 0
        for tag, attrs in opened:
            self._open(tag, attrs)

    def _open(self, tag: str, attrs: str) -> None:
        if tag in ("td", "th"):
            self.row_cells += 1
            if self.as_text and self.row_cells > 1:
                self.out.append(" | ")
        elif tag == "tr":
            self.row_cells = 0
        shown = not self.as_text and (tag != "a" or bool(attrs))  # a link without a safe address is its text
        self.stack.append((tag, shown))
        if shown:
            self.out.append(f"<{_RENAMED.get(tag, tag)}{attrs}>")

    def _opened(self, tag: str) -> bool:
        return any(t == tag for t, _ in self.stack)

    def _close(self, tag: str) -> None:
        while self.stack:
            top, shown = self.stack.pop()
            if shown:
                self.out.append(f"</{_RENAMED.get(top, top)}>")
            elif self.as_text and top == "tr":
                self.out.append("\n")
            if top == tag:
                return

    def handle_starttag(self, tag: str, attrs) -> None:
        if tag in _DROPPED:
            self.dropped += 1
        elif self.dropped:
            return
        elif tag == "br":
            self.out.append("\n" if self._opened("pre") or self.as_text else "<br>")
        elif tag == "img":
            values = dict(attrs)
            alt = escape(values.get("alt") or values.get("src") or "image", quote=True)
            href = None if self.as_text else safe_href(values.get("src"))
            self.out.append(f'<a class="img" href="{href}">[image: {alt}]</a>' if href else f"[image: {alt}]")
        elif tag in self.keep and tag not in _VOID:
            if tag in ("tr", "td", "th"):
                for t in ("td", "th") + (("tr",) if tag == "tr" else ()):
                    if self._opened(t):
                        self._close(t)
            self._open(tag, _attrs(tag, attrs))

    def handle_startendtag(self, tag: str, attrs) -> None:
        if tag not in _DROPPED:
            self.handle_starttag(tag, attrs)

    def handle_endtag(self, tag: str) -> None:
        if tag in _DROPPED:
            self.dropped = max(0, self.dropped - 1)
        elif not self.dropped and self._opened(tag):
            self._close(tag)

    def handle_data(self, data: str) -> None:
        if not self.dropped:
            self.out.append(data if self.as_text else escape(data, quote=True))

    def result(self) -> str:
        self.close()
        while self.stack:
            self._close(self.stack[-1][0])
        return "".join(self.out)


def _render(text: str, a: int, b: int, *, block: bool, as_text: bool) -> str:
    opened = _open_at(text, a)
    if block:  # from the outermost <pre> or table around the unit: the lists and inline markup outside it are not its
        start = next((i for i, (t, _) in enumerate(opened) if t in ("pre", "table")), len(opened))
        opened = opened[start:]
        keep = _INLINE | _TABLE | {"pre"}
    else:
        opened = tuple(o for o in opened if o[0] in _INLINE)
        keep = _INLINE
    if any(t == "pre" for t, _ in opened):  # a code block's first line keeps its indentation
        while a > 0 and text[a - 1] in " \t":
            a -= 1
    amp = text.rfind("&", max(a, b - 42), b)  # an entity cut by the span's end: read it whole
    if amp >= 0 and (m := _ENTITY.match(text, amp)) is not None:
        b = max(b, m.end())
    writer = _Unit(opened, keep, as_text)
    try:
        writer.feed(text[a:b])
        return writer.result()
    except Exception:  # never the markup: the text, escaped
        return text[a:b] if as_text else escape(text[a:b], quote=True)


def starts_html_list_item(text: str, a: int) -> bool:
    """True when the unit starting at offset ``a`` starts a list item's text."""
    return a in _context(text).items


def html_unit_html(text: str, a: int, b: int, *, block: bool) -> str:
    """The unit ``text[a:b]`` of an HTML text as safe HTML (see the module's notes); ``block``: a ``<pre>`` or a
    table, shown as one."""
    lead = _context(text).items.get(a, "")
    return escape(lead) + _render(text, a, b, block=block, as_text=False)


def html_block_text(text: str, a: int, b: int) -> str:
    """The block unit ``text[a:b]`` of an HTML text as the text view prints it (see the module's notes)."""
    out = _render(text, a, b, block=True, as_text=True)
    return "\n".join(line.rstrip() for line in out.strip("\n").splitlines())
