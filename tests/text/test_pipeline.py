"""segment_text / segment_sentences: checks before embedding, renumbering, output, and the paper's example."""

import json
import re
from pathlib import Path

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from hypothesis.extra.numpy import arrays

from bpseg_pgm.cli.demo import TENNIS, load_example
from bpseg_pgm.text.pipeline import _renumber, segment_sentences, segment_text


class _FixedEmbedder:
    """Test double: returns preset vectors (two tight clusters) without any model."""

    model_name = "fixed"

    def __init__(self, vectors):
        self.vectors = np.asarray(vectors, dtype=np.float32)
        self.calls = 0

    def encode(self, sentences):
        self.calls += 1
        return self.vectors[: len(sentences)]


class _ExplodingEmbedder:
    model_name = "exploding"

    def encode(self, sentences):
        raise AssertionError("input should have been rejected before embedding")


def _two_topics():
    a, b = np.eye(4)[0], np.eye(4)[1]
    rows = [a, a + 0.05 * b, b, a, b + 0.05 * a, b]
    return [r / np.linalg.norm(r) for r in rows]


def test_segments_follow_the_embeddings_and_are_renumbered_in_reading_order():
    sents = [f"Sentence {i}." for i in range(6)]
    seg = segment_sentences(sents, 2, embedder=_FixedEmbedder(_two_topics()), init="farthest", engine="loopy")
    assert seg.labels.tolist() == [0, 0, 1, 0, 1, 1]
    assert seg.segments == [[0, 1, 3], [2, 4, 5]]
    assert seg.beliefs.shape == (6, 2)
    np.testing.assert_allclose(seg.beliefs.sum(axis=1), 1.0)
    assert np.all(seg.belief_in_label() == seg.beliefs.max(axis=1))
    assert seg.params["engine"] == "loopy" and seg.params["n_segments"] == 2
    assert seg.model == "fixed" and seg.n_segments == 2


def test_to_dict_and_to_json_are_plain_and_complete():
    sents = ['Ünïcode sentence "quoted".', "Two.", "Three.", "Four.", "Five.", "Six."]
    seg = segment_sentences(sents, 2, embedder=_FixedEmbedder(_two_topics()), init="farthest")
    d = json.loads(seg.to_json())
    assert d == json.loads(json.dumps(seg.to_dict()))
    assert d["sentences"] == sents and "Ünïcode" in seg.to_json()
    assert d["labels"] == seg.labels.tolist() and d["segments"] == seg.segments
    assert "beliefs" not in d and np.allclose(d["confidence"], seg.confidence(), atol=1e-4)  # n numbers, not n x k
    assert np.allclose(json.loads(seg.to_json(beliefs="full"))["beliefs"], seg.beliefs)
    assert d["params"]["init"] == "farthest" and isinstance(d["n_iter"], int) and isinstance(d["converged"], bool)


def test_renumbering_example():
    beliefs = np.array([[0.1, 0.2, 0.7], [0.6, 0.3, 0.1], [0.2, 0.1, 0.7]])
    labels, segments, b = _renumber(np.array([2, 0, 2]), beliefs)
    assert labels.tolist() == [0, 1, 0] and segments == [[0, 2], [1]]
    np.testing.assert_array_equal(b, beliefs[:, [2, 0, 1]])


@settings(max_examples=200, deadline=None)
@given(
    st.integers(1, 6).flatmap(
        lambda k: st.tuples(st.just(k), arrays(np.int64, st.integers(1, 30), elements=st.integers(0, k - 1)))
    )
)
def test_renumbering_invariants(case):
    k, raw = case
    beliefs = np.random.default_rng(len(raw)).random((len(raw), k))
    labels, segments, b = _renumber(raw, beliefs)
    assert labels[0] == 0
    assert [s[0] for s in segments] == sorted(s[0] for s in segments)
    assert sorted(i for s in segments for i in s) == list(range(len(raw)))
    assert all(s == sorted(s) and all(labels[i] == j for i in s) for j, s in enumerate(segments))
    assert len(segments) == len(set(raw.tolist()))
    np.testing.assert_array_equal(b[np.arange(len(raw)), labels], beliefs[np.arange(len(raw)), raw])


@pytest.mark.parametrize(
    "text, kwargs, match",
    [
        ("", {}, "text is empty"),
        (" \n\t ", {}, "only whitespace"),
        ("Just one sentence.", {}, "found 1 sentence"),
        ("one line only\n\n", {"lines": True}, "found 1 line"),
        (b"bytes. More.", {}, "must be a str"),
        (None, {}, "must be a str"),
        ("One. Two. Three.", {"n_segments": 4}, "larger than the number of sentences"),
        ("One. Two. Three.", {"n_segments": 0}, "positive int"),
        ("One. Two.", {"n_segments": 2.5}, "positive int"),
    ],
)
def test_bad_text_fails_before_embedding(text, kwargs, match):
    with pytest.raises(ValueError, match=match):
        segment_text(text, embedder=_ExplodingEmbedder(), **kwargs)


@pytest.mark.parametrize(
    "sentences, match",
    [
        ("a string.", "list of str"),
        (["One.", 2], "sentence 1 is int"),
        (["One.", "  "], "sentence 1 is empty"),
        (["Only."], "at least 2 sentences"),
        ([], "at least 2 sentences"),
    ],
)
def test_bad_sentence_lists_fail_before_embedding(sentences, match):
    with pytest.raises(ValueError, match=match):
        segment_sentences(sentences, 2, embedder=_ExplodingEmbedder())


