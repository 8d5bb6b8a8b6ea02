"""Sentence embeddings: the :class:`Embedder` (sentence-transformers or ONNX Runtime), cached on disk.

Below the text layer: the chunks use the model's tokenizer from here without importing :mod:`bpseg_pgm.text`
(which re-exports :class:`Embedder` and :func:`embed_sentences`).
"""

from bpseg_pgm.embeddings.cache import CacheWarning, EmbeddingCache, default_cache_dir
from bpseg_pgm.embeddings.context import CONTEXTS
from bpseg_pgm.embeddings.embedder import (
    DEFAULT_MODEL_NAME,
    Embedder,
    default_model_path,
    embed_sentences,
    resolve_embedder,
)
from bpseg_pgm.embeddings.onnx_backend import BACKENDS

__all__ = [
    "BACKENDS",
    "CONTEXTS",
    "CacheWarning",
    "DEFAULT_MODEL_NAME",
    "Embedder",
    "EmbeddingCache",
    "default_cache_dir",
    "default_model_path",
    "embed_sentences",
    "resolve_embedder",
]
