"""Sentence embeddings: the :class:`Embedder` (sentence-transformers or ONNX Runtime), cached on disk.

* :mod:`.embedder`: :class:`Embedder`, :func:`embed_sentences`, the bundled default model;
* :mod:`.cache`: the on-disk cache of embeddings (one SQLite file, keyed by model and sentence);
* :mod:`.context`: a unit embedded with its neighbours (``Embedder(context="window" | "late" | "mix")``);
* :mod:`.onnx_backend`: the model exported to ONNX and run by onnxruntime (``backend="onnx"``).

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
