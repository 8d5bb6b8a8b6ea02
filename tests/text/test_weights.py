"""unit_weights: 1 - exp(-words / tau), so backchannels count less than sentences."""

from __future__ import annotations

import math

import numpy as np
import pytest

from bpseg_pgm.features.weights import unit_weights
from bpseg_pgm.policy import DEFAULT_POLICY


def test_values_by_hand():
    units = ["Yeah .", "Okay", "The cat sat on the mat today .", " ".join(["word"] * 20)]
    w = unit_weights(units, DEFAULT_POLICY.word_scale)
    assert w.dtype == np.float64 and w.shape == (4,)
    words = [2, 1, 8, 20]
    np.testing.assert_allclose(w, [1 - math.exp(-k / DEFAULT_POLICY.word_scale) for k in words], rtol=1e-15)
    assert DEFAULT_POLICY.word_scale == 5.0
    assert w[1] == pytest.approx(0.181, abs=1e-3)  # one word: about 0.2
    assert w[3] == pytest.approx(0.98, abs=1e-2)  # twenty words: about 1


def test_words_are_whitespace_separated():
    w = unit_weights(["a b", "a\tb", "a\n b", "  a   b  ", "ab"], DEFAULT_POLICY.word_scale)
    assert w[0] == w[1] == w[2] == w[3] > w[4]


def test_more_words_weigh_more_and_at_most_one():
    w = unit_weights([" ".join(["x"] * k) for k in range(1, 60)], DEFAULT_POLICY.word_scale)
    assert np.all(np.diff(w) >= 0) and np.all(np.diff(w)[:30] > 0)
    assert np.all(w > 0) and np.all(w <= 1.0)


def test_empty_units_keep_a_small_positive_weight():
    w = unit_weights(["", "   ", "word"], DEFAULT_POLICY.word_scale)
    np.testing.assert_array_equal(w[:2], [1e-3, 1e-3])
    assert w[2] > 1e-3
    assert unit_weights([], DEFAULT_POLICY.word_scale).shape == (0,)


def test_tau():
    units = ["one two three"]
    assert unit_weights(units, tau=1.0)[0] == pytest.approx(1 - math.exp(-3.0))
    assert (
        unit_weights(units, tau=100.0)[0]
        < unit_weights(units, DEFAULT_POLICY.word_scale)[0]
        < unit_weights(units, tau=1.0)[0]
    )
    for bad in (0, -1.0, float("nan")):
        with pytest.raises(ValueError, match="tau"):
            unit_weights(units, tau=bad)


def test_weights_are_valid_sample_weights():
    from bpseg_pgm.utils.validation import check_sample_weight

    units = ["", "Yeah .", "A longer sentence about the budget ."]
    np.testing.assert_array_equal(
        check_sample_weight(unit_weights(units, DEFAULT_POLICY.word_scale), 3),
        unit_weights(units, DEFAULT_POLICY.word_scale),
    )
