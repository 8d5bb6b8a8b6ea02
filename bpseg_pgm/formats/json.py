"""The ``json`` format: the result's own JSON (``to_json()``) and a newline; numbers from 0.

A segmentation's JSON grows with its text, not with sentences x segments: each sentence's belief is written
as its ``confidence`` (rounded), and the whole belief matrix only with ``--full-beliefs``
(``Segmentation.to_json(beliefs="full")``).
"""

from __future__ import annotations

from typing import Any

from bpseg_pgm.formats.registry import FormatOption, OutputFormat, register_format

__all__ = ["JsonFormat"]


@register_format("json")
class JsonFormat(OutputFormat):
    """``Segmentation.to_json()`` and a newline; ``full_beliefs=True``: ``to_json(beliefs="full")``."""

    suffix = ".json"
    media_type = "application/json"
    options_title = "JSON"
    options = (
        FormatOption(
            "full_beliefs",
            bool,
            help="write every sentence's full belief row (sentences x segments numbers) under "
            "'beliefs'; by default only each sentence's belief in its own segment ('confidence')",
        ),
    )

    def content(self, result: Any, *, source: str | None = None, full_beliefs: bool = False) -> str:
        return (result.to_json(beliefs="full") if full_beliefs else result.to_json()) + "\n"
