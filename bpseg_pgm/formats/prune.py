"""The formats of ``bpseg prune``: the kept text, or the ``PruneResult``'s JSON."""

from __future__ import annotations

from typing import Any

from bpseg_pgm.formats.json import JsonFormat
from bpseg_pgm.formats.registry import OutputFormat, register_format

__all__ = ["PrunedTextFormat", "PrunedJsonFormat"]


@register_format("text", kind="prune")
class PrunedTextFormat(OutputFormat):
    """The kept text (runs of consecutive sentences as written, separated by a blank line), then a newline."""

    def content(self, result: Any, *, source: str | None = None) -> str:
        return result.text + ("\n" if result.text else "")


@register_format("json", kind="prune")
class PrunedJsonFormat(JsonFormat):
    """``PruneResult.to_json()`` (kept indices from 0, spans, scores and segments) and a newline."""

    options = ()

    def content(self, result: Any, *, source: str | None = None) -> str:
        return result.to_json() + "\n"
