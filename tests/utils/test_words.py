"""plural and numbered: counts and 1-based lists in the words of the text and HTML outputs."""

from bpseg_pgm.utils.words import numbered, plural


def test_plural():
    assert [plural(n, "topic") for n in (0, 1, 2)] == ["0 topics", "1 topic", "2 topics"]


def test_numbered_counts_from_1():
    assert numbered("segment", [1]) == "segment 2"
    assert numbered("segment", [0, 2]) == "segments 1 and 3"
    assert numbered("segment", [0, 3, 5]) == "segments 1, 4 and 6"


def test_ranges_name_consecutive_sentences_once():
    from bpseg_pgm.utils.words import ranges

    assert ranges([0, 1, 3, 6, 7, 8, 11]) == "1-2, 4, 7-9, 12"
    assert ranges([2]) == "3" and ranges([]) == "" and ranges([4, 3]) == "4-5"
    assert ranges(range(400)) == "1-400"
