"""The ``json`` format: the result's own JSON (``to_json()``) and a newline; numbers from 0.

A segmentation's JSON grows with its text, not with sentences x segments: each sentence's belief is written
as its ``confidence`` (rounded), and the whole belief matrix only with ``--full-beliefs``
(``Segmentation.to_json(beliefs="full")``).

``parents=True`` (``render(seg, parents=True)``; ``--parents`` on the command line) adds the chunks and their parents (``Segmentation.parent_chunks()``: one chunk per run, no cap):
``"parents"``, each with its 0-based number ``parent``, its exact ``spans`` (one per run) and its ``children``,
and ``"chunks"``, each with its number ``chunk``, its ``parent`` and its context (``embed_text``:
``context_sentences`` neighbouring sentences a side, the policy's ``chunk_context_sentences`` unless given; with
``parents`` only, ``--context-sentences N``).
"""

from __future__ import annotations

import json
from typing import Any

from bpseg_pgm.chunks.options import check_context_sentences, check_parents
from bpseg_pgm.formats.chunk_options import CONTEXT_SENTENCES, PARENTS
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
        PARENTS,
        CONTEXT_SENTENCES,
    )

    def check_options(self, **options: Any) -> None:
        """The format's own options, and the library's ``parents`` and ``context_sentences`` (only with
        ``parents``: they are the chunks')."""
        super().check_options(**options)
        parents = check_parents(options.get("parents", False))
        if check_context_sentences(options.get("context_sentences")) and not parents:
            raise ValueError("context_sentences is the chunks' context, which the json format writes only with parents")

    def content(
        self,
        result: Any,
        *,
        source: str | None = None,
        full_beliefs: bool = False,
        parents: bool = False,
        context_sentences: int | None = None,
    ) -> str:
        if not parents:
            return (result.to_json(beliefs="full") if full_beliefs else result.to_json()) + "\n"
        tops, chunks = result.parent_chunks(context_sentences=context_sentences)
        d = result.to_dict(beliefs="full" if full_beliefs else "confidence")
        d["parents"] = [{"parent": j, **p.to_dict()} for j, p in enumerate(tops)]
        d["chunks"] = [{"chunk": i, **c.to_dict()} for i, c in enumerate(chunks)]
        try:
            return json.dumps(d, indent=2, ensure_ascii=False, allow_nan=False) + "\n"
        except ValueError:
            raise ValueError("the segmentation holds NaN or inf values, which JSON cannot represent") from None
