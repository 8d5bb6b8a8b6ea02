"""make_chunks: exact offsets on messy text, the token cap, weakest-link cuts, merging, and the real tokenizer
(chunk_texts, many texts at once, is tested in tests/text/test_chunk_texts.py)."""

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from bpseg_pgm.chunks import PIECE_SEPARATOR, make_chunks
from bpseg_pgm.text.pipeline import segment_text
from bpseg_pgm.text.segmentation import Segmentation
from bpseg_pgm.text.split import sentence_spans, squash


def words(texts):
    """A token counter for tests: one token per word, no special tokens."""
    return [len(t.split()) for t in texts]


def _seg(text, labels, embeddings=None, lines=False):
    spans = sentence_spans(text, lines=lines)
    labels = np.asarray(labels)
    assert len(labels) == len(spans)
    m = int(labels.max()) + 1
    beliefs = np.full((len(labels), m), 0.1 / max(m - 1, 1))
    beliefs[np.arange(len(labels)), labels] = 0.9
    segments = [np.flatnonzero(labels == j).tolist() for j in range(m)]
    return Segmentation(
        [squash(text[a:b]) for a, b in spans], labels, segments, beliefs, text=text, spans=spans, embeddings=embeddings
    )


MESSY = (
    "Alpha  one two.\tAlpha three\n four.\n\n\n  Beta five six seven.\r\n\r\nBeta  eight.  Alpha nine ten.\n"
    "\t\tGamma eleven twelve.   Gamma thirteen.\n\n"
)


def test_contiguous_chunks_are_runs_with_exact_offsets():
    seg = _seg(MESSY, [0, 0, 1, 1, 0, 2, 2])
    chunks = seg.chunks(count_tokens=words)
    assert make_chunks(seg, count_tokens=words) == chunks  # what Segmentation.chunks calls
    assert [c.sentences for c in chunks] == [(0, 1), (2, 3), (4,), (5, 6)]
    assert [c.segment for c in chunks] == [0, 1, 0, 2]
    for c in chunks:
        assert MESSY[c.start : c.end] == c.text and c.spans == ((c.start, c.end),) and c.contiguous
        assert c.n_tokens == len(c.text.split())
    assert chunks[0].text == "Alpha  one two.\tAlpha three\n four."
    assert chunks[1].text == "Beta five six seven.\r\n\r\nBeta  eight."
    # a chunk's confidence is the mean calibrated confidence of its sentences (not their raw belief, 0.9)
    assert chunks[0].confidence == pytest.approx(seg.confidence()[[0, 1]].mean())
    assert chunks[0].confidence != pytest.approx(0.9)


def test_non_contiguous_chunks_are_segments_with_their_runs():
    seg = _seg(MESSY, [0, 0, 1, 1, 0, 2, 2])
    chunks = seg.chunks(contiguous=False, count_tokens=words)
    assert [c.sentences for c in chunks] == [(0, 1, 4), (2, 3), (5, 6)]
    first = chunks[0]
    assert not first.contiguous and len(first.spans) == 2
    assert first.text == PIECE_SEPARATOR.join(MESSY[a:b] for a, b in first.spans)
    assert (first.start, first.end) == (first.spans[0][0], first.spans[-1][1])
    assert MESSY[first.spans[1][0] : first.spans[1][1]] == "Alpha nine ten."
    assert first.to_dict()["spans"] == [list(s) for s in first.spans]


def test_max_tokens_cuts_at_the_weakest_link():
    text = "a a a.\nb b b.\nc c c.\nd d d.\ne e e.\nf f f."
    # one segment; the link between sentences 3 and 4 (0-based 2 and 3) is the weakest
    emb = np.array([[1, 0], [1, 0.1], [1, 0.2], [0.2, 1], [0.1, 1], [0, 1]], dtype=float)
    seg = _seg(text, [0] * 6, embeddings=emb, lines=True)
    assert [c.sentences for c in seg.chunks(max_tokens=9, count_tokens=words)] == [(0, 1, 2), (3, 4, 5)]
    # a cap of 12 tokens could cut anywhere from 2 to 4 sentences: the weakest link still wins
    assert [c.sentences for c in seg.chunks(max_tokens=12, count_tokens=words)] == [(0, 1, 2), (3, 4, 5)]
    assert [c.sentences for c in seg.chunks(max_tokens=18, count_tokens=words)] == [tuple(range(6))]
    small = seg.chunks(max_tokens=4, count_tokens=words)
    assert [c.sentences for c in small] == [(i,) for i in range(6)]


def test_with_the_soft_cap_a_single_sentence_over_the_cap_stays_whole():
    text = "One two three four five six seven eight. Short one. Short two."
    seg = _seg(text, [0, 0, 0])
    chunks = seg.chunks(max_tokens=4, count_tokens=words, hard_cap=False)
    assert [c.sentences for c in chunks] == [(0,), (1, 2)]
    assert chunks[0].n_tokens == 8 > 4 >= chunks[1].n_tokens


