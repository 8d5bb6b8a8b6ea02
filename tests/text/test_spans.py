"""Sentence spans: every sentence is found in the original text, whitespace and all; CJK and Devanagari ends."""

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from bpseg_pgm.text.split import sentence_spans, split_lines, split_sentences, squash

MESSY = "  The sun  was shining.\tIt was\n a beautiful  morning.\r\n\r\n\n\tI'll play tennis.  Mr. Smith\twon!\n\n"


@pytest.mark.parametrize("lines", [False, True])
def test_spans_point_at_the_sentences_as_written(lines):
    spans = sentence_spans(MESSY, lines=lines)
    sentences = split_lines(MESSY) if lines else split_sentences(MESSY)
    assert [squash(MESSY[a:b]) for a, b in spans] == sentences
    for a, b in spans:
        assert MESSY[a:b] == MESSY[a:b].strip() and MESSY[a:b]
    assert all(b1 <= a2 for (_, b1), (a2, _) in zip(spans, spans[1:]))


def test_spans_of_the_messy_example():
    spans = sentence_spans(MESSY)
    assert [MESSY[a:b] for a, b in spans] == [
        "The sun  was shining.",
        "It was\n a beautiful  morning.",
        "I'll play tennis.",
        "Mr. Smith\twon!",
    ]
    assert [MESSY[a:b] for a, b in sentence_spans(MESSY, lines=True)] == [
        "The sun  was shining.\tIt was",
        "a beautiful  morning.",
        "I'll play tennis.  Mr. Smith\twon!",
    ]


@pytest.mark.parametrize(
    "text, expected",
    [
        ("今天天气很好。我们去公园吧！你想去吗？好的。", ["今天天气很好。", "我们去公园吧！", "你想去吗？", "好的。"]),
        ("他说：“我们走吧。”然后走了。", ["他说：“我们走吧。”", "然后走了。"]),
        ("今日は晴れです。散歩に行きましょう｡", ["今日は晴れです。", "散歩に行きましょう｡"]),
        ("यह एक वाक्य है। यह दूसरा है॥ And English.", ["यह एक वाक्य है।", "यह दूसरा है॥", "And English."]),
        ("Mixed text。 Then more！ End?", ["Mixed text。", "Then more！", "End?"]),
        ("Ends with a mark。", ["Ends with a mark。"]),
    ],
)
def test_cjk_and_devanagari_sentence_ends(text, expected):
    assert split_sentences(text) == expected
    assert [text[a:b] for a, b in sentence_spans(text)] == expected


@pytest.mark.parametrize("bad", [None, b"bytes.", 3])
def test_spans_of_non_str_is_a_value_error(bad):
    with pytest.raises(ValueError, match="must be a str"):
        sentence_spans(bad)


_PIECES = st.sampled_from(
    list("abc XYZ.!?\n\t\r,'\"()-1é。！？।") + ["Mr. ", "walk. ", "U.S. ", "\n\n", "  ", "\r\n", "...", "p.m.", "今天"]
)


@settings(max_examples=300, deadline=None)
@given(st.lists(_PIECES, max_size=60).map("".join), st.booleans())
def test_spans_are_ordered_trimmed_and_lose_nothing(text, lines):
    spans = sentence_spans(text, lines=lines)
    assert all(0 <= a < b <= len(text) for a, b in spans)
    assert all(b1 <= a2 for (_, b1), (a2, _) in zip(spans, spans[1:]))
    assert all(not text[a].isspace() and not text[b - 1].isspace() for a, b in spans)
    # between and around the spans there is only whitespace
    bounds = [0, *[x for span in spans for x in span], len(text)]
    assert all(not text[bounds[i] : bounds[i + 1]].strip() for i in range(0, len(bounds), 2))
