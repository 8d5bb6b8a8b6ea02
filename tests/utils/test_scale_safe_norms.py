"""Issue 36, fault 7: cosine does not depend on scale. Embeddings scaled by 1e155 (row norms overflow) or
1e-300 (they underflow) give the labels of the unscaled ones, and ordinary rows are normalised bit for bit as
``X / np.linalg.norm(X, axis=1)``."""

import numpy as np
import pytest
from planted import planted_blocks

from bpseg_pgm import BPSeg
from bpseg_pgm.utils.validation import check_embeddings, normalize_nonzero_rows, normalize_rows


def _raw(seed=0, n=40, d=16):
    return np.random.default_rng(seed).normal(size=(n, d))


@pytest.mark.parametrize("scale", [1e155, 1e200, 1e300, 1e-155, 1e-300, 1e-320])  # 1e-320: subnormal, few digits
def test_rows_of_any_finite_scale_are_normalised(scale):
    X = _raw()
    Xn = normalize_rows(X * scale)
    assert np.all(np.isfinite(Xn))
    np.testing.assert_allclose(np.linalg.norm(Xn, axis=1), 1.0, rtol=1e-12)
    np.testing.assert_allclose(Xn, normalize_rows(X), atol=1e-12 if scale > 1e-310 else 1e-3)
    np.testing.assert_allclose(normalize_nonzero_rows(X * scale), Xn, rtol=0, atol=0)


def test_power_of_two_scales_give_the_same_bits():
    X = _raw(1)
    for k in (520, 900, -520, -900):
        assert np.array_equal(normalize_rows(np.ldexp(X, k)), X / np.linalg.norm(X, axis=1, keepdims=True))


@pytest.mark.parametrize("dtype", [np.float64, np.float32])
def test_ordinary_rows_are_bit_identical_to_the_plain_division(dtype):
    X = (
        _raw(2).astype(dtype) * np.geomspace(1e-100, 1e100, 40, dtype=np.float64)[:, None].astype(dtype)
        if dtype is np.float64
        else _raw(2).astype(dtype)
    )
    plain = X / np.linalg.norm(X, axis=1, keepdims=True)
    assert np.array_equal(normalize_rows(X), plain)
    assert normalize_rows(X).dtype == plain.dtype
    Z = np.vstack([X, np.zeros((1, X.shape[1]), dtype=dtype)])
    assert np.array_equal(normalize_nonzero_rows(Z)[:-1], plain) and not normalize_nonzero_rows(Z)[-1].any()


def test_a_mixed_matrix_touches_only_its_extreme_rows():
    X = _raw(3)
    Y = X.copy()
    Y[5] *= 1e200
    Y[7] *= 1e-300
    out = normalize_rows(Y)
    plain = X / np.linalg.norm(X, axis=1, keepdims=True)
    keep = np.setdiff1d(np.arange(len(X)), [5, 7])
    assert np.array_equal(out[keep], plain[keep])
    np.testing.assert_allclose(out[[5, 7]], plain[[5, 7]], atol=1e-12)
    assert np.array_equal(Y[5], X[5] * 1e200)  # the input is not changed


def test_tiny_rows_are_not_zero_vectors_but_zeros_are():
    X = _raw() * 1e-300
    assert np.array_equal(check_embeddings(X), X)
    X[3] = 0.0
    with pytest.raises(ValueError, match="row 3 is a zero vector"):
        check_embeddings(X)


@pytest.mark.parametrize("params", [{}, {"structure": "topics"}, {"structure": "runs", "n_segments": 3}])
@pytest.mark.parametrize("scale", [1e155, 1e-300])
def test_labels_do_not_depend_on_the_scale(params, scale):
    X, _ = planted_blocks([12, 10, 14], dim=16, noise=0.2, seed=4, order=[0, 1, 0])
    expected = BPSeg(**params).fit(X).labels_
    np.testing.assert_array_equal(BPSeg(**params).fit(X * scale).labels_, expected)