def test_embedder_and_model_together_is_an_error():
    with pytest.raises(ValueError, match="either an embedder or model"):
        segment_sentences(["One.", "Two."], 2, embedder=_ExplodingEmbedder(), model="x")


def test_bad_engine_parameters_come_back_as_value_errors():
    emb = _FixedEmbedder(_two_topics())
    with pytest.raises(ValueError, match="engine"):
        segment_sentences([f"S{i}." for i in range(6)], 2, embedder=emb, engine="nope")
    with pytest.raises(ValueError, match="lam"):
        segment_sentences([f"S{i}." for i in range(6)], 2, embedder=emb, lam=-1)


def test_init_all_uses_one_label_per_sentence():
    sents, emb = [f"S{i}." for i in range(6)], _FixedEmbedder(_two_topics())
    seg = segment_sentences(sents, 99, embedder=emb, init="all", em_rounds=0)
    assert seg.beliefs.shape == (6, 6)
    # re-estimation (the default) merges the labels of sentences that say the same thing
    seg = segment_sentences(sents, 99, embedder=emb, init="all")
    assert seg.beliefs.shape == (6, 2) and seg.segments == [[0, 1, 3], [2, 4, 5]]


def test_prose_and_lines_give_the_same_sentences(embedder):
    lines = load_example()
    a = segment_text("\n".join(lines), 3, lines=True, embedder=embedder, init="farthest")
    b = segment_text(" ".join(lines), 3, embedder=embedder, init="farthest")
    assert a.sentences == b.sentences == lines
    assert a.labels.tolist() == b.labels.tolist()


@pytest.mark.parametrize("k", range(2, 8))
@pytest.mark.parametrize("potentials", ["paper", None])
def test_paper_example_tennis_sentences_together_for_every_k(embedder, potentials, k):
    """Acceptance (paper, Section 4.1): more than one segment, and the three tennis sentences share one.

    Run with the paper's model as written (its potentials over topics alone: what the paper reports) and with
    the estimator's defaults. A named potential now reaches the automatic structure, which may cut runs; the
    paper's model has none, so it says ``structure="topics"``.
    """
    params = {} if potentials is None else {"potentials": potentials, "structure": "topics"}
    seg = segment_sentences(load_example(), k, embedder=embedder, init="farthest", **params)
    assert seg.n_segments > 1, seg.labels.tolist()
    assert len({int(seg.labels[i]) for i in TENNIS}) == 1, seg.labels.tolist()


@pytest.mark.parametrize("page", ["README.md", "docs/index.md"])
def test_the_quickstart_runs_and_gives_what_it_shows(page, session_cache_dir, monkeypatch, capsys):
    """The quickstart of the README and the full one of the docs' Getting started page run as shown."""
    text = (Path(__file__).resolve().parents[2] / page).read_text("utf-8")
    block = re.search(r"\n## Quickstart\s+```python\n(.*?)```", text, re.S).group(1)
    monkeypatch.setenv("BPSEG_CACHE_DIR", str(session_cache_dir))
    scope = {}
    exec(compile(block, f"{page} quickstart", "exec"), scope)
    seg = scope["seg"]
    assert seg.segments == [[0, 1, 3, 5], [2, 4, 6]]  # as both pages say
    assert "[Segment 2] runs 2, 4 and 6 · sentences 3, 5, 7" in capsys.readouterr().out
    assert seg.runs == [[0, 1], [2], [3], [4], [5], [6]]
    assert seg.segment_runs == [[0, 2, 4], [1, 3, 5]]
    keywords = seg.segment_keywords()
    assert keywords[0][:2] == ["beautiful", "brightly"] and keywords[1][:3] == ["open", "tennis", "play"]
    # what the comments show is what the code gives
    for shown in ("[[0, 1, 3, 5], [2, 4, 6]]", "[[0, 1], [2], [3], [4], [5], [6]]", "['open', 'tennis', 'play', ...]"):
        assert shown in block


def test_the_segmentation_says_which_structure_was_used():
    """structure="auto": a gradual document (noisy blocks around one theme) comes back as runs,
    the alternating two-topic sentences as topics; the JSON carries it."""
    rng = np.random.default_rng(0)
    theme = rng.normal(size=32)
    rows = np.vstack([theme + 0.25 * rng.normal(size=32) + rng.normal(size=(40, 32)) for _ in range(8)])
    sents = [f"Sentence number {i} of a long meeting." for i in range(len(rows))]
    grouped = segment_sentences(sents, embedder=_FixedEmbedder(rows), random_state=0)
    assert grouped.structure == "run-topics" and json.loads(grouped.to_json())["structure"] == "run-topics"
    gradual = segment_sentences(sents, embedder=_FixedEmbedder(rows), random_state=0, group_runs=False)
    assert gradual.structure == "runs" and json.loads(gradual.to_json())["structure"] == "runs"
    assert np.all(np.diff(gradual.labels) >= 0)  # runs are numbered in reading order
    alternating = segment_sentences([f"S{i}." for i in range(6)], 2, embedder=_FixedEmbedder(_two_topics()))
    assert alternating.structure == "topics"
    forced = segment_sentences(sents, embedder=_FixedEmbedder(rows), structure="topics", random_state=0)
    assert forced.structure == "topics"
