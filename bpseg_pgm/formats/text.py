"""The ``text`` format: a segmentation as a human-readable listing (:func:`render_text`), numbered from 1.

``Segmentation.to_text()`` is :func:`render_text`; :class:`TextFormat` registers it for ``--format text``.
"""

from __future__ import annotations

from typing import Any

from bpseg_pgm.formats.markdown_view import unit_kinds, written_text
from bpseg_pgm.formats.registry import OutputFormat, register_format
from bpseg_pgm.utils.words import numbered, plural, ranges

__all__ = ["TextFormat", "render_text", "result_keywords"]


def result_keywords(seg: Any, contiguous: bool = False) -> list[list[str]]:
    """The keywords of each topic (``contiguous``: each contiguous segment) where the segmentation gives them
    (``seg.topic_keywords()``, ``seg.contiguous_keywords()``), else an empty list for each."""
    method = getattr(seg, "contiguous_keywords" if contiguous else "topic_keywords", None)
    if callable(method):
        return method()
    return [[] for _ in range(seg.n_contiguous_segments if contiguous else seg.n_segments)]


def _unit_lines(seg: Any, width: int, indent: str) -> Any:
    """A function from a unit's index to its numbered line(s): a Markdown block (code, table, HTML) as
    written, its later lines aligned under the first."""
    kinds = unit_kinds(seg)
    pad = indent + " " * (width + 2)

    def lines(i: int) -> list[str]:
        text = written_text(seg, i, kinds[i])
        first, *rest = text.splitlines() or [""]
        return [f"{indent}{i + 1:>{width}}  {first}", *(f"{pad}{line}".rstrip() for line in rest)]

    return lines


def render_text(seg: Any) -> str:
    """Human-readable listing of a segmentation, sentences and segments numbered from 1.

    While every topic is one contiguous segment: each segment with its keywords and its numbered
    sentences, named by its heading where it starts at one (a Markdown or other structured text).  When a topic returns: a first paragraph counts segments and topics and names the
    topics that return with their segments ("Topic 1 returns: segments 1 and 3."), then each topic
    with its keywords, its segments (one of two or more sentences with its own keywords, when the
    topic returns) and their sentences.  When fewer labels came back than the k asked for, a first
    line says so.  A Markdown block (code, a table, an HTML block) is printed as written,
    its lines kept.  ``seg`` is a :class:`~bpseg_pgm.types.segmentation.SegmentationResult` (keywords are shown
    where it gives them, as :class:`bpseg_pgm.text.Segmentation` does).
    """
    width = len(str(len(seg.sentences)))
    unit = _unit_lines(seg, width, "  ")
    nested = _unit_lines(seg, width, "    ")
    note = seg.fewer_than_requested()
    blocks = [f"Note: {note}."] if note else []
    keywords = result_keywords(seg)
    topic_parts = seg.topic_segments  # each of these levels computed once, not per topic
    returning = seg.returning_topics
    if not returning:
        headings = getattr(seg, "segment_headings", None) or [None] * len(seg.segments)
        for j, idx in enumerate(seg.segments):
            head = f"[Segment {j + 1}] sentences " + ranges(idx) + (f" · {headings[j]}" if headings[j] else "")
            lines = [head] + ([f"  keywords: {', '.join(keywords[j])}"] if keywords[j] else [])
            lines += [line for i in idx for line in unit(i)]
            blocks.append("\n".join(lines))
        return "\n\n".join(blocks) + "\n"
    parts = seg.contiguous_segments
    part_keywords = result_keywords(seg, contiguous=True)
    back = [(t + 1, numbered("segment", topic_parts[t])) for t in returning]
    returns = (
        f"Topic {back[0][0]} returns: {back[0][1]}"
        if len(back) == 1
        else "Topics that return: " + "; ".join(f"topic {t}: {where}" for t, where in back)
    )
    blocks.append(f"{plural(len(parts), 'segment')} in {plural(seg.n_topics, 'topic')}. {returns}.")
    for t, idx in enumerate(seg.segments):
        rs = topic_parts[t]
        lines = [f"[Topic {t + 1}] {numbered('segment', rs)} · sentences " + ranges(idx)]
        if keywords[t]:
            lines.append(f"  keywords: {', '.join(keywords[t])}")
        for r in rs:
            shown = len(rs) > 1 and len(parts[r]) > 1 and part_keywords[r]  # one sentence's words say little
            own = f" · keywords: {', '.join(part_keywords[r])}" if shown else ""
            lines.append(f"  Segment {r + 1}{own}")
            lines += [line for i in parts[r] for line in nested(i)]
        blocks.append("\n".join(lines))
    return "\n\n".join(blocks) + "\n"


@register_format("text")
class TextFormat(OutputFormat):
    """Every segment with its sentences, as :func:`render_text` (``Segmentation.to_text()``) writes them."""

    def content(self, result: Any, *, source: str | None = None) -> str:
        return result.to_text() if callable(getattr(result, "to_text", None)) else render_text(result)