def test_a_run_over_the_cap_is_packed_into_the_fewest_chunks_that_fit():
    # ten sentences of three words under a cap of twelve fit in three chunks; cutting in two at the weakest link
    # (after the fifth sentence) and then each half again gave four
    text = " ".join(f"Sentence {i} ends." for i in range(10))
    emb = np.array([[1.0, 0.0]] * 5 + [[0.0, 1.0]] * 5)
    seg = _seg(text, [0] * 10, embeddings=emb)
    chunks = seg.chunks(max_tokens=12, min_tokens=0, count_tokens=words)
    assert len(chunks) == 3 and all(c.n_tokens <= 12 for c in chunks)
    assert [s for c in chunks for s in c.sentences] == list(range(10))
    # among the packings into three, the cuts cost least: where the sentences either side are least alike
    emb = np.array([[1.0, 0.0]] * 4 + [[0.0, 1.0]] * 6)
    cut = _seg(text, [0] * 10, embeddings=emb).chunks(max_tokens=12, min_tokens=0, count_tokens=words)
    assert [c.sentences[0] for c in cut][:2] == [0, 4]


def test_min_tokens_never_merges_across_segments():
    # issue 36, fault 5: "b." alone is below min_tokens, but its neighbours are other segments; merged, the
    # chunk would say segment 0 for a sentence of segment 1
    text = "a a a a.\nb.\nc c c c.\nd d d d."
    emb = np.array([[1, 0], [0.6, 0.8], [0, 1], [0, 1]], dtype=float)  # b is closer to c than to a
    seg = _seg(text, [0, 1, 0, 2], embeddings=emb, lines=True)
    chunks = seg.chunks(min_tokens=2, count_tokens=words)
    assert [c.sentences for c in chunks] == [(0,), (1,), (2,), (3,)]
    assert [c.segment for c in chunks] == [0, 1, 0, 2]
    assert chunks[1].text == "b."


def test_small_pieces_of_one_segment_are_packed_with_their_neighbours():
    # the cap cuts the long first sentence at its comma, leaving "eleven." alone: packing the run into the fewest
    # chunks that fit joins it to the next sentence when that is the same segment (with or without the floor,
    # 10 // 4 = 2), and not when it is another
    text = "One two three four five six seven eight nine ten, eleven. Twelve thirteen."
    one = _seg(text, [0, 0])
    assert [c.text for c in one.chunks(max_tokens=10, min_tokens=0, count_tokens=words)] == [
        "One two three four five six seven eight nine ten,",
        "eleven. Twelve thirteen.",
    ]
    merged = one.chunks(max_tokens=10, count_tokens=words)
    assert [(c.text, c.sentences, c.segment) for c in merged] == [
        ("One two three four five six seven eight nine ten,", (0,), 0),
        ("eleven. Twelve thirteen.", (0, 1), 0),
    ]
    two = _seg(text, [0, 1])
    assert [(c.text, c.segment) for c in two.chunks(max_tokens=10, count_tokens=words)] == [
        ("One two three four five six seven eight nine ten,", 0),
        ("eleven.", 0),
        ("Twelve thirteen.", 1),
    ]


def test_every_chunk_describes_all_its_sentences_on_the_quickstart_text(embedder):
    # issue 36, fault 5: with the default floor, the quickstart's text (README, docs/index.md) gave one chunk holding both topics as
    # segment 0, with the weather's keywords and a confidence of 0.99999
    text = (
        "The sun was shining brightly. It was a beautiful morning. I'll play tennis tomorrow.\n"
        "Thunder rumbled in the distance. US Open is a tennis tournament. The rain poured down heavily.\n"
        "Who is going to win the US Open?"
    )
    seg = segment_text(text, embedder=embedder)
    conf = seg.confidence()
    for max_tokens in (None, 16, 64, 256):
        chunks = seg.chunks(max_tokens=max_tokens)
        assert sorted(i for c in chunks for i in c.sentences) == list(range(len(seg.sentences)))
        for c in chunks:
            assert {int(seg.labels[i]) for i in c.sentences} == {c.segment} == {c.topic}
            assert list(c.keywords) == seg.segment_keywords()[c.segment]
            assert c.confidence == pytest.approx(np.mean([conf[i] for i in c.sentences]))
            assert text[c.start : c.end] == c.text
            if c.run is not None:
                assert {int(seg.run_labels[i]) for i in c.sentences} == {c.run}


@pytest.mark.parametrize(
    "kwargs, match",
    [
        ({"max_tokens": 0}, "max_tokens must be a positive int"),
        ({"max_tokens": 2.5}, "max_tokens must be a positive int"),
        ({"max_tokens": True}, "max_tokens must be a positive int"),
        ({"min_tokens": -1}, "min_tokens must be an int >= 0"),
        ({"hard_cap": "yes"}, "hard_cap must be True or False"),
        ({"markdown": "yes"}, "markdown must be True, False or None"),
        ({"contiguous": "yes"}, "contiguous must be True or False"),
        ({"contiguous": False, "min_tokens": 3}, "needs contiguous=True"),
        ({"max_tokens": 3, "min_tokens": 4}, "larger than max_tokens"),
        ({"count_tokens": 3}, "count_tokens must be a function"),
        ({"count_tokens": lambda texts: [1]}, "one non-negative int per text"),
        ({"count_tokens": lambda texts: [-1] * len(texts)}, "one non-negative int per text"),
    ],
)
def test_bad_options_are_value_errors(kwargs, match):
    seg = _seg(MESSY, [0, 0, 1, 1, 0, 2, 2])
    kwargs.setdefault("count_tokens", words)
    with pytest.raises(ValueError, match=match):
        seg.chunks(**kwargs)


