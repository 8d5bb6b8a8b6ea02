"""utils/labels.py: run boundaries and their inverse."""

import numpy as np

from bpseg_pgm.utils.labels import bounds_labels, run_bounds


def test_bounds_labels_by_hand():
    assert bounds_labels([0, 2, 3, 6]).tolist() == [0, 0, 1, 2, 2, 2]
    assert bounds_labels([0, 4]).tolist() == [0, 0, 0, 0]
    assert bounds_labels([0]).tolist() == []


def test_bounds_labels_inverts_run_bounds_up_to_renumbering():
    rng = np.random.default_rng(0)
    labels = rng.integers(0, 3, size=50)
    back = bounds_labels(run_bounds(labels))
    assert np.array_equal(run_bounds(back), run_bounds(labels))
    assert back[0] == 0 and np.all(np.diff(back) >= 0)
