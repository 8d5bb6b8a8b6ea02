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

**Parents.**  :meth:`BPSegTextSplitter.split_parent_documents` (and ``create_parent_documents``) gives each
segment (a topic, all its runs however far apart) as one parent ``Document`` besides the chunks, for a
``MultiVectorRetriever`` / ``ParentDocumentRetriever``-style index: embed the chunks, store the parents by id, and
hand the LLM a retrieved chunk's parent.  Each parent's ``id`` and ``metadata[id_key]`` (``"doc_id"``, LangChain's
own key) is a new UUID, and each chunk's ``metadata[id_key]`` is its parent's; the parent's ``bpseg_spans`` are its
exact offsets, one per run (see :func:`bpseg_pgm.integrations.parent_metadata`).

**Context.**  ``context_sentences=n`` puts each chunk's ``n`` neighbouring sentences on either side in its
metadata (``bpseg_context_before``, ``bpseg_context_after``; ``page_content`` and the offsets stay the chunk's):
embed ``bpseg_context_before + page_content + bpseg_context_after``.
"""

from __future__ import annotations

import copy
import os
import uuid
from typing import Any, Iterable

try:
    from langchain_core.documents import Document
    from langchain_text_splitters import TextSplitter
except ImportError as exc:  # pragma: no cover - depends on the environment
    from bpseg_pgm.integrations.common import missing_extra

    raise missing_extra("langchain", "langchain-text-splitters", "langchain") from exc

from bpseg_pgm.chunks import check_context_sentences
from bpseg_pgm.embeddings import resolve_embedder
from bpseg_pgm.integrations import chunk_metadata, parent_metadata
from bpseg_pgm.integrations.common import adapter_options, chunk_for, parents_for
from bpseg_pgm.types.chunk import Chunk, ParentChunk

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
    context_sentences : int, default=0
        Neighbouring sentences on each side of a chunk, in its metadata (``bpseg_context_before``,
        ``bpseg_context_after``) for embedding with it; 0: none.
    id_key : str, default="doc_id"
        The metadata key of the parent's id (:meth:`split_parent_documents`), as for LangChain's
        ``MultiVectorRetriever``.
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
        context_sentences: int = 0,
        id_key: str = "doc_id",
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
        context_sentences = check_context_sentences(context_sentences)
        if not isinstance(id_key, str) or not id_key:
            raise ValueError(f"id_key must be a non-empty str, got {id_key!r}")
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
        self.context_sentences, self.id_key = context_sentences, id_key
        self.bpseg_params = params

    def _count(self, text: str) -> int:
        return self._bpseg_embedder.count_tokens([text])[0]

    def split_chunks(self, texts: Iterable[str]) -> list[list[Chunk]]:
        """The :class:`~bpseg_pgm.types.chunk.Chunk` objects of every text (one embedding batch for all)."""
        return chunk_for(self, texts, self._bpseg_embedder)

    def split_text(self, text: str) -> list[str]:
        """The chunks of one text, as strings."""
        return [c.text for c in self.split_chunks([text])[0]]

    def split_parent_chunks(self, texts: Iterable[str]) -> list[tuple[list[ParentChunk], list[Chunk]]]:
        """Each text's :class:`~bpseg_pgm.types.chunk.ParentChunk` objects and its chunks, each chunk with its
        ``parent`` (:func:`bpseg_pgm.chunks.link_parents`; one embedding batch for all the texts)."""
        texts = list(texts)
        return parents_for(texts, self.split_chunks(texts), self._bpseg_embedder)

    def _checked_metadatas(self, texts: list[str], metadatas: list[dict[Any, Any]] | None) -> list[dict[Any, Any]]:
        if metadatas is not None and len(metadatas) != len(texts):
            raise ValueError(f"got {len(metadatas)} metadatas for {len(texts)} texts")
        return metadatas or [{}] * len(texts)

    def _document(self, piece: Any, metadata: dict[Any, Any], own: dict[str, Any], **fields: Any) -> Document:
        meta = copy.deepcopy(metadata)
        if self._add_start_index:  # -1 (LangChain's "not found") for a piece that is not one stretch
            meta["start_index"], meta["end_index"] = (piece.start, piece.end) if piece.contiguous else (-1, -1)
        meta.update(own)
        return Document(page_content=piece.text, metadata=meta, **fields)

    def create_documents(self, texts: list[str], metadatas: list[dict[Any, Any]] | None = None) -> list[Document]:
        """One ``Document`` per chunk, the text's metadata copied into each, plus the chunk's own."""
        texts = list(texts)
        metadatas = self._checked_metadatas(texts, metadatas)
        return [
            self._document(chunk, metadata, chunk_metadata(chunk))
            for chunks, metadata in zip(self.split_chunks(texts), metadatas)
            for chunk in chunks
        ]

    def create_parent_documents(
        self, texts: list[str], metadatas: list[dict[Any, Any]] | None = None
    ) -> tuple[list[Document], list[Document]]:
        """``(parents, chunks)``: one parent ``Document`` per segment of each text and the chunks' documents.

        Parameters
        ----------
        texts : list of str
            The texts, all embedded in one batch.
        metadatas : list of dict or None, default=None
            One per text, copied into its parents' and chunks' metadata.

        Returns
        -------
        parents : list of Document
            Each segment's runs, joined by blank lines (``page_content``), with ``id`` and ``metadata[id_key]`` a
            new UUID, and :func:`~bpseg_pgm.integrations.parent_metadata` (its exact ``bpseg_spans``).
        chunks : list of Document
            What :meth:`create_documents` gives, each with ``metadata[id_key]``, its parent's id, and
            ``bpseg_parent``.
        """
        texts = list(texts)
        metadatas = self._checked_metadatas(texts, metadatas)
        parents, children = [], []
        for (tops, chunks), metadata in zip(self.split_parent_chunks(texts), metadatas):
            ids = [str(uuid.uuid4()) for _ in tops]
            parents += [
                self._document(p, metadata, {self.id_key: ids[j], **parent_metadata(p, j)}, id=ids[j])
                for j, p in enumerate(tops)
            ]
            children += [self._document(c, metadata, {**chunk_metadata(c), self.id_key: ids[c.parent]}) for c in chunks]
        return parents, children

    def split_parent_documents(self, documents: Iterable[Document]) -> tuple[list[Document], list[Document]]:
        """``(parents, chunks)`` of LangChain documents: :meth:`create_parent_documents` of their text and metadata.

        For a ``MultiVectorRetriever``-style index (``id_key`` its ``id_key``)::

            parents, chunks = splitter.split_parent_documents(docs)
            vectorstore.add_documents(chunks)
            docstore.mset([(p.id, p) for p in parents])
        """
        documents = list(documents)
        return self.create_parent_documents([d.page_content for d in documents], [dict(d.metadata) for d in documents])
