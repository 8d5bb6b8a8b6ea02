"""What every structure reader returns: a view of the text and the character ranges of its blocks."""

from __future__ import annotations

import re
from dataclasses import dataclass

from bpseg_pgm.types.chunk import Span
from bpseg_pgm.utils.spans import outermost

__all__ = ["Structure", "line_starts", "outermost", "blank"]

_LINE_END = re.compile(r"\r\n|[\n\r\x0b\x0c\x1c\x1d\x1e\x85\u2028\u2029]")  # what str.splitlines splits at


@dataclass(frozen=True)
class Structure:
    """A text's structure, as character ranges ``(start, end)`` of the text as given, in reading order.

    ``view``: the text with its markup (HTML tags, scripts, styles and navigation; reStructuredText adornment
    lines and comments) replaced by spaces, and a blank line where a block element starts or ends, so it has the
    same length as the text: the sentences are found in the view, and their spans slice the original. ``atomic``:
    blocks a chunk never cuts (literal blocks, directives, tables, list items: the outermost of nested ones);
    ``units``: blocks that are one unit each (literal blocks, directives, tables, headings); ``headings`` and
    their ``heading_levels`` (1 for the top level, 2 below it, ...).
    """

    view: str
    atomic: tuple[Span, ...] = ()
    units: tuple[Span, ...] = ()
    headings: tuple[Span, ...] = ()
    heading_levels: tuple[int, ...] = ()


def line_starts(text: str) -> list[int]:
    """The offset where each line of ``text`` starts (lines as ``str.splitlines`` cuts them), then ``len(text)``."""
    return [0, *(m.end() for m in _LINE_END.finditer(text)), len(text)]


def blank(chars: list[str], start: int, end: int) -> None:
    """Replace ``chars[start:end]`` by spaces, keeping line ends (so line numbers stay)."""
    for i in range(start, end):
        if chars[i] not in "\r\n":
            chars[i] = " "
