"""The chunks-jsonl format: one JSON object per chunk, from the segmentation's own chunks; its options."""

import json

import numpy as np
import pytest
from small_segmentation import WordCounter

from bpseg_pgm.formats import get_format
from bpseg_pgm.text import Segmentation
from bpseg_pgm.text.split import sentence_spans, squash

CHUNKS = get_format("chunks-jsonl")


def _lines(out):
    assert out.endswith("\n")
    return [json.loads(line) for line in out.splitlines()]


def test_one_line_per_chunk_numbered_from_0(seg):
    rows = _lines(CHUNKS.render(seg, source="notes.txt"))
    assert rows == [{"chunk": i, **c.to_dict()} for i, c in enumerate(seg.chunks())]
    assert [r["segment"] for r in rows] == [0, 1, 0, 2]  # one chunk per run of consecutive sentences
    assert [r["chunk"] for r in rows] == [0, 1, 2, 3]


def test_the_options_are_those_of_segmentation_chunks(seg):
    names = ["max_tokens", "min_tokens", "soft_cap", "whole_segments", "parents", "context_sentences"]
    assert [o.name for o in CHUNKS.options] == names
    assert [o.default for o in CHUNKS.options] == [None, None, False, False, False, None]
    whole = _lines(CHUNKS.render(seg, whole_segments=True))
    assert [r["segment"] for r in whole] == [0, 1, 2]  # one chunk per segment
    assert whole == [{"chunk": i, **c.to_dict()} for i, c in enumerate(seg.chunks(None, False))]
    cut = _lines(CHUNKS.render(seg, max_tokens=9))
    assert cut == [{"chunk": i, **c.to_dict()} for i, c in enumerate(seg.chunks(9))] and len(cut) > 4
    merged = _lines(CHUNKS.render(seg, min_tokens=30))
    assert merged == [{"chunk": i, **c.to_dict()} for i, c in enumerate(seg.chunks(None, min_tokens=30))]
    soft = _lines(CHUNKS.render(seg, max_tokens=5, soft_cap=True))
    assert soft == [{"chunk": i, **c.to_dict()} for i, c in enumerate(seg.chunks(5, hard_cap=False))]
    hard = _lines(CHUNKS.render(seg, max_tokens=5))
    assert (
        max(r["n_tokens"] for r in soft) > 5 >= max(r["n_tokens"] for r in hard)
    )  # a sentence over the cap stays whole
    unmerged = _lines(CHUNKS.render(seg, max_tokens=40, min_tokens=0))
    assert unmerged == [{"chunk": i, **c.to_dict()} for i, c in enumerate(seg.chunks(40, min_tokens=0))]
    # the default floor (40 // 4 = 10 tokens) finds the last two one-sentence chunks small (8 and 6 tokens), but
    # each is a run of its own segment, with other segments beside it: nothing merges
    assert _lines(CHUNKS.render(seg, max_tokens=40)) == unmerged


#: One long sentence, cut by a cap of 17 tokens at its comma, leaves "end." (3 tokens) alone.
LONG = "w1 w2 w3 w4 w5 w6 w7 w8 w9 w10 w11 w12 w13 w14 w15, end. Twelve thirteen."


def _long_segmentation(labels):
    spans = sentence_spans(LONG)
    labels = np.asarray(labels)
    m = int(labels.max()) + 1
    beliefs = np.full((len(labels), m), 0.1)
    beliefs[np.arange(len(labels)), labels] = 0.9
    segments = [np.flatnonzero(labels == j).tolist() for j in range(m)]
    return Segmentation(
        [squash(LONG[a:b]) for a, b in spans],
        labels,
        segments,
        beliefs,
        text=LONG,
        spans=spans,
        params={"n_segments": m},
        embedder=WordCounter(),
    )


def test_a_small_piece_joins_its_neighbour_only_within_its_segment():
    one = _long_segmentation([0, 0])
    # packing the run into the fewest chunks that fit joins "end." to the next sentence, a piece of the same
    # segment, with the floor off and with the default floor (17 // 4 = 4)
    assert [r["text"] for r in _lines(CHUNKS.render(one, max_tokens=17, min_tokens=0))] == [
        "w1 w2 w3 w4 w5 w6 w7 w8 w9 w10 w11 w12 w13 w14 w15,",
        "end. Twelve thirteen.",
    ]
    merged = _lines(CHUNKS.render(one, max_tokens=17))
    assert [(r["text"], r["sentences"], r["segment"]) for r in merged] == [
        ("w1 w2 w3 w4 w5 w6 w7 w8 w9 w10 w11 w12 w13 w14 w15,", [0], 0),
        ("end. Twelve thirteen.", [0, 1], 0),
    ]
    assert all(r["n_tokens"] <= 17 for r in merged)
    # the next sentence in another segment: "end." stays a small chunk rather than join it
    two = _long_segmentation([0, 1])
    apart = _lines(CHUNKS.render(two, max_tokens=17))
    assert [(r["text"], r["segment"]) for r in apart] == [
        ("w1 w2 w3 w4 w5 w6 w7 w8 w9 w10 w11 w12 w13 w14 w15,", 0),
        ("end.", 0),
        ("Twelve thirteen.", 1),
    ]
    for seg, rows in ((one, merged), (two, apart)):
        for r in rows:  # every chunk's segment describes all its sentences
            assert {int(seg.labels[i]) for i in r["sentences"]} == {r["segment"]}


@pytest.mark.parametrize(
    "options, message",
    [
        (
            {"whole_segments": True, "min_tokens": 5},
            "min_tokens merges neighbouring chunks, which whole_segments does not make",
        ),
        ({"min_tokens": 50, "max_tokens": 10}, r"min_tokens \(50\) is larger than max_tokens \(10\)"),
    ],
)
def test_options_that_cannot_work_together_are_refused_before_rendering(seg, options, message):
    with pytest.raises(ValueError, match=message):
        CHUNKS.check_options(**options)
    with pytest.raises(ValueError, match=message):
        CHUNKS.render(seg, **options)


def test_an_option_it_does_not_take_is_refused():
    with pytest.raises(
        ValueError,
        match="the chunks-jsonl format takes max_tokens, min_tokens, soft_cap, whole_segments, parents, "
        "context_sentences, got indent",
    ):
        CHUNKS.check_options(indent=2)


def test_each_chunk_names_its_topic_contiguous_segment_and_keywords(seg):
    rows = _lines(CHUNKS.render(seg))
    assert "topic" not in rows[0] and [r["segment"] for r in rows] == [0, 1, 0, 2]
    # segment 0 returns: its two runs are contiguous segments 0 and 2
    assert [r["run"] for r in rows] == [0, 1, 2, 3]
    topic_words = seg.segment_keywords()
    assert [r["keywords"] for r in rows] == [topic_words[r["segment"]] for r in rows]
    assert any(r["keywords"] for r in rows)
