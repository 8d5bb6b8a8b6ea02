"""The formats of ``bpseg prune``: the kept text, or the ``PruneResult``'s JSON."""

from __future__ import annotations

from typing import Any

from bpseg_pgm.formats.registry import OutputFormat, register_format

__all__ = ["PrunedTextFormat", "PrunedJsonFormat"]


@register_format("text", kind="prune")
class PrunedTextFormat(OutputFormat):
    """The kept text (runs of consecutive sentences as written, separated by a blank line), then a newline."""

    def render(self, result: Any, *, source: str | None = None, **options: Any) -> str:
        self.check_options(**options)
        return result.text + ("\n" if result.text else "")


@register_format("json", kind="prune")
class PrunedJsonFormat(OutputFormat):
    """``PruneResult.to_json()``: kept indices (0-based), spans, scores and segments; then a newline."""

    suffix = ".json"
    media_type = "application/json"

    def render(self, result: Any, *, source: str | None = None, **options: Any) -> str:
        self.check_options(**options)
        return result.to_json() + "\n"
