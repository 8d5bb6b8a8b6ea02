"""BP-Seg as a LlamaIndex node parser: ``BPSegNodeParser(max_tokens=256).get_nodes_from_documents(docs)``.

Needs ``llama-index-core`` (``pip install 'bpseg_pgm[llama-index]'``).  The parser is a real
``llama_index.core.node_parser.NodeParser``, so it works in ``get_nodes_from_documents``, as a
transformation of an ``IngestionPipeline`` or ``VectorStoreIndex.from_documents(...,
transformations=[...])``; all the documents of one call are embedded in one batch.  Chunks are the
runs of consecutive sentences of one BP-Seg segment (or whole segments with ``contiguous=False``),
cut at their weakest link when longer than ``max_tokens``; see :mod:`bpseg_pgm.chunks`.

Each node's ``start_char_idx``/``end_char_idx`` are the chunk's exact offsets in its document's text
(LlamaIndex's own post-processing finds them by searching the text, which goes wrong when a passage
repeats; they are set back to the exact values).  A chunk of a non-contiguous segment is not one
stretch of the text: its offsets are None and ``metadata["bpseg_spans"]`` lists its runs.  The
``bpseg_*`` metadata (see :func:`bpseg_pgm.integrations.chunk_metadata`) is kept out of the text
that is embedded or sent to the LLM.  ``max_tokens`` caps the text that is *embedded*: LlamaIndex puts a
node's metadata (the document's, unless excluded from embedding) before its text, so those tokens come off
each document's cap, as LlamaIndex's own splitters do; metadata longer than the cap is a ``ValueError``.
``BPSegNodeParser.from_defaults(...)`` builds one the way LlamaIndex's parsers are built.

LlamaIndex's ``chunk_size`` and ``chunk_overlap`` are refused at construction with a ``ValueError``
(chunks never overlap; the one size cap is ``max_tokens``, in the embedding model's tokens), and so is
any other keyword that is not a BPSeg parameter: every option is checked before anything is embedded.
"""

from __future__ import annotations

from typing import Any, Dict, List, Optional, Sequence, Union

try:
    from llama_index.core.bridge.pydantic import Field, PrivateAttr
    from llama_index.core.node_parser import NodeParser
    from llama_index.core.node_parser.node_utils import build_nodes_from_splits
    from llama_index.core.schema import BaseNode, Document, MetadataMode, TextNode
except ImportError as exc:  # pragma: no cover - depends on the environment
    from bpseg_pgm.integrations.common import missing_extra

    raise missing_extra("llama_index", "llama-index-core", "llama-index") from exc

from bpseg_pgm.embeddings import resolve_embedder
from bpseg_pgm.integrations import METADATA_KEYS, chunk_metadata
from bpseg_pgm.integrations.common import adapter_options, chunk_for

__all__ = ["BPSegNodeParser"]

_HIDDEN = [*METADATA_KEYS, "bpseg_spans"]


