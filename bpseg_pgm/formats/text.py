"""The ``text`` format: a segmentation as a human-readable listing (:func:`render_text`), numbered from 1.

``Segmentation.to_text()`` is :func:`render_text`; :class:`TextFormat` registers it for ``--format text``.
"""

from __future__ import annotations

from typing import Any

from bpseg_pgm.formats.registry import OutputFormat, register_format
from bpseg_pgm.formats.units import unit_kinds, written_text
from bpseg_pgm.utils.words import numbered, plural, ranges

__all__ = ["TextFormat", "render_text", "result_keywords"]


def result_keywords(seg: Any, contiguous: bool = False) -> list[list[str]]:
    """The keywords of each segment (``contiguous``: each run) where the segmentation gives them
    (``seg.segment_keywords()``, ``seg.run_keywords()``), else an empty list for each."""
    method = getattr(seg, "run_keywords" if contiguous else "segment_keywords", None)
    if callable(method):
        return method()
    return [[] for _ in range(seg.n_runs if contiguous else seg.n_segments)]


def _unit_lines(seg: Any, width: int, indent: str) -> Any:
    """A function from a unit's index to its numbered line(s): a block (code, a table, a directive, an HTML
    block) with its lines kept (:func:`~bpseg_pgm.formats.units.written_text`), its later lines aligned under
    the first."""
    kinds = unit_kinds(seg)
    pad = indent + " " * (width + 2)

    def lines(i: int) -> list[str]:
        text = written_text(seg, i, kinds[i])
        first, *rest = text.splitlines() or [""]
        return [f"{indent}{i + 1:>{width}}  {first}", *(f"{pad}{line}".rstrip() for line in rest)]

    return lines


def render_text(seg: Any) -> str:
    """Human-readable listing of a segmentation, sentences and segments numbered from 1.

    A segment is a label (its sentences may be far apart), a run a stretch of consecutive sentences of one
    segment.  While every segment is one run: each segment with its keywords and its numbered sentences, named
    by its heading where it starts at one (a Markdown or other structured text).  When a segment returns: a
    first paragraph counts runs and segments and names the segments that return with their runs ("Segment 1
    returns: runs 1 and 3."), then each segment with its keywords, its runs (one of two or more sentences with
    its own keywords, when the segment returns) and their sentences.  When fewer labels came back than the k asked for, a first
    line says so.  A block (a Markdown code block, table or HTML block; a reStructuredText literal block,
    directive or table; an HTML ``<pre>`` or table, as its text) is printed with its lines kept.  ``seg`` is a :class:`~bpseg_pgm.types.segmentation.SegmentationResult` (keywords are shown
    where it gives them, as :class:`bpseg_pgm.text.Segmentation` does).
    """
    width = len(str(len(seg.sentences)))
    unit = _unit_lines(seg, width, "  ")
    nested = _unit_lines(seg, width, "    ")
    note = seg.fewer_than_requested()
    blocks = [f"Note: {note}."] if note else []
    keywords = result_keywords(seg)
    segment_runs = seg.segment_runs  # each of these computed once, not per segment
    returning = seg.returning_segments
    if not returning:
        headings = getattr(seg, "segment_headings", None) or [None] * len(seg.segments)
        for j, idx in enumerate(seg.segments):
            head = f"[Segment {j + 1}] sentences " + ranges(idx) + (f" · {headings[j]}" if headings[j] else "")
            lines = [head] + ([f"  keywords: {', '.join(keywords[j])}"] if keywords[j] else [])
            lines += [line for i in idx for line in unit(i)]
            blocks.append("\n".join(lines))
        return "\n\n".join(blocks) + "\n"
    parts = seg.runs
    part_keywords = result_keywords(seg, contiguous=True)
    back = [(j + 1, numbered("run", segment_runs[j])) for j in returning]
    returns = (
        f"Segment {back[0][0]} returns: {back[0][1]}"
        if len(back) == 1
        else "Segments that return: " + "; ".join(f"segment {j}: {where}" for j, where in back)
    )
    blocks.append(f"{plural(len(parts), 'run')} in {plural(seg.n_segments, 'segment')}. {returns}.")
    for t, idx in enumerate(seg.segments):
        rs = segment_runs[t]
        lines = [f"[Segment {t + 1}] {numbered('run', rs)} · sentences " + ranges(idx)]
        if keywords[t]:
            lines.append(f"  keywords: {', '.join(keywords[t])}")
        for r in rs:
            shown = len(rs) > 1 and len(parts[r]) > 1 and part_keywords[r]  # one sentence's words say little
            own = f" · keywords: {', '.join(part_keywords[r])}" if shown else ""
            lines.append(f"  Run {r + 1}{own}")
            lines += [line for i in parts[r] for line in nested(i)]
        blocks.append("\n".join(lines))
    return "\n\n".join(blocks) + "\n"


@register_format("text")
class TextFormat(OutputFormat):
    """Every segment with its sentences, as :func:`render_text` (``Segmentation.to_text()``) writes them."""

    def content(self, result: Any, *, source: str | None = None) -> str:
        return result.to_text() if callable(getattr(result, "to_text", None)) else render_text(result)
