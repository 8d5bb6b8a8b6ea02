"""From raw text to BP-Seg segments: sentence splitting, cached embeddings, pipeline."""

from bpseg_pgm.embeddings import Embedder, embed_sentences
from bpseg_pgm.text.pipeline import Segmentation, segment_sentences, segment_text, segment_texts
from bpseg_pgm.text.split import sentence_spans, split_lines, split_sentences, split_text

__all__ = [
    "Embedder",
    "embed_sentences",
    "Segmentation",
    "segment_sentences",
    "segment_text",
    "segment_texts",
    "sentence_spans",
    "split_lines",
    "split_sentences",
    "split_text",
]
