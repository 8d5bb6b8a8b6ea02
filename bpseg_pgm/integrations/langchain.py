"""BP-Seg as a LangChain text splitter: ``BPSegTextSplitter(max_tokens=256).split_documents(docs)``.

Needs ``langchain-text-splitters`` (``pip install 'bpseg_pgm[langchain]'``).  The splitter is a real
``langchain_text_splitters.TextSplitter``, so ``split_text``, ``create_documents``, ``split_documents``
and ``transform_documents`` all work; ``create_documents``/``split_documents`` embed all their texts'
sentences in one batch.  Chunks are the runs of consecutive sentences of one BP-Seg segment (or,
with ``contiguous=False``, whole segments), cut at their weakest link when longer than ``max_tokens``
tokens of the embedding model; see :mod:`bpseg_pgm.chunks`.

With ``add_start_index=True`` each document's ``metadata["start_index"]`` (and ``"end_index"``) is
the chunk's exact character offset in its text, ``text[start_index:end_index] == page_content`` (LangChain's
own splitters find it by searching the text, which goes wrong when a passage repeats); a chunk of a
non-contiguous segment (``contiguous=False``) is not one stretch of the text: its offsets are -1 (LangChain's
value for "not found") and ``bpseg_spans`` lists its runs.  Every chunk also gets ``bpseg_segment``,
``bpseg_n_tokens``, ``bpseg_confidence`` and ``bpseg_sentences`` (see
:func:`bpseg_pgm.integrations.chunk_metadata`).  LangChain's ``chunk_size``, ``chunk_overlap`` and
``length_function`` are refused at construction with a ``ValueError`` (``chunk_size`` counts characters
by default; chunks never overlap; the one size cap is ``max_tokens``, in the model's tokens), and so is
any other keyword that is not a BPSeg parameter: every option is checked before anything is embedded.
"""

from __future__ import annotations

import copy
import os
from typing import Any, Iterable

try:
    from langchain_core.documents import Document
    from langchain_text_splitters import TextSplitter
except ImportError as exc:  # pragma: no cover - depends on the environment
    from bpseg_pgm.integrations.common import missing_extra

    raise missing_extra("langchain", "langchain-text-splitters", "langchain") from exc

from bpseg_pgm.embeddings import resolve_embedder
from bpseg_pgm.integrations import chunk_metadata
from bpseg_pgm.integrations.common import adapter_options, chunk_for
from bpseg_pgm.types.chunk import Chunk

__all__ = ["BPSegTextSplitter"]

_NO_CAP = 2**31 - 1  # TextSplitter wants a chunk_size; the cap that applies is max_tokens


class BPSegTextSplitter(TextSplitter):
    """Split texts into BP-Seg chunks (a ``langchain_text_splitters.TextSplitter``).

    Parameters
    ----------
    max_tokens : int or None, default=None
        The largest chunk of two or more sentences, in the embedding model's tokens (special tokens
        included; 256 fits all-MiniLM-L6-v2's window); None for no cap.
    contiguous : bool, default=True
        True: one chunk per run of consecutive sentences of a segment (``text == original[start:end]``);
        False: one chunk per segment, its runs joined by blank lines.
    min_tokens : int or None, default=None
        Merge a contiguous chunk shorter than this into its most similar neighbour of the same segment.
    n_segments : int or "auto", default="auto"
        k for every text, or "auto"; a k above a text's number of sentences becomes that number.
    lines : bool, default=False
        One sentence per line instead of splitting prose.
    model, embedder, cache_dir, show_progress
        As for :func:`bpseg_pgm.text.segment_text`.
    add_start_index : bool, default=False
        Put the exact ``start_index`` and ``end_index`` of each chunk in its metadata.
    bpseg_params : dict or None, default=None
        Deprecated, still accepted: BPSeg's parameters as a dict (it was for BPSeg's ``contiguous``, whose
        name is taken here; BPSeg calls it ``structure`` now, which can be passed directly).
    **more_bpseg_params
        Passed to :class:`bpseg_pgm.BPSeg` (``structure``, ``potentials``, ``lam``, ``engine``, ...).
    """

    def __init__(
        self,
        max_tokens: int | None = None,
        *,
        contiguous: bool = True,
        min_tokens: int | None = None,
        n_segments: int | str = "auto",
        lines: bool = False,
        model: str | os.PathLike | None = None,
        embedder: Any = None,
        cache_dir: str | os.PathLike | None = None,
        show_progress: bool | None = None,
        add_start_index: bool = False,
        bpseg_params: dict[str, Any] | None = None,
        **more_bpseg_params: Any,
    ) -> None:
        max_tokens, min_tokens, params = adapter_options(
            max_tokens,
            contiguous,
            min_tokens,
            bpseg_params,
            more_bpseg_params,
            adapter="BPSegTextSplitter",
            n_segments=n_segments,
        )
        self._bpseg_embedder = resolve_embedder(embedder, model, cache_dir, show_progress)
        super().__init__(
            chunk_size=max_tokens or _NO_CAP,
            chunk_overlap=0,
            length_function=self._count,
            add_start_index=add_start_index,
            strip_whitespace=False,
        )
        self.max_tokens, self.contiguous, self.min_tokens = max_tokens, bool(contiguous), min_tokens
        self.n_segments, self.lines = n_segments, bool(lines)
        self.bpseg_params = params

    def _count(self, text: str) -> int:
        return self._bpseg_embedder.count_tokens([text])[0]

    def split_chunks(self, texts: Iterable[str]) -> list[list[Chunk]]:
        """The :class:`~bpseg_pgm.types.chunk.Chunk` objects of every text (one embedding batch for all)."""
        return chunk_for(self, texts, self._bpseg_embedder)

    def split_text(self, text: str) -> list[str]:
        """The chunks of one text, as strings."""
        return [c.text for c in self.split_chunks([text])[0]]

    def create_documents(self, texts: list[str], metadatas: list[dict[Any, Any]] | None = None) -> list[Document]:
        """One ``Document`` per chunk, the text's metadata copied into each, plus the chunk's own."""
        texts = list(texts)
        if metadatas is not None and len(metadatas) != len(texts):
            raise ValueError(f"got {len(metadatas)} metadatas for {len(texts)} texts")
        metadatas = metadatas or [{}] * len(texts)
        documents = []
        for chunks, metadata in zip(self.split_chunks(texts), metadatas):
            for chunk in chunks:
                meta = copy.deepcopy(metadata)
                if self._add_start_index:  # -1 (LangChain's "not found") for a chunk that is not one stretch
                    meta["start_index"], meta["end_index"] = (chunk.start, chunk.end) if chunk.contiguous else (-1, -1)
                meta.update(chunk_metadata(chunk))
                documents.append(Document(page_content=chunk.text, metadata=meta))
        return documents
