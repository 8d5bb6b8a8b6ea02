"""The formats a text is read in, the guess from a text or a file name, and the reader of each."""

from __future__ import annotations

import importlib
import os
from typing import Any

from bpseg_pgm.structure.blocks import Structure
from bpseg_pgm.utils.spans import paths_under

__all__ = [
    "FORMATS",
    "STRUCTURED",
    "check_format",
    "detect_format",
    "format_for_path",
    "heading_paths",
    "read_structure",
    "view_of",
]

#: Every format name ``segment_text(format=...)`` takes.
FORMATS = ("markdown", "rst", "html", "numbered", "plain")
#: The formats read by this package's readers (Markdown has its own, :mod:`bpseg_pgm.chunks.markdown`).
STRUCTURED = ("rst", "html", "numbered")
_SUFFIXES = {
    ".md": "markdown",
    ".markdown": "markdown",
    ".rst": "rst",
    ".rest": "rst",
    ".html": "html",
    ".htm": "html",
    ".xhtml": "html",
}


def check_format(format: Any) -> str | None:
    """``format`` if it is None or one of :data:`FORMATS`, else a ValueError naming them."""
    if format is None or (isinstance(format, str) and format in FORMATS):
        return format
    raise ValueError(f"format must be one of {', '.join(FORMATS)} or None, got {format!r}")


def format_for_path(path: str | os.PathLike) -> str | None:
    """The format a file's extension says (``.md``/``.markdown``, ``.rst``, ``.html``/``.htm``); None for the
    rest (``.txt``: guessed from the text)."""
    return _SUFFIXES.get(os.path.splitext(os.fspath(path))[1].lower())


def detect_format(text: str) -> str:
    """The format of this package ``text`` unambiguously is, else "plain": HTML (a document, or block tags),
    reStructuredText (two section titles docutils reads), plain text with numbered headings (two, numbered without
    gaps, each followed by prose). Markdown is guessed before, by the caller
    (:func:`~bpseg_pgm.text.pipeline.read_format`)."""
    from bpseg_pgm.structure.html import looks_like_html
    from bpseg_pgm.structure.numbered import looks_like_numbered
    from bpseg_pgm.structure.rst import looks_like_rst

    for name, looks in (("html", looks_like_html), ("rst", looks_like_rst), ("numbered", looks_like_numbered)):
        if looks(text):
            return name
    return "plain"


def read_structure(text: str, format: str) -> Structure:
    """The :class:`Structure` of ``text`` read as ``format`` (one of :data:`STRUCTURED`); readers keep the last
    few texts' results."""
    if format not in STRUCTURED:
        raise ValueError(f"format {format!r} has no structure reader (one of {', '.join(STRUCTURED)})")
    reader = importlib.import_module(f"bpseg_pgm.structure.{format}")  # its parser loads on first use
    return getattr(reader, f"{format}_structure")(text)


def view_of(text: str, format: str | None) -> str:
    """The text the sentences are read from: the structure's view for a structured format, else ``text``."""
    return read_structure(text, format).view if format in STRUCTURED else text


def heading_paths(text: str, format: str, spans) -> list[tuple[str, ...]]:
    """The headings each unit at ``spans`` lies under in ``text`` read as ``format`` (one of :data:`STRUCTURED`),
    outermost first, as :func:`bpseg_pgm.chunks.markdown.heading_paths` gives them for Markdown: each title is the
    heading's text with its markup blanked (an RST adornment, HTML tags, the number of a numbered heading kept)."""
    structure = read_structure(text, format)
    at = {
        span: (level, " ".join(structure.view[span[0] : span[1]].split()))
        for span, level in zip(structure.headings, structure.heading_levels)
    }
    return paths_under(spans, at)
