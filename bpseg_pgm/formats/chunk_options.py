"""The chunk options two formats share (``json`` and ``chunks-jsonl``): ``--parents`` and ``--context-sentences``."""

from __future__ import annotations

from bpseg_pgm.formats.registry import FormatOption

__all__ = ["CONTEXT_SENTENCES", "PARENTS"]

PARENTS = FormatOption(
    "parents",
    bool,
    help="also write the parent chunks, one per segment (a topic, whose runs may lie far apart): its exact spans, "
    "one per run, and its children; each chunk names its parent",
)
CONTEXT_SENTENCES = FormatOption(
    "context_sentences",
    int,
    metavar="N",
    minimum=0,
    help="give each chunk up to N neighbouring sentences on each side as context (context_before, "
    "context_after, embed_text: what to embed), as many as the model's window holds beside the chunk; never "
    "part of the chunk's text or offsets (default: the policy's chunk_context_sentences, 1; 0: none)",
)
