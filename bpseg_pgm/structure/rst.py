"""reStructuredText: section titles and their hierarchy, literal blocks, directives and tables, read with docutils.

docutils parses the text (its warnings silenced, file inclusion and raw output off, no configuration file read,
substitutions left unexpanded: :func:`_parse`). Its sections give the titles and their levels (the order in which
the adornment styles first appear), each title node the line of its underline. The view blanks the adornment
lines, comments, hyperlink targets and substitution definitions. Literal blocks, directives and footnotes (each
with its indented body) and tables are one unit each, never cut by a chunk; list items are blocks a chunk never
cuts and a sentence never crosses. Explicit markup is found from its ``..`` line, as the grammar defines its
extent (the lines indented past it).
"""

from __future__ import annotations

import functools
import re

from bpseg_pgm.structure.blocks import Structure, blank, line_starts, outermost
from bpseg_pgm.utils.spans import trim_span

__all__ = ["literal_block_lines", "looks_like_rst", "parse_rst_fragment", "rst_structure"]

_SETTINGS = {
    "_disable_config": True,  # never read a configuration file (none is: the settings are built in _parse)
    "traceback": True,  # a failure is an exception (docutils' programmatic default), never sys.exit
    "report_level": 5,
    "halt_level": 5,
    "warning_stream": False,
    "doctitle_xform": False,
    "sectsubtitle_xform": False,
    "docinfo_xform": False,
    "file_insertion_enabled": False,
    "raw_enabled": False,
    "input_encoding": "unicode",
    "syntax_highlight": "none",
}
_ADORNMENT = re.compile(r"\A([!-/:-@\[-`{-~])\1{2,}[ \t]*\Z")  # a line of one punctuation character, 3 or more
_EXPLICIT = re.compile(r"\A([ \t]*)\.\.(?:[ \t]|\Z)")
_DIRECTIVE = re.compile(r"\A[ \t]*\.\.[ \t]+(?:\|[^|]+\|[ \t]+)?[\w:+.-]+::")
_FOOTNOTE = re.compile(r"\A[ \t]*\.\.[ \t]+\[[^\]]+\]")
_SUBSTITUTION = re.compile(r"\A[ \t]*\.\.[ \t]+\|")


def _indent(line: str) -> int:
    return len(line.expandtabs()) - len(line.expandtabs().lstrip())


def _body_end(lines: list[str], i: int, indent: int) -> int:
    """The index past the last line of the block starting at line ``i``: the lines after it that are blank or
    indented past ``indent`` (trailing blank lines left out)."""
    j, last = i + 1, i
    while j < len(lines):
        if lines[j].strip():
            if _indent(lines[j]) <= indent:
                break
            last = j
        j += 1
    return last + 1


@functools.lru_cache(maxsize=1)
def _settings():
    """docutils' default settings with :data:`_SETTINGS` (built once; each parse gets its own copy)."""
    from docutils.frontend import get_default_settings
    from docutils.parsers.rst import Parser
    from docutils.readers.standalone import Reader
    from docutils.writers.null import Writer

    settings = get_default_settings(Parser, Reader, Writer)
    for name, value in _SETTINGS.items():
        setattr(settings, name, value)
    return settings


def parse_rst_fragment(text: str):
    """The doctree of a piece of reStructuredText (a unit, for the views), parsed only: with :func:`_parse`'s
    settings, so no file, URL or configuration is read and no raw output made, and without the transforms (no
    substitution expanded, no reference resolved). A text docutils cannot read is a ValueError."""
    import copy

    from docutils.parsers.rst import Parser
    from docutils.utils import new_document

    document = new_document("<unit>", copy.copy(_settings()))
    try:
        Parser().parse(text, document)
    except Exception as exc:  # as _parse: a failure is said, never a crash of the caller
        raise ValueError(f"format 'rst': the text could not be read as reStructuredText ({exc})") from None
    return document


def _parse(text: str):
    """The doctree of ``text``, read without touching anything but ``text``.

    The settings are docutils' defaults and :data:`_SETTINGS`, built here: no configuration file is read
    (``publish_doctree`` would read ``./docutils.conf``, ``~/.docutils`` and the files ``$DOCUTILSCONFIG`` names,
    and apply them over the settings it is given, so one of them could turn file insertion back on). So
    ``include``, ``raw`` and ``csv-table`` (``:file:`` or ``:url:``) read no file and open no connection: docutils
    leaves a silenced error in their place. Substitutions are not expanded: the structure needs only the titles'
    raw text and the blocks' lines, and docutils expands nested substitutions in time exponential in their depth.
    """
    from docutils.core import publish_doctree
    from docutils.frontend import get_default_settings
    from docutils.parsers.rst import Parser
    from docutils.readers.standalone import Reader
    from docutils.transforms.references import Substitutions
    from docutils.writers.null import Writer

    class _Reader(Reader):
        def get_transforms(self):
            return [t for t in super().get_transforms() if t is not Substitutions]

    settings = get_default_settings(Parser, _Reader, Writer)
    for name, value in _SETTINGS.items():
        setattr(settings, name, value)
    try:
        return publish_doctree(text, reader=_Reader(), settings=settings)
    except Exception as exc:  # docutils halts only past halt_level; any other failure: say so
        raise ValueError(f"format 'rst': the text could not be read as reStructuredText ({exc})") from None


