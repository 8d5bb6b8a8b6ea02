"""Issue 12, fault 9: wrong parameter types are ValueErrors, never TypeErrors; complex X is refused.

The checks live in ``bpseg_pgm.utils.validation``; ``tol`` and ``damping`` are checked by the parameter table
(``bpseg_pgm.params``).
"""

import warnings

import numpy as np
import pytest

from bpseg_pgm import BPSeg
from bpseg_pgm.utils.validation import check_embeddings, check_random_state, check_unicode

X = np.random.default_rng(0).standard_normal((8, 5))


@pytest.mark.parametrize("rs", ["x", -1, 1.5, True, [1, -2], [], object(), np.random.RandomState(0)])
def test_check_random_state_refuses(rs):
    with pytest.raises(ValueError, match="random_state must be"):
        check_random_state(rs)


@pytest.mark.parametrize("rs", [None, 0, 7, np.int64(3), [1, 2], np.random.default_rng(1), np.random.SeedSequence(2)])
def test_check_random_state_accepts_what_default_rng_takes(rs):
    assert check_random_state(rs) is rs
    np.random.default_rng(rs)


@pytest.mark.parametrize("Z", [X + 1j, X.astype(np.complex64), [[1 + 0j, 2], [3, 4]]])
def test_complex_embeddings_are_refused_without_a_complex_warning(Z):
    with warnings.catch_warnings():
        warnings.simplefilter("error")  # no ComplexWarning on the way
        with pytest.raises(ValueError, match="must be real numbers, got complex"):
            check_embeddings(Z)
        with pytest.raises(ValueError, match="complex"):
            BPSeg(n_segments=2).fit(Z)


@pytest.mark.parametrize(
    "Z, match",
    [
        (np.array([["1", "2"], ["3", "4"]]), "numeric"),
        ([[1, 2], [3]], "numeric"),
        (None, "2-D"),
        ([[object(), 1]], "numeric"),
    ],
)
def test_non_numeric_embeddings_are_value_errors(Z, match):
    with pytest.raises(ValueError, match=match):
        check_embeddings(Z)


def test_check_unicode():
    assert check_unicode("fine ünïcödé") == "fine ünïcödé"
    with pytest.raises(ValueError, match=r"title contains a lone surrogate '\\ud800' at position 2"):
        check_unicode("ab\ud800", "title")


@pytest.mark.parametrize(
    "params, match",
    [
        (dict(tol=None), "tol must be"),
        (dict(damping=None), "damping must be"),
        (dict(init="random", random_state="x", n_segments=2), "random_state must be"),
        (dict(init="random", random_state=1.5, n_segments=2), "random_state must be"),
    ],
)
def test_bpseg_parameter_types_are_value_errors(params, match):
    with pytest.raises(ValueError, match=match):
        BPSeg(**params).fit(X)


@pytest.mark.parametrize("bad", [0, -1, True, 2.0, "3"])
def test_check_limit_refuses_what_is_not_a_positive_int(bad):
    from bpseg_pgm.utils.validation import check_limit

    with pytest.raises(ValueError, match="limit must be a positive integer"):
        check_limit(bad)
    check_limit(None)
    check_limit(5)
