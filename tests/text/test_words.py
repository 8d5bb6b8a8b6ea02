"""Each unit's words, counted for the runs model's lexical evidence: stems, no stop words, no markers, fillers kept."""

import numpy as np
import scipy.sparse as sp

from bpseg_pgm.features.words import unit_word_counts, word_stems


def test_inflections_share_a_stem():
    stems = word_stems("segment segments segmented Segmenting")
    assert len(stems) == 4 and len(set(stems)) == 1
    assert word_stems("cats") == word_stems("cat")
    assert word_stems("cat") != word_stems("dog")


def test_stop_words_and_markers_are_dropped_and_order_is_kept():
    assert word_stems("The cat and the dog are on it.") == word_stems("cat dog")
    assert word_stems("{vocalsound} cat {disfmarker} dog {VocalSound}") == word_stems("cat dog")
    # a marker's name outside braces is a word like any other
    assert word_stems("vocalsound") == ["vocalsound"]
    assert word_stems("dog cat") == word_stems("dog") + word_stems("cat")


def test_fillers_of_speech_are_kept():
    stems = word_stems("Um, yeah. Okay, um.")
    assert stems.count("um") == 2 and "yeah" in stems and "okay" in stems


def test_unit_word_counts_has_one_row_per_unit():
    units = ["Segments and segmented cats.", "", "the of and", "Um yeah, a segment.", "Dogs!"]
    C = unit_word_counts(units)
    assert sp.issparse(C) and C.shape[0] == len(units)
    vocab = sorted({s for u in units for s in word_stems(u)})
    assert C.shape == (len(units), len(vocab))  # segment, cat, um, yeah, dog
    dense = C.toarray()
    assert dense[1].sum() == 0 and dense[2].sum() == 0  # no words: an all-zero row
    assert dense.sum(axis=1).tolist() == [len(word_stems(u)) for u in units]
    # "segments" and "segmented" are one term, counted twice
    assert dense[0].max() == 2


def test_units_with_only_stop_words_give_no_columns():
    C = unit_word_counts(["the and", "of it", "{vocalsound}"])
    assert sp.issparse(C) and C.shape == (3, 0)
    assert unit_word_counts([]).shape == (0, 0)
    np.testing.assert_array_equal(unit_word_counts(["x"]).toarray(), np.zeros((1, 0)))


def test_a_word_starts_with_a_letter_at_a_word_boundary():
    assert word_stems("the 2nd and 4th 9lives") == []
    assert word_stems("x86_64 abc2") == ["x86_64", "abc2"]
