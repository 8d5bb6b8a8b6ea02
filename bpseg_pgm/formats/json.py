"""The ``json`` format: the segmentation's own JSON (``Segmentation.to_json()``), numbers from 0, one line."""

from __future__ import annotations

from typing import Any

from bpseg_pgm.formats.registry import OutputFormat, register_format

__all__ = ["JsonFormat"]


@register_format("json")
class JsonFormat(OutputFormat):
    """``Segmentation.to_json()`` and a newline."""

    suffix = ".json"
    media_type = "application/json"

    def render(self, result: Any, *, source: str | None = None, **options: Any) -> str:
        self.check_options(**options)
        return result.to_json() + "\n"
