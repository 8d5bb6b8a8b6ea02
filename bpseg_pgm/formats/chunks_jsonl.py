"""The ``chunks-jsonl`` format: one JSON object per line and chunk, for a retrieval index.

The chunks are the segmentation's own (``Segmentation.chunks``): one per run of consecutive
sentences, or one per segment with ``whole_segments``; ``max_tokens`` is a hard cap (``soft_cap``: a
sentence longer than it stays whole) and ``min_tokens`` merges shorter ones into a neighbour of the same
segment.  Each line is the chunk's ``to_dict()`` after its 0-based number ``chunk``: its segment, its
run, the segment's keywords and its heading path (Markdown) among them.
"""

from __future__ import annotations

import json
from typing import Any

from bpseg_pgm.chunks.options import check_chunk_options
from bpseg_pgm.formats.registry import FormatOption, OutputFormat, register_format

__all__ = ["ChunksJsonlFormat"]


@register_format("chunks-jsonl")
class ChunksJsonlFormat(OutputFormat):
    """One JSON object per chunk: 0-based chunk, sentence and segment numbers, character offsets."""

    suffix = ".jsonl"
    media_type = "application/jsonl"
    options_title = "chunks"
    options = (
        FormatOption(
            "max_tokens",
            int,
            metavar="N",
            help="no chunk longer than N tokens of the embedding model (special tokens included): cut at "
            "a chunk's weakest link, and a sentence longer than N at its strongest inner boundary",
        ),
        FormatOption(
            "min_tokens",
            int,
            metavar="N",
            minimum=0,
            help="merge a chunk shorter than N tokens into its most similar neighbour of the same segment, "
            "if the result fits --max-tokens (default: a quarter of --max-tokens; 0: never)",
        ),
        FormatOption(
            "soft_cap", bool, help="let a sentence longer than --max-tokens stay whole (the cap is hard by default)"
        ),
        FormatOption(
            "whole_segments",
            bool,
            help="one chunk per segment (its runs joined by blank lines) instead of one per run of "
            "consecutive sentences",
        ),
    )

    def check_options(self, **options: Any) -> None:
        """The checks of ``Segmentation.chunks``, in this format's words (``whole_segments``, not ``contiguous``)."""
        super().check_options(**options)
        max_tokens, min_tokens = options.get("max_tokens"), options.get("min_tokens")
        whole_segments = options.get("whole_segments", False)
        if whole_segments and min_tokens:
            raise ValueError("min_tokens merges neighbouring chunks, which whole_segments does not make")
        check_chunk_options(max_tokens, not whole_segments, min_tokens)

    def content(
        self,
        result: Any,
        *,
        source: str | None = None,
        max_tokens: int | None = None,
        min_tokens: int | None = None,
        soft_cap: bool = False,
        whole_segments: bool = False,
    ) -> str:
        chunks = result.chunks(max_tokens, not whole_segments, min_tokens=min_tokens, hard_cap=not soft_cap)
        return "".join(
            json.dumps({"chunk": i, **c.to_dict()}, ensure_ascii=False, allow_nan=False) + "\n"
            for i, c in enumerate(chunks)
        )
