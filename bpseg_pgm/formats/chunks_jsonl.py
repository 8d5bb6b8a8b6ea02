"""The ``chunks-jsonl`` format: one JSON object per line and chunk, for a retrieval index.

The chunks are the segmentation's own (``Segmentation.chunks``): one per run of consecutive
sentences, or one per segment with ``whole_segments``; ``max_tokens`` is a hard cap (``soft_cap``: a
sentence longer than it stays whole) and ``min_tokens`` merges shorter ones into a neighbour of the same
segment.  Each line is the chunk's ``to_dict()`` after its 0-based number ``chunk``: its segment, its
run, the segment's keywords and its heading path (Markdown) among them.

Two options add what retrieval with parents needs (``render(seg, parents=True, context_sentences=1)``;
``--parents --context-sentences 1`` on the command line): ``parents=True`` writes one line per parent chunk first (``"type": "parent"``, its
0-based number ``parent``, then ``ParentChunk.to_dict()``: its exact ``spans``, one per run, and its
``children``), then the chunks (``"type": "chunk"``, each with its ``parent``); each chunk's ``context_before``,
``context_after`` and ``embed_text`` (``Segmentation.chunks``) hold ``context_sentences`` neighbouring sentences a
side (default: the policy's ``chunk_context_sentences``, 1; 0: none, and the lines have no such keys).  :func:`read_chunks_jsonl` reads the lines back.
"""

from __future__ import annotations

import json
from typing import Any

from bpseg_pgm.chunks.options import check_chunk_options, check_context_sentences, check_parents
from bpseg_pgm.formats.chunk_options import CONTEXT_SENTENCES, PARENTS
from bpseg_pgm.formats.registry import FormatOption, OutputFormat, register_format
from bpseg_pgm.types.chunk import Chunk, ParentChunk

__all__ = ["ChunksJsonlFormat", "read_chunks_jsonl"]


def _line(kind: str | None, number: str, i: int, d: dict[str, Any]) -> str:
    head = {"type": kind} if kind else {}
    return json.dumps({**head, number: i, **d}, ensure_ascii=False, allow_nan=False) + "\n"


def read_chunks_jsonl(text: str) -> tuple[list[ParentChunk], list[Chunk]]:
    """The parents and chunks of a ``chunks-jsonl`` output, in their order (no parents where it has none).

    Parameters
    ----------
    text : str
        What the format wrote: one JSON object per line (blank lines are skipped).

    Returns
    -------
    parents : list of ParentChunk
        The lines of ``"type": "parent"``.
    chunks : list of Chunk
        The other lines.

    Raises
    ------
    ValueError
        If a line is not JSON, or not a chunk's or a parent's (a missing key is named).
    """
    parents: list[ParentChunk] = []
    chunks: list[Chunk] = []
    for n, line in enumerate(text.splitlines(), 1):
        if not line.strip():
            continue
        try:
            d = json.loads(line)
            if isinstance(d, dict) and d.get("type") == "parent":
                parents.append(ParentChunk.from_dict(d))
            else:
                chunks.append(Chunk.from_dict(d))
        except ValueError as exc:  # json.JSONDecodeError is one
            raise ValueError(f"line {n}: {exc}") from None
    return parents, chunks


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
        PARENTS,
        CONTEXT_SENTENCES,
    )

    def check_options(self, **options: Any) -> None:
        """The checks of ``Segmentation.chunks``, in this format's words (``whole_segments``, not ``contiguous``)."""
        super().check_options(**options)
        check_parents(options.get("parents", False))
        check_context_sentences(options.get("context_sentences"))
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
        parents: bool = False,
        context_sentences: int | None = None,
    ) -> str:
        options = dict(min_tokens=min_tokens, hard_cap=not soft_cap)
        if context_sentences is not None:  # only then (None: the result's own default, the policy's)
            options["context_sentences"] = context_sentences
        if not parents:
            chunks = result.chunks(max_tokens, not whole_segments, **options)
            return "".join(_line(None, "chunk", i, c.to_dict()) for i, c in enumerate(chunks))
        tops, chunks = result.parent_chunks(max_tokens, not whole_segments, **options)
        return "".join(_line("parent", "parent", j, p.to_dict()) for j, p in enumerate(tops)) + "".join(
            _line("chunk", "chunk", i, c.to_dict()) for i, c in enumerate(chunks)
        )
