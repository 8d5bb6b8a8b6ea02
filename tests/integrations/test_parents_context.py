"""Parent chunks and context in both adapters (issue 52): a returning topic as one parent, chunks pointing to it."""

import pytest
from langchain_core.documents import Document
from langchain_core.embeddings import DeterministicFakeEmbedding
from langchain_core.stores import InMemoryStore
from langchain_core.vectorstores import InMemoryVectorStore
from llama_index.core import Document as LlamaDocument
from llama_index.core.node_parser import get_leaf_nodes, get_root_nodes
from llama_index.core.schema import MetadataMode, NodeRelationship

from bpseg_pgm.integrations.langchain import BPSegTextSplitter
from bpseg_pgm.integrations.llama_index import BPSegNodeParser

#: Football, bread, football again: the football topic returns.
ABA = (
    "The striker scored twice in the football final. The goalkeeper saved a penalty in the second half. "
    "Fans sang in the stadium until the final whistle.\n\n"
    "Knead the bread dough for ten minutes. Let the dough rise in a warm kitchen for an hour. "
    "Bake the loaf in a hot oven until the crust is brown.\n\n"
    "The coach praised the defence after the football match. The team will play the semi-final next week."
)
TOPICS = {"n_segments": 2, "structure": "topics"}


def _spans(value):
    return [tuple(int(x) for x in span.split(":")) for span in value.split(",")]


@pytest.fixture(scope="module")
def langchain_docs(embedder):
    splitter = BPSegTextSplitter(add_start_index=True, context_sentences=1, embedder=embedder, **TOPICS)
    plain = BPSegTextSplitter(add_start_index=True, embedder=embedder, **TOPICS)
    source = Document(page_content=ABA, metadata={"source": "aba.txt"})
    return splitter.split_parent_documents([source]), plain.split_documents([source])


def test_langchain_parents_have_exact_spans_and_children_point_to_them(langchain_docs):
    (parents, chunks), _ = langchain_docs
    assert len(parents) == 2 and len(chunks) == 3
    by_id = {p.id: p for p in parents}
    assert all(p.metadata["doc_id"] == p.id and p.metadata["source"] == "aba.txt" for p in parents)
    football = parents[0]
    spans = _spans(football.metadata["bpseg_spans"])
    assert len(spans) == 2  # the returning topic: one parent, two stretches
    assert football.page_content == "\n\n".join(ABA[a:b] for a, b in spans)
    assert ABA[spans[0][0] : spans[0][1]].startswith("The striker") and ABA[spans[1][0] :].startswith("The coach")
    assert (football.metadata["start_index"], football.metadata["end_index"]) == (-1, -1)  # not one stretch
    bread = parents[1]
    assert ABA[bread.metadata["start_index"] : bread.metadata["end_index"]] == bread.page_content
    for i, c in enumerate(chunks):
        parent = by_id[c.metadata["doc_id"]]
        assert c.metadata["bpseg_parent"] == parent.metadata["bpseg_parent"]
        assert str(i) in parent.metadata["bpseg_children"].split(",")
        start, end = c.metadata["start_index"], c.metadata["end_index"]
        assert ABA[start:end] == c.page_content
        assert any(a <= start and end <= b for a, b in _spans(parent.metadata["bpseg_spans"]))
    assert [c.metadata["doc_id"] for c in chunks] == [football.id, bread.id, football.id]


def test_langchain_context_is_metadata_and_never_changes_a_chunk(langchain_docs):
    (_, chunks), plain = langchain_docs
    assert [(c.page_content, c.metadata["start_index"]) for c in chunks] == [
        (p.page_content, p.metadata["start_index"]) for p in plain
    ]
    assert "bpseg_context_before" not in plain[0].metadata  # off by default
    middle = chunks[1]
    before, after = middle.metadata["bpseg_context_before"], middle.metadata["bpseg_context_after"]
    assert before.strip() == "Fans sang in the stadium until the final whistle."
    assert after.strip() == "The coach praised the defence after the football match."
    start, end = middle.metadata["start_index"], middle.metadata["end_index"]
    assert ABA[start - len(before) : end + len(after)] == before + middle.page_content + after


def test_langchain_multi_vector_style_retrieval_returns_the_whole_topic(langchain_docs):
    (parents, chunks), _ = langchain_docs
    vectorstore = InMemoryVectorStore(DeterministicFakeEmbedding(size=16))
    vectorstore.add_documents(chunks)
    docstore = InMemoryStore()
    docstore.mset([(p.id, p) for p in parents])
    hit = vectorstore.similarity_search(chunks[2].page_content, k=1)[0]
    (parent,) = docstore.mget([hit.metadata["doc_id"]])
    assert chunks[0].page_content in parent.page_content and chunks[2].page_content in parent.page_content


