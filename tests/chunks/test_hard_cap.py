"""The hard token cap: a sentence longer than max_tokens is cut into pieces that fit, at its strongest inner
boundaries, with exact offsets (BOM, CRLF, emoji); the default floor merges tiny chunks; min_tokens=0 turns it off."""

import numpy as np
import pytest
import regex

from bpseg_pgm.text.segmentation import Segmentation
from bpseg_pgm.text.split import sentence_spans, squash


def words(texts):
    return [len(t.split()) for t in texts]


def chars(texts):
    return [len(t) for t in texts]


def _seg(text, labels=None, markdown=False):
    spans = sentence_spans(text, markdown=markdown)
    labels = np.zeros(len(spans), dtype=int) if labels is None else np.asarray(labels)
    m = int(labels.max()) + 1
    beliefs = np.full((len(labels), m), 0.1 / max(m - 1, 1))
    beliefs[np.arange(len(labels)), labels] = 0.9 if m > 1 else 1.0
    segments = [np.flatnonzero(labels == j).tolist() for j in range(m)]
    return Segmentation([squash(text[a:b]) for a, b in spans], labels, segments, beliefs, text=text, spans=spans)


def _check_tiling(text, chunks, cap, count):
    for c in chunks:
        assert text[c.start : c.end] == c.text and c.n_tokens == count([c.text])[0] <= cap
    assert all(not text[a.end : b.start].strip() for a, b in zip(chunks, chunks[1:]))
    assert not text[: chunks[0].start].strip() and not text[chunks[-1].end :].strip()


def test_a_long_sentence_is_cut_at_clause_marks_first():
    text = "Short one. " + "red green blue, cat dog cow; sun moon star: oak elm ash, one two three. Short two."
    chunks = _seg(text).chunks(max_tokens=4, min_tokens=0, count_tokens=words)
    assert [c.text for c in chunks] == [
        "Short one.",
        "red green blue,",
        "cat dog cow;",
        "sun moon star:",
        "oak elm ash,",
        "one two three.",
        "Short two.",
    ]
    assert [c.sentences for c in chunks] == [(0,), (1,), (1,), (1,), (1,), (1,), (2,)]
    _check_tiling(text, chunks, 4, words)


def test_line_breaks_come_before_clause_marks():
    text = "one, two three\nfour, five six\nseven, eight nine."
    chunks = _seg(text).chunks(max_tokens=6, min_tokens=0, count_tokens=words)
    assert [c.text for c in chunks] == ["one, two three\nfour, five six", "seven, eight nine."]


def test_without_spaces_the_cut_falls_between_graphemes():
    family = "\U0001f468\u200d\U0001f469\u200d\U0001f467"  # one grapheme of five code points
    text = "\ufeff" + ("ab" + family + "e\u0301") * 6 + "\r\nxyz"  # BOM, emoji ZWJ sequence, combining accent, CRLF
    seg = Segmentation(
        [squash(text)], np.zeros(1, dtype=int), [[0]], np.ones((1, 1)), text=text, spans=[(0, len(text))]
    )
    chunks = seg.chunks(max_tokens=8, count_tokens=chars)
    _check_tiling(text, chunks, 8, chars)
    bounds = {0, *(m.end() for m in regex.finditer(r"\X", text))}
    assert all(c.start in bounds and c.end in bounds for c in chunks)
    assert "".join(c.text for c in chunks).replace("\r\n", "") == text.replace("\r\n", "")


def test_the_soft_cap_is_still_there():
    text = "One two three four five six seven eight. Short one."
    chunks = _seg(text).chunks(max_tokens=4, count_tokens=words, hard_cap=False)
    assert chunks[0].n_tokens == 8


def test_a_cap_that_leaves_no_room_for_text_is_refused():
    def with_special(texts):
        return [len(t.split()) + 2 for t in texts]

    with pytest.raises(ValueError, match="leaves no room for text"):
        _seg("One two. Three four.").chunks(max_tokens=2, count_tokens=with_special)


def test_the_default_floor_merges_tiny_chunks_of_one_segment_and_zero_turns_it_off():
    text = "Yes. " + "Here is a longer sentence of words. " * 2 + "Fine. " + "And another long sentence follows here."
    seg = _seg(text, [0, 1, 1, 2, 3])
    assert [c.sentences for c in seg.chunks(max_tokens=40, min_tokens=0, count_tokens=words)] == [
        (0,),
        (1, 2),
        (3,),
        (4,),
    ]
    # floor 10: "Yes." and "Fine." are below it, but each is a segment of its own: never merged across segments
    assert seg.chunks(max_tokens=40, count_tokens=words) == seg.chunks(max_tokens=40, min_tokens=0, count_tokens=words)
    assert seg.chunks(max_tokens=40, count_tokens=words) == seg.chunks(max_tokens=40, min_tokens=10, count_tokens=words)
    assert len(seg.chunks(count_tokens=words)) == 4  # no cap: no floor
    assert seg.chunks(max_tokens=40, min_tokens=0, count_tokens=words) == seg.chunks(count_tokens=words)


def test_a_400_token_sentence_under_the_real_tokenizer(embedder):
    clause = "the committee reviewed the budget for the new building, "
    body = "\ufeffIntro sentence here.\r\n" + "It said " + clause * 40 + "and 🎉 then it closed. Last one.\r\n"
    counts = embedder.count_tokens
    seg = _seg(body)
    assert counts([body[a:b] for a, b in seg.spans])[1] > 400
    chunks = seg.chunks(max_tokens=128, count_tokens=counts)
    _check_tiling(body, chunks, 128, counts)
    assert max(c.n_tokens for c in chunks) <= 128 and len(chunks) >= 4
    assert all(c.text.endswith((",", ".")) for c in chunks)  # cut after clause marks, not mid-clause
