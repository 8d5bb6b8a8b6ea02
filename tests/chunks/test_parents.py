"""Parent chunks (issue 52): one parent per segment over its chunks, its spans exact offsets, one per run."""

from dataclasses import replace

import numpy as np
import pytest

from bpseg_pgm.chunks import PIECE_SEPARATOR, Chunk, ParentChunk, link_parents, make_chunks
from bpseg_pgm.text.segmentation import Segmentation
from bpseg_pgm.text.split import sentence_spans, squash


def words(texts):
    """A token counter for tests: one token per word, no special tokens."""
    return [len(t.split()) for t in texts]


# segment 0 returns: sentences 0-1, then 4 (after segment 1's 2-3)
MESSY = (
    "Alpha  one two.\tAlpha three\n four.\n\n\n  Beta five six seven.\r\n\r\nBeta  eight.  Alpha nine ten.\n"
    "\t\tGamma eleven twelve.   Gamma thirteen.\n\n"
)
LABELS = [0, 0, 1, 1, 0, 2, 2]


def _seg(text=MESSY, labels=LABELS):
    spans = sentence_spans(text)
    labels = np.asarray(labels)
    m = int(labels.max()) + 1
    beliefs = np.full((len(labels), m), 0.1 / max(m - 1, 1))
    beliefs[np.arange(len(labels)), labels] = 0.9
    segments = [np.flatnonzero(labels == j).tolist() for j in range(m)]
    return Segmentation([squash(text[a:b]) for a, b in spans], labels, segments, beliefs, text=text, spans=spans)


def _run_spans(seg, segment):
    """The (start, end) of each run of ``segment``, from the sentences' spans."""
    return [(seg.spans[r[0]][0], seg.spans[r[-1]][1]) for r in seg.runs if seg.labels[r[0]] == segment]


def _check_tree(text, parents, chunks):
    """Every invariant of a parents/chunks pair: exact spans covering exactly their children, links both ways."""
    assert sorted(i for p in parents for i in p.children) == list(range(len(chunks)))  # each chunk one parent
    for j, p in enumerate(parents):
        assert isinstance(p, ParentChunk)
        assert p.text == PIECE_SEPARATOR.join(text[a:b] for a, b in p.spans)
        assert (p.start, p.end) == (p.spans[0][0], p.spans[-1][1])
        assert list(p.spans) == sorted(p.spans) and all(b1 < a2 for (_, b1), (a2, _) in zip(p.spans, p.spans[1:]))
        kids = [chunks[i] for i in p.children]
        assert [c.start for c in kids] == sorted(c.start for c in kids)  # reading order
        assert all(c.parent == j and c.segment == p.segment for c in kids)
        pieces = sorted(span for c in kids for span in c.spans)
        for a, b in p.spans:  # each span runs from a child's start to a child's end, only whitespace between
            inside = [(s, e) for s, e in pieces if a <= s and e <= b]
            assert inside and inside[0][0] == a and inside[-1][1] == b
            assert all(not text[e:s].strip() for (_, e), (s, _) in zip(inside, inside[1:]))
        assert sum(1 for s, e in pieces if any(a <= s and e <= b for a, b in p.spans)) == len(pieces)
        assert p.sentences == tuple(sorted({i for c in kids for i in c.sentences}))


def test_a_returning_segment_is_one_parent_with_a_span_per_run():
    seg = _seg()
    parents, chunks = seg.parent_chunks(count_tokens=words)
    assert [p.segment for p in parents] == [0, 1, 2]
    first = parents[0]
    assert len(first.spans) == 2 and not first.contiguous
    assert list(first.spans) == _run_spans(seg, 0)
    assert [MESSY[a:b] for a, b in first.spans] == ["Alpha  one two.\tAlpha three\n four.", "Alpha nine ten."]
    assert first.text == "Alpha  one two.\tAlpha three\n four.\n\nAlpha nine ten."
    assert first.children == (0, 2) and first.sentences == (0, 1, 4)
    assert first.n_tokens == len(first.text.split())
    assert [c.parent for c in chunks] == [0, 1, 0, 2]
    assert parents[1].contiguous and parents[1].spans == ((chunks[1].start, chunks[1].end),)  # no return: one span
    _check_tree(MESSY, parents, chunks)


