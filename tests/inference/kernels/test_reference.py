"""Issue 12, fault 2: the reference solver raises on overflow instead of returning NaN beliefs."""

import math

import numpy as np
import pytest

from bpseg_pgm import BPSeg
from bpseg_pgm.inference.kernels.reference import reference_bp


def test_bpseg_reference_with_huge_lam_raises_where_loopy_scales_its_factors():
    X = np.random.default_rng(0).standard_normal((8, 5))
    # the pgmpy network stores factors past exp's range scaled (graph.build.EXP_SAFE): loopy fits, beliefs finite
    beliefs = BPSeg(n_segments=3, lam=1e4, engine="loopy").fit(X).beliefs_
    assert np.all(np.isfinite(beliefs)) and np.allclose(beliefs.sum(axis=1), 1.0)
    with pytest.raises(ValueError, match="reference solver.*overflowed"):
        BPSeg(n_segments=3, lam=1e4, engine="reference").fit(X)


@pytest.mark.parametrize("bad", [math.inf, math.nan, -1.0])
def test_bad_unary_potential_is_named(bad):
    unary = [[1.0, 2.0], [bad, 1.0], [1.0, 1.0]]
    with pytest.raises(ValueError, match=r"unary potential psi_1\(0\)"):
        reference_bp(unary, lambda i, j, a, b: 1.0)


@pytest.mark.parametrize("bad", [math.inf, math.nan])
def test_infinite_or_nan_pairwise_potential_raises(bad):
    unary = [[1.0, 2.0], [2.0, 1.0], [1.0, 1.0]]
    with pytest.raises(ValueError, match="overflowed"):
        reference_bp(unary, lambda i, j, a, b: 1.0 if a == b else bad)


def test_large_but_finite_potentials_still_give_finite_beliefs():
    unary = [[1e300, 1.0], [1.0, 1e300], [1.0, 1.0]]
    beliefs, labels, _, _ = reference_bp(unary, lambda i, j, a, b: 1.0 if a == b else 1e-300)
    assert all(math.isfinite(v) for row in beliefs for v in row)
    assert labels[:2] == [0, 1]
