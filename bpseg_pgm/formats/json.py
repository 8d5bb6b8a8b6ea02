"""The ``json`` format: the result's own JSON (``to_json()``) and a newline; numbers from 0."""

from __future__ import annotations

from typing import Any

from bpseg_pgm.formats.registry import OutputFormat, register_format

__all__ = ["JsonFormat"]


@register_format("json")
class JsonFormat(OutputFormat):
    """``Segmentation.to_json()`` and a newline (``bpseg prune``'s json is the same on a PruneResult)."""

    suffix = ".json"
    media_type = "application/json"

    def content(self, result: Any, *, source: str | None = None) -> str:
        return result.to_json() + "\n"
