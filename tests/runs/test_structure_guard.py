"""The fallback of ``structure="auto"``: a topic model that scatters a document into pieces gives way to runs."""

import numpy as np

from bpseg_pgm.estimator import BPSeg
from bpseg_pgm.runs.model import fit_runs
from bpseg_pgm.runs.structure import TOPIC_RUNS_SLACK, Structure, topics_fragmented


def planted(sizes, d=8, noise=0.3, seed=0):
    rng = np.random.default_rng(seed)
    centers = rng.normal(size=(len(sizes), d))
    return np.vstack([c + noise * rng.normal(size=(s, d)) for c, s in zip(centers, sizes)])


def test_topic_labels_with_more_runs_than_the_runs_fit_allows_are_fragmented():
    X = planted([20, 20, 20])
    fine = fit_runs(X, np.ones(60), "auto")
    k = int(fine.labels.max()) + 1
    found = Structure(False, 1.0, fine, fine)
    limit = k + TOPIC_RUNS_SLACK
    ok = np.repeat(np.arange(limit) % 2, int(np.ceil(60 / limit)))[:60]  # exactly `limit` runs
    assert not topics_fragmented(ok, found)
    scattered = np.arange(60) % 2  # 60 runs
    assert topics_fragmented(scattered, found)
    assert not topics_fragmented(scattered, Structure(False, float("nan"), None))  # nothing to compare


def test_fitted_runs_are_kept_on_both_paths_and_recut():
    X = planted([25, 25, 25, 25], seed=2)
    runs = BPSeg(structure="runs", random_state=0).fit(X)
    assert runs.runs_ is not None and runs.runs_.levels.max_runs >= runs.n_segments_
    np.testing.assert_array_equal(runs.runs_.labels, runs.labels_)
    two = runs.runs_.at(2)
    assert two.labels.max() == 1 and np.all(np.diff(two.labels) >= 0)
    topics = BPSeg(structure="topics", random_state=0).fit(X)
    assert topics.runs_ is None
    auto = BPSeg(random_state=0).fit(X)
    assert auto.runs_ is not None  # the structure decision's runs, whichever model labelled
