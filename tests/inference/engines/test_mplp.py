"""mplp: pgmpy's Mplp as an engine finds the brute-force MAP."""

from __future__ import annotations

import numpy as np
import pytest
from brute_force import chain, complete, map_labels, potts_tables
from paper_model import bpseg, rand_X

from bpseg_pgm.inference import MplpEngine, Problem


@pytest.mark.parametrize("seed", range(3))
def test_map_against_brute_force(seed):
    rng = np.random.default_rng(seed)
    n, k = 6, 3
    for E in (chain(n), complete(n)):
        lu = rng.normal(size=(n, k))
        lw = -rng.random(len(E))
        res = MplpEngine().infer(Problem(lu, E, log_coupling=lw))
        best, top2 = map_labels(lu, E, potts_tables(lw, k))
        assert top2[1] - top2[0] > 1e-6  # a unique MAP
        np.testing.assert_array_equal(res.beliefs.argmax(axis=1), best)
        assert set(np.unique(res.beliefs)) <= {0.0, 1.0}
        if len(E) > n - 1:  # on the complete graph pgmpy's gap certifies the MAP (with leaves it means nothing)
            assert res.extra["integrality_gap"] < 1e-3


def test_in_the_estimator():
    m = bpseg(engine="mplp", n_segments=3, random_state=0).fit(rand_X(8, 5, 0))
    assert m.beliefs_.shape == (8, 3) and np.allclose(m.beliefs_.sum(axis=1), 1.0)
