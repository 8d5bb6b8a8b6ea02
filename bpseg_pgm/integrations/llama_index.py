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

**Parents.**  ``parents=True`` also gives each segment (a topic, all its runs however far apart) as a parent
``TextNode``, as LlamaIndex's ``HierarchicalNodeParser`` gives its levels: the parents first, then the chunks,
each chunk's ``NodeRelationship.PARENT`` its parent and each parent's ``NodeRelationship.CHILD`` its chunks
(``get_leaf_nodes`` / ``get_root_nodes`` and an ``AutoMergingRetriever`` read them).  A parent's ``bpseg_spans``
are its exact offsets, one per run, and its ``start_char_idx``/``end_char_idx`` are set where it is one stretch
(see :func:`bpseg_pgm.integrations.parent_metadata`).

**Context.**  ``context_sentences=n`` puts each chunk's ``n`` neighbouring sentences on either side in its
metadata (``bpseg_context_before``, ``bpseg_context_after``), which LlamaIndex embeds with the node's text and
keeps out of the LLM's (``excluded_llm_metadata_keys``): the LLM sees the chunk, the embedding its surroundings
too.  ``max_tokens`` caps the chunk and its other metadata; the context comes on top of it.
"""

from __future__ import annotations

from typing import Any, Dict, List, Optional, Sequence, Union

try:
    from llama_index.core.bridge.pydantic import Field, PrivateAttr
    from llama_index.core.node_parser import NodeParser
    from llama_index.core.node_parser.node_utils import build_nodes_from_splits
    from llama_index.core.schema import BaseNode, Document, MetadataMode, NodeRelationship, TextNode
except ImportError as exc:  # pragma: no cover - depends on the environment
    from bpseg_pgm.integrations.common import missing_extra

    raise missing_extra("llama_index", "llama-index-core", "llama-index") from exc

from bpseg_pgm.chunks import check_context_sentences
from bpseg_pgm.embeddings import resolve_embedder
from bpseg_pgm.integrations import CONTEXT_KEYS, METADATA_KEYS, PARENT_KEYS, chunk_metadata, parent_metadata
from bpseg_pgm.integrations.common import adapter_options, chunk_for, parents_for

__all__ = ["BPSegNodeParser"]

_HIDDEN = [*METADATA_KEYS, "bpseg_spans"]
_HIDDEN_PARENTS = [*_HIDDEN, *PARENT_KEYS]


def _hide(node: BaseNode, embed: List[str], llm: List[str]) -> None:
    node.excluded_embed_metadata_keys = [*node.excluded_embed_metadata_keys, *embed]
    node.excluded_llm_metadata_keys = [*node.excluded_llm_metadata_keys, *llm]


class BPSegNodeParser(NodeParser):
    """Parse documents into BP-Seg chunks (a llama-index-core ``NodeParser``).

    ``max_tokens``, ``contiguous``, ``min_tokens``, ``n_segments``, ``lines`` and ``bpseg_params``
    are as for :class:`bpseg_pgm.integrations.langchain.BPSegTextSplitter`; ``parents=True`` gives the parent
    nodes too and ``context_sentences`` the context embedded with each chunk (see the module); ``model``,
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
    parents: bool = Field(default=False, description="Also a parent node per segment, over its chunks.")
    context_sentences: int = Field(default=0, description="Neighbouring sentences embedded with a chunk.")
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
        parents: bool = False,
        context_sentences: int = 0,
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
        if not isinstance(parents, bool):
            raise ValueError(f"parents must be True or False, got {parents!r}")
        context_sentences = check_context_sentences(context_sentences)
        super().__init__(
            max_tokens=max_tokens,
            contiguous=bool(contiguous),
            min_tokens=min_tokens,
            n_segments=n_segments,
            lines=bool(lines),
            parents=parents,
            context_sentences=context_sentences,
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
        if self.parents:
            return self._parent_nodes(nodes, parents_for(texts, all_chunks, self._embedder))
        out: List[BaseNode] = []
        for node, chunks in zip(nodes, all_chunks):
            built = build_nodes_from_splits([c.text for c in chunks], node, id_func=self.id_func)
            for new, chunk in zip(built, chunks):
                new.start_char_idx = chunk.start if chunk.contiguous else None
                new.end_char_idx = chunk.end if chunk.contiguous else None
                new.metadata.update(chunk_metadata(chunk))
                _hide(new, _HIDDEN, [*_HIDDEN, *CONTEXT_KEYS] if self.context_sentences else _HIDDEN)
            out.extend(built)
        return out

    def _parent_nodes(self, nodes: List[BaseNode], linked: List[Any]) -> List[BaseNode]:
        """Each document's parent nodes, then its chunks' (one ``build_nodes_from_splits``, so that an ``id_func``
        numbers them all), linked both ways."""
        llm = [*_HIDDEN_PARENTS, *CONTEXT_KEYS] if self.context_sentences else _HIDDEN_PARENTS
        out: List[BaseNode] = []
        for node, (tops, chunks) in zip(nodes, linked):
            built = build_nodes_from_splits([p.text for p in [*tops, *chunks]], node, id_func=self.id_func)
            top_nodes, chunk_nodes = built[: len(tops)], built[len(tops) :]
            for j, (new, parent) in enumerate(zip(top_nodes, tops)):
                new.start_char_idx = parent.start if parent.contiguous else None
                new.end_char_idx = parent.end if parent.contiguous else None
                new.metadata.update(parent_metadata(parent, j))
                _hide(new, _HIDDEN_PARENTS, _HIDDEN_PARENTS)
            for new, chunk in zip(chunk_nodes, chunks):
                new.start_char_idx = chunk.start if chunk.contiguous else None
                new.end_char_idx = chunk.end if chunk.contiguous else None
                new.metadata.update(chunk_metadata(chunk))
                _hide(new, _HIDDEN_PARENTS, llm)
            _link(top_nodes, chunk_nodes, tops)
            out.extend(built)
        return out

    def _postprocess_parsed_nodes(self, nodes: List[BaseNode], parent_doc_map: Dict[str, Document]) -> List[BaseNode]:
        exact = {id(n): (n.start_char_idx, n.end_char_idx) for n in nodes if isinstance(n, TextNode)}
        if self.parents:  # each level on its own (previous/next within it), the parents first, then linked again
            tops = [n for n in nodes if NodeRelationship.CHILD in n.relationships]
            rest = [n for n in nodes if NodeRelationship.CHILD not in n.relationships]
            nodes = super()._postprocess_parsed_nodes(tops, parent_doc_map) + super()._postprocess_parsed_nodes(
                rest, parent_doc_map
            )
        else:
            nodes = super()._postprocess_parsed_nodes(nodes, parent_doc_map)
        for node in nodes:
            if id(node) in exact:  # the base class searched the text for them: put the exact ones back
                node.start_char_idx, node.end_char_idx = exact[id(node)]
        if self.parents:  # the links' copies of each node's metadata and hash, as they are now
            by_id = {n.node_id: n for n in nodes}
            for top in tops:
                top.relationships[NodeRelationship.CHILD] = [
                    by_id[info.node_id].as_related_node_info() for info in top.relationships[NodeRelationship.CHILD]
                ]
            for top in tops:
                for info in top.relationships[NodeRelationship.CHILD]:
                    by_id[info.node_id].relationships[NodeRelationship.PARENT] = top.as_related_node_info()
        return nodes


def _link(top_nodes: List[BaseNode], chunk_nodes: List[BaseNode], tops: List[Any]) -> None:
    """Each parent's ``CHILD`` its chunks, each chunk's ``PARENT`` its parent."""
    for top, parent in zip(top_nodes, tops):
        top.relationships[NodeRelationship.CHILD] = [chunk_nodes[i].as_related_node_info() for i in parent.children]
        for i in parent.children:
            chunk_nodes[i].relationships[NodeRelationship.PARENT] = top.as_related_node_info()
