"""A line of several sentences (a segmentation made with ``lines=True``) is cut into them, so that a chunk may
end inside a line where that saves a chunk; whole lines stay whole where they fit."""

from __future__ import annotations

import numpy as np

from bpseg_pgm.text.segmentation import Segmentation

TEXT = "Ann: the cat sat. It was tired.\nBob: the dog ran. It was fast.\nCy: the bird sang. It was loud.\n"


def words(texts):
    return [len(t.split()) for t in texts]


def _seg(lines: bool) -> Segmentation:
    starts = [0, *(i + 1 for i, ch in enumerate(TEXT) if ch == "\n")][:3]
    spans = [(a, TEXT.index("\n", a)) for a in starts]
    labels = np.zeros(3, dtype=np.int64)
    return Segmentation(
        [TEXT[a:b] for a, b in spans], labels, [[0, 1, 2]], np.ones((3, 1)), text=TEXT, spans=spans, lines=lines
    )


def test_the_sentence_starts_of_each_line():
    seg = _seg(True)
    assert seg.line_sentence_starts() == [[a, TEXT.index("It", a)] for a, _ in seg.spans]
    assert _seg(False).line_sentence_starts() is None


def test_a_chunk_ends_inside_a_line_where_that_saves_a_chunk():
    # 7 words a line, two sentences of 4 and 3: a cap of 11 holds one whole line, or a line and a sentence
    lines = _seg(True).chunks(11, count_tokens=words, context_sentences=0)
    whole = _seg(False).chunks(11, count_tokens=words, context_sentences=0)
    assert [c.text for c in whole] == [TEXT[a:b] for a, b in _seg(False).spans]  # a line a chunk: three
    assert [c.n_tokens for c in lines] == [11, 10]
    assert all(TEXT[c.start : c.end] == c.text for c in lines)
    assert "".join(TEXT[c.start : c.end] + " " for c in lines).split() == TEXT.split()  # they tile the text
    inside = [c for c in lines if c.start not in {a for a, _ in _seg(True).spans}]
    assert inside and all(TEXT[c.start : c.start + 2] == "It" for c in inside)  # cut at a sentence start
    assert inside[0].sentences == (1, 2)  # the line it was cut from, and the next


def test_lines_that_fit_are_not_cut():
    lines = _seg(True).chunks(30, count_tokens=words, context_sentences=0)
    assert [c.text for c in lines] == [TEXT.strip()]
