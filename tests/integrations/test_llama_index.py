"""BPSegNodeParser used the way LlamaIndex uses a node parser: documents -> nodes, and in an IngestionPipeline."""

import pytest
from llama_index.core import Document
from llama_index.core.ingestion import IngestionPipeline
from llama_index.core.node_parser import NodeParser
from llama_index.core.schema import MetadataMode, NodeRelationship, TextNode

from bpseg_pgm.integrations.llama_index import BPSegNodeParser

from .conftest import MESSY, OTHER, PAPER, REPEATED


def _check_nodes(nodes, documents, cap=None):
    by_id = {d.doc_id: d for d in documents}
    for node in nodes:
        doc = by_id[node.ref_doc_id]
        text = node.get_content(metadata_mode=MetadataMode.NONE)
        assert doc.text[node.start_char_idx : node.end_char_idx] == text
        assert node.metadata["source"] == doc.metadata["source"]  # the document's metadata is carried over
        assert "bpseg" not in node.get_content(metadata_mode=MetadataMode.EMBED)  # our keys stay out of embeddings
        assert "bpseg" not in node.get_content(metadata_mode=MetadataMode.LLM)
        if cap and "-" in node.metadata["bpseg_sentences"]:
            assert node.metadata["bpseg_n_tokens"] <= cap


def test_documents_to_nodes_with_exact_offsets_and_links(recording):
    parser = BPSegNodeParser(30, embedder=recording, **PAPER)
    assert isinstance(parser, NodeParser)
    docs = [Document(text=MESSY, metadata={"source": "messy.txt"}), Document(text=OTHER, metadata={"source": "o"})]
    nodes = parser.get_nodes_from_documents(docs)
    assert len(recording.calls) == 1  # one embedding batch for both documents
    assert all(isinstance(n, TextNode) for n in nodes) and len(nodes) >= 3
    _check_nodes(nodes, docs, cap=30)
    first = [n for n in nodes if n.ref_doc_id == docs[0].doc_id]
    assert first[0].start_char_idx == 0 and NodeRelationship.NEXT in first[0].relationships
    assert first[1].relationships[NodeRelationship.PREVIOUS].node_id == first[0].node_id


def test_in_an_ingestion_pipeline(embedder):
    docs = [Document(text=MESSY, metadata={"source": "messy.txt"}), Document(text=OTHER, metadata={"source": "o"})]
    nodes = IngestionPipeline(transformations=[BPSegNodeParser(40, embedder=embedder, **PAPER)]).run(documents=docs)
    assert len(nodes) >= 3
    _check_nodes(nodes, docs, cap=40)


def test_repeated_passages_keep_their_exact_offsets(embedder):
    doc = Document(text=REPEATED, metadata={"source": "r"})
    parser = BPSegNodeParser(15, embedder=embedder, **PAPER)  # 12 for the text, 3 for "source: r" before it
    nodes = parser.get_nodes_from_documents([doc])
    assert [n.text for n in nodes] == ["Rain fell again today.  Rain fell again today."] * 2
    assert [(n.start_char_idx, n.end_char_idx) for n in nodes] == [(0, 46), (48, 94)]
    # LlamaIndex's own search (from one past the previous chunk's start) finds chunk 2 inside chunk 1
    searched = NodeParser._postprocess_parsed_nodes(parser, parser._parse_nodes([doc]), {doc.doc_id: doc})
    assert [n.start_char_idx for n in searched] == [0, 24]


def test_parsing_nodes_and_whole_segments(embedder):
    parser = BPSegNodeParser(contiguous=False, n_segments=2, embedder=embedder, bpseg_params=PAPER)
    assert parser.bpseg_params == PAPER
    nodes = parser([TextNode(text=MESSY, metadata={"source": "node"})])
    assert {n.metadata["bpseg_segment"] for n in nodes} == {0, 1}
    for n in nodes:
        if "bpseg_spans" in n.metadata:
            runs = [tuple(map(int, r.split(":"))) for r in n.metadata["bpseg_spans"].split(",")]
            assert n.text == "\n\n".join(MESSY[a:b] for a, b in runs)
            assert n.start_char_idx is None and n.end_char_idx is None
        else:
            assert MESSY[n.start_char_idx : n.end_char_idx] == n.text


def test_short_documents_and_bad_options(embedder):
    docs = [Document(text="", metadata={"source": "e"}), Document(text="Just one.", metadata={"source": "one"})]
    nodes = BPSegNodeParser(embedder=embedder).get_nodes_from_documents(docs)
    assert [(n.text, n.start_char_idx, n.end_char_idx) for n in nodes] == [("Just one.", 0, 9)]
    with pytest.raises(ValueError, match="max_tokens"):
        BPSegNodeParser(max_tokens=-1)
    with pytest.raises(ValueError, match="larger than max_tokens"):
        BPSegNodeParser(max_tokens=5, min_tokens=6)


def test_the_embedded_text_with_its_metadata_fits_max_tokens(embedder):
    meta = {
        "source": "a/very/long/path/to/the/meeting/notes/file/name.txt",
        "title": "Weekly notes of the team",
        "author": "Somebody with a long name",
    }
    docs = [Document(text=MESSY, metadata=meta), Document(text=OTHER, metadata={"source": "o"})]
    nodes = BPSegNodeParser(64, embedder=embedder, **PAPER).get_nodes_from_documents(docs)
    embedded = embedder.count_tokens([n.get_content(metadata_mode=MetadataMode.EMBED) for n in nodes])
    assert max(embedded) <= 64
    assert all(n.metadata["bpseg_n_tokens"] <= 64 - 36 for n in nodes if n.metadata["source"] != "o")
    plain = BPSegNodeParser(64, embedder=embedder, include_metadata=False, **PAPER).get_nodes_from_documents(docs)
    assert len(plain) < len(nodes)  # without the metadata the chunks may be longer
    with pytest.raises(ValueError, match="leaves no room"):
        BPSegNodeParser(12, embedder=embedder, **PAPER).get_nodes_from_documents([Document(text=MESSY, metadata=meta)])


def test_from_defaults_and_non_contiguous_offsets(embedder):
    parser = BPSegNodeParser.from_defaults(max_tokens=64, contiguous=False, embedder=embedder, **PAPER)
    assert isinstance(parser, BPSegNodeParser) and parser.max_tokens == 64 and not parser.contiguous
    doc = Document(text=MESSY)
    for node in parser.get_nodes_from_documents([doc]):
        text = node.get_content(metadata_mode=MetadataMode.NONE)
        if node.start_char_idx is not None:
            assert doc.text[node.start_char_idx : node.end_char_idx] == text
        else:
            assert "bpseg_spans" in node.metadata


def test_markdown_nodes_carry_their_heading_path(embedder):
    text = "# Usage\n\nInstall it with pip.\n\n## Reading files\n\nOpen the file. Read each line.\n"
    nodes = BPSegNodeParser(embedder=embedder, min_tokens=0).get_nodes_from_documents([Document(text=text)])
    paths = [n.metadata.get("bpseg_heading_path") for n in nodes]
    assert "Usage > Reading files" in paths and all(p and p.startswith("Usage") for p in paths)