class BPSegNodeParser(NodeParser):
    """Parse documents into BP-Seg chunks (a llama-index-core ``NodeParser``).

    ``max_tokens``, ``contiguous``, ``min_tokens``, ``n_segments``, ``lines`` and ``bpseg_params``
    are as for :class:`bpseg_pgm.integrations.langchain.BPSegTextSplitter`; ``model``,
    ``embedder``, ``cache_dir`` and ``show_progress`` configure the embedding as for
    :func:`bpseg_pgm.text.segment_text`; further keyword arguments (``structure``, ``potentials``, ``lam``, ...)
    go to :class:`bpseg_pgm.BPSeg` and are kept in the ``bpseg_params`` field.  Passing them as the
    ``bpseg_params`` dict is deprecated (it was for BPSeg's ``contiguous``, now ``structure``) but still accepted.
    """

    max_tokens: Optional[int] = Field(default=None, description="Largest multi-sentence chunk, in model tokens.")
    contiguous: bool = Field(default=True, description="Chunks are runs of a segment (else whole segments).")
    min_tokens: Optional[int] = Field(
        default=None, description="Merge smaller contiguous chunks into a neighbour of the same segment."
    )
    n_segments: Union[int, str] = Field(default="auto", description="k for every document, or 'auto'.")
    lines: bool = Field(default=False, description="One sentence per line instead of prose.")
    model: Optional[str] = Field(default=None, description="Embedding model (None: all-MiniLM-L6-v2, bundled).")
    bpseg_params: Dict[str, Any] = Field(default_factory=dict, description="Parameters of bpseg_pgm.BPSeg.")
    _embedder: Any = PrivateAttr(default=None)

    def __init__(
        self,
        max_tokens: Optional[int] = None,
        *,
        contiguous: bool = True,
        min_tokens: Optional[int] = None,
        n_segments: Union[int, str] = "auto",
        lines: bool = False,
        model: Optional[str] = None,
        embedder: Any = None,
        cache_dir: Any = None,
        show_progress: Optional[bool] = None,
        include_metadata: bool = True,
        include_prev_next_rel: bool = True,
        bpseg_params: Optional[Dict[str, Any]] = None,
        **more_bpseg_params: Any,
    ) -> None:
        max_tokens, min_tokens, params = adapter_options(
            max_tokens,
            contiguous,
            min_tokens,
            bpseg_params,
            more_bpseg_params,
            adapter="BPSegNodeParser",
            n_segments=n_segments,
        )
        super().__init__(
            max_tokens=max_tokens,
            contiguous=bool(contiguous),
            min_tokens=min_tokens,
            n_segments=n_segments,
            lines=bool(lines),
            model=None if model is None else str(model),
            bpseg_params=params,
            include_metadata=include_metadata,
            include_prev_next_rel=include_prev_next_rel,
        )
        self._embedder = resolve_embedder(embedder, model, cache_dir, show_progress)

    @classmethod
    def from_defaults(
        cls,
        max_tokens: Optional[int] = None,
        *,
        callback_manager: Any = None,
        id_func: Any = None,
        **kwargs: Any,
    ) -> "BPSegNodeParser":
        """A parser with these options (those of the constructor), plus LlamaIndex's ``callback_manager`` and
        ``id_func``, as LlamaIndex's own node parsers are made (``SentenceSplitter.from_defaults(...)``)."""
        parser = cls(max_tokens, **kwargs)
        if callback_manager is not None:
            parser.callback_manager = callback_manager
        if id_func is not None:
            parser.id_func = id_func
        return parser

    @classmethod
    def class_name(cls) -> str:
        return "BPSegNodeParser"

    def _caps(self, nodes: List[BaseNode]) -> Optional[List[Optional[int]]]:
        """Each node's token cap for its text: ``max_tokens`` less the tokens its embedded metadata adds."""
        if self.max_tokens is None or not self.include_metadata:
            return None
        count = self._embedder.count_tokens
        special = count([""])[0]
        caps = []
        for node in nodes:
            meta = node.get_metadata_str(mode=MetadataMode.EMBED)
            template = getattr(node, "text_template", "{metadata_str}\n\n{content}")
            extra = count([template.format(metadata_str=meta, content="")])[0] - special if meta else 0
            if self.max_tokens - extra <= special:
                raise ValueError(
                    f"the metadata embedded with a node is {extra} tokens, which leaves no room under "
                    f"max_tokens={self.max_tokens}: raise max_tokens or exclude metadata keys from "
                    "embedding (excluded_embed_metadata_keys)"
                )
            caps.append(self.max_tokens - extra)
        return caps

    def _parse_nodes(self, nodes: Sequence[BaseNode], show_progress: bool = False, **kwargs: Any) -> List[BaseNode]:
        nodes = list(nodes)
        texts = [node.get_content(metadata_mode=MetadataMode.NONE) for node in nodes]
        all_chunks = chunk_for(self, texts, self._embedder, self._caps(nodes))
        out: List[BaseNode] = []
        for node, chunks in zip(nodes, all_chunks):
            built = build_nodes_from_splits([c.text for c in chunks], node, id_func=self.id_func)
            for new, chunk in zip(built, chunks):
                new.start_char_idx = chunk.start if chunk.contiguous else None
                new.end_char_idx = chunk.end if chunk.contiguous else None
                new.metadata.update(chunk_metadata(chunk))
                new.excluded_embed_metadata_keys = [*new.excluded_embed_metadata_keys, *_HIDDEN]
                new.excluded_llm_metadata_keys = [*new.excluded_llm_metadata_keys, *_HIDDEN]
            out.extend(built)
        return out

    def _postprocess_parsed_nodes(self, nodes: List[BaseNode], parent_doc_map: Dict[str, Document]) -> List[BaseNode]:
        exact = [(n.start_char_idx, n.end_char_idx) if isinstance(n, TextNode) else None for n in nodes]
        nodes = super()._postprocess_parsed_nodes(nodes, parent_doc_map)
        for node, offsets in zip(nodes, exact):
            if offsets is not None:  # the base class searched the text for them: put the exact ones back
                node.start_char_idx, node.end_char_idx = offsets
        return nodes