_PIECES = st.sampled_from(["alpha", "beta", "Mr.", "gamma", "delta", "U.S.", "x"])
_GAPS = st.sampled_from([" ", "  ", "\t", "\n", "\n\n", " \n\t\n ", "\r\n", "\r\n\r\n", "\n\n\n"])


@st.composite
def messy_documents(draw):
    n = draw(st.integers(2, 14))
    parts = [draw(st.sampled_from(["", " ", "\n\n", "\t"]))]
    for _ in range(n):
        body = [draw(_PIECES) for _ in range(draw(st.integers(1, 8)))]
        inner = [draw(st.sampled_from([" ", "  ", "\t", "\n"])) for _ in body[1:]]
        parts.append("".join(w + g for w, g in zip(body, [*inner, ""])).capitalize() + draw(st.sampled_from(".!?")))
        parts.append(draw(_GAPS))
    text = "".join(parts)
    lines = draw(st.booleans())
    n_spans = len(sentence_spans(text, lines=lines))
    labels = draw(st.lists(st.integers(0, 3), min_size=n_spans, max_size=n_spans))
    return text, lines, labels


@settings(max_examples=200, deadline=None)
@given(
    messy_documents(), st.one_of(st.none(), st.integers(1, 30)), st.booleans(), st.one_of(st.none(), st.integers(1, 8))
)
def test_chunk_targets_hold_on_messy_text(doc, max_tokens, contiguous, min_tokens):
    text, lines, labels = doc
    if not labels:
        return
    labels = np.unique(labels, return_inverse=True)[1]  # no empty segments
    seg = _seg(text, labels, lines=lines)
    if not contiguous or (max_tokens is not None and min_tokens is not None and min_tokens > max_tokens):
        min_tokens = None
    chunks = seg.chunks(max_tokens, contiguous, min_tokens=min_tokens, count_tokens=words)
    covered = sorted(i for c in chunks for i in c.sentences)
    assert sorted(set(covered)) == list(range(len(seg.sentences)))  # every sentence, and only a long one twice
    assert all(len(seg.sentences[i].split()) > max_tokens for i in set(covered) if covered.count(i) > 1)
    for c in chunks:
        assert list(c.sentences) == sorted(c.sentences)
        assert c.text == PIECE_SEPARATOR.join(text[a:b] for a, b in c.spans)
        assert (c.start, c.end) == (c.spans[0][0], c.spans[-1][1])
        assert c.n_tokens == len(c.text.split())
        if contiguous:
            assert text[c.start : c.end] == c.text and c.contiguous
            assert c.sentences == tuple(range(c.sentences[0], c.sentences[-1] + 1))
        assert {labels[i] for i in c.sentences} == {c.segment}  # merged or not, one segment (issue 36, fault 5)
        if max_tokens is not None:  # a hard cap
            assert c.n_tokens <= max_tokens
    if contiguous:  # reading order, and only whitespace between chunks: every character of the text is in one
        assert all(a.end <= b.start and not text[a.end : b.start].strip() for a, b in zip(chunks, chunks[1:]))
        assert not text[: chunks[0].start].strip() and not text[chunks[-1].end :].strip()


# --- with the real model: segment_text on messy input, the model's own tokenizer ----------------------------

DOC = (
    "The sun was shining  brightly over the hills.\tIt was a beautiful morning for a walk.\n\n"
    "I'll play tennis tomorrow with my   friends.  The US Open is a famous tennis tournament.\r\n"
    "Serena won the US Open six times.\n\n\n\tThunder rumbled in the distance.  Dark clouds gathered\n"
    "over the valley. The rain poured down heavily all afternoon.\n\nWho is going to win the US Open this year?  "
)


@pytest.fixture(scope="module")
def real_seg(embedder):
    return segment_text(DOC, 3, embedder=embedder, potentials="paper", lam=0.12, init="farthest")


def test_real_chunks_have_exact_offsets_and_model_tokens(real_seg, embedder):
    assert real_seg.text is DOC and len(real_seg.spans) == len(real_seg.sentences) == 9
    for contiguous in (True, False):
        for max_tokens in (None, 30, 12):
            chunks = real_seg.chunks(max_tokens, contiguous)
            assert sorted({i for c in chunks for i in c.sentences}) == list(range(9))
            for c in chunks:
                if c.contiguous:
                    assert DOC[c.start : c.end] == c.text
                assert c.n_tokens == len(embedder.tokenizer(c.text)["input_ids"])
                if max_tokens:
                    assert c.n_tokens <= max_tokens
                assert 0 < c.confidence <= 1