def _section_titles(doc, lines: list[str]) -> list[tuple[int, int]]:
    """(title line index, level) of every section title docutils found."""
    from docutils import nodes

    out = []
    for title in doc.findall(nodes.title):
        section = title.parent
        if not isinstance(section, nodes.section) or title.line is None:
            continue
        level = sum(isinstance(p, nodes.section) for p in _ancestors(section))
        raw = " ".join(title.rawsource.split())
        guess = title.line - 2  # the underline's line, counted from 1, less one line
        for i in (guess, guess - 1, guess + 1, guess - 2):
            if 0 <= i < len(lines) and " ".join(lines[i].split()) == raw:
                out.append((i, level))
                break
    return out


def _ancestors(node):
    while node is not None:
        yield node
        node = node.parent


@functools.lru_cache(maxsize=4)
def rst_structure(text: str) -> Structure:
    """The :class:`Structure` of a reStructuredText text; a text docutils cannot read is a ValueError."""
    from docutils import nodes

    doc = _parse(text)
    starts = line_starts(text)
    lines = [text[starts[i] : starts[i + 1]] for i in range(len(starts) - 1)]
    chars = list(text)

    titles = _section_titles(doc, lines)
    for i, _ in titles:  # blank the adornments (under- and overline) so a title is its words alone
        for k in (i - 1, i + 1):
            if 0 <= k < len(lines) and _ADORNMENT.match(lines[k].strip()):
                blank(chars, starts[k], starts[k + 1])
    whole: list[tuple[int, int]] = []  # line ranges kept whole
    items: list[tuple[int, int]] = []
    i = 0
    title_lines = {t for t, _ in titles}
    while i < len(lines):  # explicit markup: directives and footnotes kept whole; comments and targets blanked
        m = _EXPLICIT.match(lines[i])
        if m is None or i in title_lines:
            i += 1
            continue
        end = _body_end(lines, i, _indent(m.group(1)))
        if _DIRECTIVE.match(lines[i]) and not _SUBSTITUTION.match(lines[i]) or _FOOTNOTE.match(lines[i]):
            whole.append((i, end))
        else:
            blank(chars, starts[i], starts[end])
        i = end
    for node in doc.findall(lambda n: isinstance(n, (nodes.literal_block, nodes.table, nodes.list_item))):
        line = getattr(node, "line", None)
        if line is None or not 1 <= line <= len(lines):
            continue
        i = line - 1
        if isinstance(node, nodes.table):
            j = i
            while j < len(lines) and lines[j].strip():
                j += 1
            whole.append((i, j))
        elif isinstance(node, nodes.literal_block):
            whole.append((i, _body_end(lines, i, _indent(lines[i]) - 1)))
        else:
            items.append((i, _body_end(lines, i, _indent(lines[i]))))
    view = "".join(chars)

    def spans(ranges):
        return [s for i, j in ranges if (s := trim_span(view, starts[i], starts[min(j, len(starts) - 1)]))]

    kept = list(outermost(spans(whole)))
    heads = []
    for i, level in titles:
        s = trim_span(view, starts[i], starts[i + 1])
        if s is not None and not any(a <= s[0] < b for a, b in kept):
            heads.append((s, level))
    heads.sort()
    return Structure(
        view,
        outermost(kept + spans(items)),
        outermost(kept + [s for s, _ in heads]),
        tuple(s for s, _ in heads),
        tuple(level for _, level in heads),
    )


@functools.lru_cache(maxsize=4)
def literal_block_lines(text: str) -> frozenset[int]:
    """The lines (indices, from 0) where a literal block's body starts (after ``::``; not a directive's code), as
    docutils reads the whole text; a text docutils cannot read has none."""
    from docutils import nodes

    try:
        doc = _parse(text)
    except ValueError:
        return frozenset()
    return frozenset(
        node.line - 1
        for node in doc.findall(nodes.literal_block)
        if node.line is not None and "code" not in node["classes"]
    )


def looks_like_rst(text: str) -> bool:
    """True if docutils finds at least two section titles in ``text`` (a title with an adornment line of one
    punctuation character under it, or over and under it)."""
    if not isinstance(text, str):
        return False
    starts = line_starts(text)
    lines = [text[starts[i] : starts[i + 1]].strip() for i in range(len(starts) - 1)]
    signs = sum(
        1
        for k in range(1, len(lines))
        if _ADORNMENT.match(lines[k]) and lines[k - 1] and len(lines[k]) >= len(lines[k - 1])
    )
    if signs < 2:
        return False
    try:
        return len(rst_structure(text).headings) >= 2
    except ValueError:
        return False
