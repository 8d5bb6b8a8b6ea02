"""BPSegTextSplitter used the way LangChain uses a text splitter: split_text, create_documents, split_documents."""

import pytest
from langchain_core.documents import Document
from langchain_text_splitters import TextSplitter

from bpseg_pgm.integrations.langchain import BPSegTextSplitter

from .conftest import MESSY, OTHER, PAPER, REPEATED


def test_is_a_langchain_text_splitter_and_split_text_gives_the_chunks(embedder):
    splitter = BPSegTextSplitter(embedder=embedder, **PAPER)
    assert isinstance(splitter, TextSplitter)
    pieces = splitter.split_text(MESSY)
    assert len(pieces) >= 2 and all(p in MESSY for p in pieces)
    assert "".join("".join(pieces).split()) == "".join(MESSY.split())  # nothing lost, nothing added


def test_split_documents_exact_start_index_cap_and_metadata(recording):
    splitter = BPSegTextSplitter(30, add_start_index=True, embedder=recording, **PAPER)
    sources = [
        Document(page_content=MESSY, metadata={"source": "messy.txt"}),
        Document(page_content=OTHER, metadata={"source": "other.txt"}),
        Document(page_content="", metadata={"source": "empty.txt"}),
    ]
    chunks = splitter.split_documents(sources)
    assert len(recording.calls) == 1  # every document's sentences in one embedding batch
    by_source = {d.metadata["source"]: d.page_content for d in sources}
    assert {c.metadata["source"] for c in chunks} == {"messy.txt", "other.txt"}
    for c in chunks:
        text, start, end = by_source[c.metadata["source"]], c.metadata["start_index"], c.metadata["end_index"]
        assert text[start:end] == c.page_content and end - start == len(c.page_content)
        if "-" in c.metadata["bpseg_sentences"]:  # two or more sentences: within the cap
            assert c.metadata["bpseg_n_tokens"] <= 30
        assert c.metadata["bpseg_n_tokens"] == embedder_tokens(recording, c.page_content)
        assert all(isinstance(v, (str, int, float)) for v in c.metadata.values())  # flat, for vector stores
    assert splitter.transform_documents(sources) == chunks
    assert sources[0].metadata == {"source": "messy.txt"}  # the originals are untouched


def embedder_tokens(emb, text):
    return emb.count_tokens([text])[0]


def test_repeated_passages_get_their_own_offsets(embedder):
    splitter = BPSegTextSplitter(12, add_start_index=True, embedder=embedder, **PAPER)
    docs = splitter.create_documents([REPEATED])
    assert [d.page_content for d in docs] == ["Rain fell again today.  Rain fell again today."] * 2
    assert [d.metadata["start_index"] for d in docs] == [0, 48]
    assert all(REPEATED[d.metadata["start_index"] : d.metadata["end_index"]] == d.page_content for d in docs)


def test_whole_segments_and_short_texts(embedder):
    splitter = BPSegTextSplitter(contiguous=False, add_start_index=True, n_segments=2, embedder=embedder, **PAPER)
    docs = splitter.create_documents(
        [MESSY, "Only one sentence here.", "  \n "], metadatas=[{"i": 0}, {"i": 1}, {"i": 2}]
    )
    assert [d.metadata["i"] for d in docs].count(2) == 0
    single = [d for d in docs if d.metadata["i"] == 1]
    assert [(d.page_content, d.metadata["start_index"]) for d in single] == [("Only one sentence here.", 0)]
    for d in docs:
        if "bpseg_spans" in d.metadata:  # a segment whose runs are apart
            runs = [tuple(map(int, r.split(":"))) for r in d.metadata["bpseg_spans"].split(",")]
            assert d.page_content == "\n\n".join(MESSY[a:b] for a, b in runs) and len(runs) > 1
            assert d.metadata["start_index"] == d.metadata["end_index"] == -1  # not one stretch of the text
        else:
            assert MESSY[d.metadata["start_index"] : d.metadata["end_index"]] == d.page_content or d.metadata["i"] == 1
    assert {d.metadata["bpseg_segment"] for d in docs if d.metadata["i"] == 0} == {0, 1}
    for d in docs:  # the topic level and its keywords, flat (str / int) as vector stores require
        assert "bpseg_topic" not in d.metadata
        assert isinstance(d.metadata["bpseg_run"], int)
        assert all(isinstance(d.metadata.get("bpseg_keywords", ""), str) for d in docs)
    assert any(d.metadata.get("bpseg_keywords") for d in docs)


@pytest.mark.parametrize(
    "kwargs, match", [({"max_tokens": 0}, "max_tokens"), ({"min_tokens": 5, "contiguous": False}, "contiguous=True")]
)
def test_bad_options_fail_at_construction(kwargs, match):
    with pytest.raises(ValueError, match=match):
        BPSegTextSplitter(**kwargs)


def test_bad_input_is_a_value_error_naming_the_text(embedder):
    splitter = BPSegTextSplitter(embedder=embedder)
    with pytest.raises(ValueError, match=r"texts\[1\]: text must be a str"):
        splitter.create_documents(["Fine. Text.", None])
    with pytest.raises(ValueError, match="2 metadatas for 1 texts"):
        splitter.create_documents(["Fine. Text."], metadatas=[{}, {}])


def test_bpseg_parameters_whose_names_are_taken_go_in_a_dict(embedder, monkeypatch):
    import bpseg_pgm.text.pipeline as pipeline

    seen = []
    made = pipeline.checked_estimator  # the one estimator segment_text checks and fits: its parameters
    monkeypatch.setattr(pipeline, "checked_estimator", lambda *a, **k: seen.append(dict(a[1])) or made(*a, **k))
    splitter = BPSegTextSplitter(contiguous=False, embedder=embedder, bpseg_params={"damping": 0.1}, **PAPER)
    splitter.split_text(OTHER)
    assert seen and all(d == {"damping": 0.1, **PAPER} for d in seen) and splitter.contiguous is False
    with pytest.raises(ValueError, match="bpseg_params must be a dict"):
        BPSegTextSplitter(bpseg_params=[("lam", 1)])


def test_bpseg_structure_is_passed_directly(embedder, monkeypatch):
    """BPSeg's structure (formerly its contiguous, which needed the bpseg_params dict) is a plain keyword."""
    import bpseg_pgm.text.pipeline as pipeline

    seen = []
    made = pipeline.checked_estimator  # the one estimator segment_text checks and fits: its parameters
    monkeypatch.setattr(pipeline, "checked_estimator", lambda *a, **k: seen.append(dict(a[1])) or made(*a, **k))
    splitter = BPSegTextSplitter(contiguous=False, embedder=embedder, structure="runs")
    chunks = splitter.split_chunks([OTHER])[0]
    assert seen and all(d == {"structure": "runs"} for d in seen) and splitter.contiguous is False
    assert all(c.contiguous for c in chunks)  # runs: each segment is one stretch of the text


def test_markdown_chunks_carry_their_heading_path(embedder):
    text = "# Usage\n\nInstall it with pip.\n\n## Reading files\n\nOpen the file. Read each line.\n"
    docs = BPSegTextSplitter(embedder=embedder, min_tokens=0).create_documents([text])
    paths = [d.metadata.get("bpseg_heading_path") for d in docs]
    assert "Usage > Reading files" in paths and all(p and p.startswith("Usage") for p in paths)