def test_langchain_bad_options(embedder):
    with pytest.raises(ValueError, match="context_sentences must be an int >= 0"):
        BPSegTextSplitter(context_sentences=-1, embedder=embedder)
    with pytest.raises(ValueError, match="id_key must be a non-empty str"):
        BPSegTextSplitter(id_key="", embedder=embedder)


@pytest.fixture(scope="module")
def llama_nodes(embedder):
    doc = LlamaDocument(text=ABA, metadata={"source": "aba.txt"})
    parser = BPSegNodeParser(parents=True, context_sentences=1, embedder=embedder, **TOPICS)
    plain = BPSegNodeParser(embedder=embedder, **TOPICS)
    return doc, parser.get_nodes_from_documents([doc]), plain.get_nodes_from_documents([doc])


def test_llama_index_parent_and_child_relationships(llama_nodes):
    doc, nodes, plain = llama_nodes
    roots, leaves = get_root_nodes(nodes), get_leaf_nodes(nodes)
    assert nodes == roots + leaves and len(roots) == 2 and len(leaves) == 3
    by_id = {n.node_id: n for n in nodes}
    for root in roots:
        kids = [by_id[info.node_id] for info in root.relationships[NodeRelationship.CHILD]]
        assert kids and all(k.relationships[NodeRelationship.PARENT].node_id == root.node_id for k in kids)
        assert all(k.relationships[NodeRelationship.PARENT].hash == root.hash for k in kids)  # linked as they are now
        assert [info.metadata["source"] for info in root.relationships[NodeRelationship.CHILD]] == ["aba.txt"] * len(
            kids
        )
        assert all(k.text in root.text for k in kids)
        assert root.relationships[NodeRelationship.SOURCE].node_id == doc.doc_id
        assert root.metadata["source"] == "aba.txt"
    football = roots[0]
    spans = _spans(football.metadata["bpseg_spans"])
    assert len(spans) == 2 and football.text == "\n\n".join(ABA[a:b] for a, b in spans)
    assert football.start_char_idx is None  # not one stretch of the text
    assert ABA[roots[1].start_char_idx : roots[1].end_char_idx] == roots[1].text
    parents_of = [leaf.relationships[NodeRelationship.PARENT].node_id for leaf in leaves]
    assert parents_of == [football.node_id, roots[1].node_id, football.node_id]
    assert leaves[0].relationships[NodeRelationship.NEXT].node_id == leaves[1].node_id  # chunks linked in order
    assert NodeRelationship.PREVIOUS not in leaves[0].relationships  # not to a parent
    for leaf, before in zip(leaves, plain):  # the chunks are those of a parser without parents or context
        assert (leaf.text, leaf.start_char_idx, leaf.end_char_idx) == (
            before.text,
            before.start_char_idx,
            before.end_char_idx,
        )
        assert ABA[leaf.start_char_idx : leaf.end_char_idx] == leaf.text
    assert "bpseg" not in football.get_content(metadata_mode=MetadataMode.EMBED)
    assert "bpseg" not in football.get_content(metadata_mode=MetadataMode.LLM)


def test_llama_index_embeds_the_context_and_the_llm_sees_the_chunk(llama_nodes):
    _, nodes, plain = llama_nodes
    middle = get_leaf_nodes(nodes)[1]
    embedded = middle.get_content(metadata_mode=MetadataMode.EMBED)
    llm = middle.get_content(metadata_mode=MetadataMode.LLM)
    assert "Fans sang in the stadium" in embedded and "The coach praised" in embedded and middle.text in embedded
    assert "Fans sang" not in llm and "The coach praised" not in llm and middle.text in llm
    assert "bpseg_parent" not in embedded
    assert "Fans sang" not in plain[1].get_content(metadata_mode=MetadataMode.EMBED)  # off by default


def test_llama_index_ids_from_an_id_func_are_unique(embedder):
    parser = BPSegNodeParser.from_defaults(
        parents=True, id_func=lambda i, doc: f"{doc.doc_id}-{i}", embedder=embedder, **TOPICS
    )
    nodes = parser.get_nodes_from_documents([LlamaDocument(text=ABA, doc_id="aba")])
    assert len({n.node_id for n in nodes}) == len(nodes) >= 2
    with pytest.raises(ValueError, match="parents must be True or False"):
        BPSegNodeParser(parents="yes", embedder=embedder)
    with pytest.raises(ValueError, match="context_sentences must be an int >= 0"):
        BPSegNodeParser(context_sentences=-1, embedder=embedder)
