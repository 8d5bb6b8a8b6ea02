"""The ``text`` format: the segmentation's own text report (``Segmentation.to_text()``), segments numbered from 1."""

from __future__ import annotations

from typing import Any

from bpseg_pgm.formats.registry import OutputFormat, register_format

__all__ = ["TextFormat"]


@register_format("text")
class TextFormat(OutputFormat):
    """Every segment with its sentences, as ``Segmentation.to_text()`` writes them."""

    def content(self, result: Any, *, source: str | None = None) -> str:
        return result.to_text()