def test_the_children_are_the_chunks_unchanged_but_for_their_parent():
    seg = _seg()
    parents, chunks = seg.parent_chunks(count_tokens=words)
    plain = seg.chunks(count_tokens=words)
    assert all(c.parent is None for c in plain)
    assert [replace(c, parent=None) for c in chunks] == plain
    assert link_parents(plain, MESSY, count_tokens=words) == (parents, chunks)


def test_a_run_cut_for_size_stays_one_span_of_its_parent():
    seg = _seg()
    parents, chunks = seg.parent_chunks(4, count_tokens=words)
    assert len(chunks) > 4  # run 0 (six words) is cut in two
    assert list(parents[0].spans) == _run_spans(seg, 0)  # still one span per run
    assert len(parents[0].children) == 3
    _check_tree(MESSY, parents, chunks)


def test_whole_segment_chunks_have_the_same_parents():
    seg = _seg()
    runs_parents, _ = seg.parent_chunks(count_tokens=words)
    parents, chunks = seg.parent_chunks(contiguous=False, count_tokens=words)
    assert [p.spans for p in parents] == [p.spans for p in runs_parents]
    assert [p.children for p in parents] == [(0,), (1,), (2,)]
    _check_tree(MESSY, parents, chunks)


def test_confidence_keywords_and_heading_path_come_from_the_children():
    chunks = [
        Chunk("A b.", 0, 4, (0, 1), 0, 2, 0.9, ((0, 4),), run=0, keywords=("a",), heading_path=("H",)),
        Chunk("C.", 5, 7, (2,), 1, 1, 0.5, ((5, 7),), run=1),
        Chunk("D.", 8, 10, (3,), 0, 1, 0.6, ((8, 10),), run=2, keywords=("a",)),
    ]
    parents, linked = link_parents(chunks, "A b. C. D.", count_tokens=words)
    assert parents[0].confidence == pytest.approx((2 * 0.9 + 0.6) / 3)  # weighted by sentences
    assert parents[0].keywords == ("a",) and parents[0].heading_path == ("H",)
    assert parents[0].spans == ((0, 4), (8, 10)) and parents[1].spans == ((5, 7),)


def test_a_segment_without_chunks_gets_no_parent_and_the_indices_still_match():
    chunks = [
        Chunk("A.", 0, 2, (0,), 0, 1, 0.9, ((0, 2),)),
        Chunk("C.", 3, 5, (1,), 2, 1, 0.9, ((3, 5),)),
    ]
    parents, linked = link_parents(chunks, "A. C.", count_tokens=words)
    assert [p.segment for p in parents] == [0, 2]
    assert [c.parent for c in linked] == [0, 1]
    assert link_parents([], "", count_tokens=words) == ([], [])


def test_bad_arguments_are_clear_value_errors():
    seg = _seg()
    chunks = make_chunks(seg, count_tokens=words)
    with pytest.raises(ValueError, match="not a chunk of this text"):
        link_parents(chunks, MESSY.upper(), count_tokens=words)
    with pytest.raises(ValueError, match="do not lie in the text"):
        link_parents(chunks, "short", count_tokens=words)
    with pytest.raises(ValueError, match=r"chunks\[0\] must be a Chunk"):
        link_parents([{"text": "x"}], MESSY, count_tokens=words)
    with pytest.raises(ValueError, match="text must be a str"):
        link_parents(chunks, None, count_tokens=words)
    with pytest.raises(ValueError, match="chunks must be a list"):
        link_parents(iter(chunks), MESSY, count_tokens=words)
    with pytest.raises(ValueError, match="max_tokens must be a positive int"):
        seg.parent_chunks(-1, count_tokens=words)
    with pytest.raises(ValueError, match="context_sentences must be an int >= 0"):
        seg.parent_chunks(context_sentences=-1, count_tokens=words)
