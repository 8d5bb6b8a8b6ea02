"""Overlap as context (issue 52): neighbouring sentences embedded with a chunk, never part of its text or offsets."""

from dataclasses import replace

import numpy as np
import pytest

from bpseg_pgm.chunks import make_chunks, with_context
from bpseg_pgm.policy import DEFAULT_POLICY, Policy
from bpseg_pgm.text.segmentation import Segmentation
from bpseg_pgm.text.split import sentence_spans, squash


def words(texts):
    return [len(t.split()) for t in texts]


TEXT = (
    "The cat sat down. The dog ran off.\n\nRain fell all day. The river rose fast. The cat came back.\n\n"
    "Stocks fell today. Bonds rose later."
)
LABELS = [0, 0, 1, 1, 0, 2, 2]


def _seg(text=TEXT, labels=LABELS, policy=None):
    spans = sentence_spans(text)
    labels = np.asarray(labels)
    m = int(labels.max()) + 1
    beliefs = np.full((len(labels), m), 0.05)
    beliefs[np.arange(len(labels)), labels] = 0.9
    segments = [np.flatnonzero(labels == j).tolist() for j in range(m)]
    params = {} if policy is None else {"policy": policy}
    return Segmentation(
        [squash(text[a:b]) for a, b in spans], labels, segments, beliefs, text=text, spans=spans, params=params
    )


@pytest.mark.parametrize("options", [{}, {"max_tokens": 2}, {"contiguous": False}])
def test_context_never_changes_a_chunk(options):
    seg = _seg()
    plain = seg.chunks(count_tokens=words, context_sentences=0, **options)
    for n in (1, 2, 10):
        with_ctx = seg.chunks(count_tokens=words, context_sentences=n, **options)
        assert [replace(c, context_before=None, context_after=None) for c in with_ctx] == plain
        for c in with_ctx:
            assert c.text != c.embed_text or (c.context_before == c.context_after == "")
            assert TEXT[c.start - len(c.context_before) : c.start] == c.context_before  # exact slices
            assert TEXT[c.end : c.end + len(c.context_after)] == c.context_after


def test_the_embedded_text_holds_the_neighbouring_sentences():
    seg = _seg()
    chunks = seg.chunks(count_tokens=words, context_sentences=1)
    assert [c.text for c in chunks] == [
        "The cat sat down. The dog ran off.",
        "Rain fell all day. The river rose fast.",
        "The cat came back.",
        "Stocks fell today. Bonds rose later.",
    ]
    assert [(c.context_before, c.context_after) for c in chunks] == [
        ("", "\n\nRain fell all day."),
        ("The dog ran off.\n\n", " The cat came back."),
        ("The river rose fast. ", "\n\nStocks fell today."),
        ("The cat came back.\n\n", ""),
    ]
    assert chunks[1].embed_text == "The dog ran off.\n\nRain fell all day. The river rose fast. The cat came back."
    assert all(TEXT[c.start - len(c.context_before) : c.end + len(c.context_after)] == c.embed_text for c in chunks)
    two = seg.chunks(count_tokens=words, context_sentences=2)
    assert two[1].context_before == "The cat sat down. The dog ran off.\n\n"
    assert two[1].context_after == " The cat came back.\n\nStocks fell today."


def test_the_policy_decides_the_context_by_default_and_zero_turns_it_off():
    seg = _seg()
    shipped = seg.chunks(count_tokens=words)  # no policy in the segmentation: the shipped one's, 1 sentence a side
    assert DEFAULT_POLICY.chunk_context_sentences == 1
    assert shipped == seg.chunks(count_tokens=words, context_sentences=1)
    assert any(c.context_before or c.context_after for c in shipped)
    none = Policy(chunk_context_sentences=0)
    for chunks in (seg.chunks(count_tokens=words, context_sentences=0), _seg(policy=none).chunks(count_tokens=words)):
        assert all(c.context_before is None and c.context_after is None and c.embed_text == c.text for c in chunks)
        assert all("embed_text" not in c.to_dict() for c in chunks)
    assert _seg(policy=Policy(chunk_context_sentences=2)).chunks(count_tokens=words) == seg.chunks(
        count_tokens=words, context_sentences=2
    )


def test_a_chunk_cut_inside_a_sentence_takes_the_rest_of_it_as_context():
    text = "The cat sat down. " + " ".join(f"word{i}" for i in range(12)) + ". Bonds rose later."
    seg = _seg(text, [0, 1, 2])
    chunks = seg.chunks(5, count_tokens=words, context_sentences=1)
    middle = [c for c in chunks if c.sentences == (1,)]
    assert len(middle) >= 3
    assert middle[1].context_before.endswith(middle[0].text + " ")  # the same sentence's part before it
    assert middle[1].context_before.startswith("word0")
    assert middle[1].context_after.strip() and middle[1].context_after.strip() in text


def test_bad_context_sentences_are_value_errors():
    seg = _seg()
    for bad in (-1, 1.5, True, "2"):
        with pytest.raises(ValueError, match="context_sentences must be an int >= 0"):
            make_chunks(seg, count_tokens=words, context_sentences=bad)
    with pytest.raises(ValueError, match="context_sentences must be an int >= 0"):
        with_context([], TEXT, seg.spans, -2)
    first = with_context(seg.chunks(count_tokens=words, context_sentences=0), TEXT, seg.spans, np.int64(1))[0]
    assert first.context_after == "\n\nRain fell all day."


class _Model:
    """A model's counter as make_chunks finds it: a bound ``count_tokens`` whose owner knows its window (one token a
    word, and one special token, as [CLS] and [SEP] are for a real model)."""

    def __init__(self, window):
        self.max_seq_length = window

    def count_tokens(self, texts):
        return [len(t.split()) + 1 for t in texts]


def test_the_context_fits_the_model_window_beside_the_whole_chunk():
    seg = _seg()
    model = _Model(window=12)
    plain = with_context(seg.chunks(count_tokens=model.count_tokens), TEXT, seg.spans, 2)
    kept = with_context(
        seg.chunks(count_tokens=model.count_tokens), TEXT, seg.spans, 2, count_tokens=model.count_tokens, window=12
    )
    # "Rain fell all day. The river rose fast." is 9 tokens: 3 left, so the nearest before (4 words) does not fit and
    # that side stops; the nearest after ("The cat came back.", 4) does not fit either
    assert (plain[1].context_before, plain[1].context_after) == (
        "The cat sat down. The dog ran off.\n\n",
        " The cat came back.\n\nStocks fell today.",
    )
    assert (kept[1].context_before, kept[1].context_after) == ("", "")
    # "The cat came back." is 5 tokens: 7 left, the nearest before (4) then the nearest after (3) fit, then no more
    assert (kept[2].context_before, kept[2].context_after) == ("The river rose fast. ", "\n\nStocks fell today.")
    for c in kept:
        assert model.count_tokens([c.embed_text])[0] <= 12 or c.embed_text == c.text
    # through make_chunks: the segmentation's embedder is the model, so its window applies
    seg.embedder = model
    assert [c.embed_text for c in seg.chunks(context_sentences=2)] == [c.embed_text for c in kept]
