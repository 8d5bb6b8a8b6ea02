"""The fallback of ``structure="auto"``: a topic model that scatters a document into pieces, or whose topics
are not clusters of sentences, gives way to runs."""

import numpy as np
import pytest

import bpseg_pgm.decisions.procedure as procedure
from bpseg_pgm.decisions.structure import (
    StructureChoice,
    keep_topics,
    topic_silhouette,
    topics_fragmented,
)
from bpseg_pgm.estimator import BPSeg
from bpseg_pgm.policy import DEFAULT_POLICY as P
from bpseg_pgm.runs.model import fit_runs
from bpseg_pgm.utils.validation import normalize_rows


def planted(sizes, d=8, noise=0.3, seed=0):
    rng = np.random.default_rng(seed)
    centers = rng.normal(size=(len(sizes), d))
    return np.vstack([c + noise * rng.normal(size=(s, d)) for c, s in zip(centers, sizes)])


def runs_found(X):
    fine = fit_runs(X, np.ones(len(X)), "auto")
    return StructureChoice(False, 1.0, fine, fine), int(fine.labels.max()) + 1


def test_topic_labels_with_more_runs_than_the_ratio_allows_are_fragmented():
    X = planted([20, 20, 20])
    found, k = runs_found(X)
    limit = int(np.floor(P.topic_runs_ratio * k))
    ok = np.repeat(np.arange(limit) % 2, int(np.ceil(60 / limit)))[:60]
    assert n_runs_of(ok) <= limit and not topics_fragmented(ok, found, P)
    scattered = np.arange(60) % 2  # 60 runs
    assert topics_fragmented(scattered, found, P)
    assert not topics_fragmented(scattered, StructureChoice(False, float("nan"), None), P)  # nothing to compare


def n_runs_of(labels):
    return int(1 + np.count_nonzero(np.diff(labels)))


def test_silhouette_is_high_for_clusters_and_near_zero_for_an_arbitrary_partition():
    X = normalize_rows(planted([30, 30, 30], d=16, noise=0.4, seed=1))
    w = np.ones(len(X))
    truth = np.repeat([0, 1, 2], 30)
    arbitrary = np.random.default_rng(0).integers(0, 3, size=90)
    good, bad = topic_silhouette(X, w, truth, policy=P), topic_silhouette(X, w, arbitrary, policy=P)
    assert good > 0.3 > P.topic_silhouette > abs(bad)
    assert np.isnan(topic_silhouette(X, w, np.zeros(90, dtype=int), policy=P))  # one label
    assert np.isnan(topic_silhouette(X, w, np.arange(90), policy=P))  # one label per unit


def test_silhouette_of_a_long_document_is_a_seeded_sample():
    X = normalize_rows(planted([300, 300], d=16, noise=0.6, seed=2))
    w = np.ones(len(X))
    truth = np.repeat([0, 1], 300)
    full = topic_silhouette(X, w, truth, policy=P)
    a = topic_silhouette(X, w, truth, random_state=3, policy=P.replace(silhouette_max_units=200))
    assert a == topic_silhouette(
        X, w, truth, random_state=3, policy=P.replace(silhouette_max_units=200)
    )  # same seed, same value
    assert a != topic_silhouette(X, w, truth, random_state=4, policy=P.replace(silhouette_max_units=200))
    assert a == pytest.approx(full, abs=0.05)


def test_keep_topics_keeps_clusters_and_drops_partitions_and_fragments():
    X = normalize_rows(planted([20, 20, 20], d=16, noise=0.4, seed=3))
    w = np.ones(60)
    found, _ = runs_found(X)
    keep, sil = keep_topics(X, w, np.repeat([0, 1, 2], 20), found, policy=P)
    assert keep and sil > P.topic_silhouette
    # the same three labels as contiguous blocks that ignore the clusters: not clusters, so the runs are used
    shifted = np.roll(np.repeat([0, 1, 2], 20), 10)
    keep, sil = keep_topics(X, w, shifted, found, policy=P)
    assert not keep and sil < P.topic_silhouette
    keep, sil = keep_topics(X, w, np.arange(60) % 2, found, policy=P)  # 60 runs: fragmented, not scored
    assert not keep and np.isnan(sil)
    assert keep_topics(X, w, np.arange(60) % 2, StructureChoice(False, float("nan"), None), policy=P) == (
        True,
        pytest.approx(np.nan, nan_ok=True),
    )


@pytest.mark.parametrize("min_silhouette, structure", [(-1.0, "topics"), (1.0, "run-topics")])
def test_the_estimator_keeps_the_topic_model_only_when_keep_topics_says_so(monkeypatch, min_silhouette, structure):
    X = planted([8, 8, 8, 8, 8], d=16, noise=0.3, seed=4)
    seen = []

    def keep(*args, policy, **kwargs):
        out = keep_topics(*args, **kwargs, policy=policy.replace(topic_silhouette=min_silhouette))
        seen.append(out)
        return out

    monkeypatch.setattr(procedure, "keep_topics", keep)
    model = BPSeg(random_state=0).fit(X)
    assert len(seen) == 1 and model.structure_ == structure
    assert model.topic_silhouette_ == pytest.approx(seen[0][1], nan_ok=True)
    assert np.isfinite(model.topic_silhouette_)
    # a refit that never weighs the topic model leaves no stale silhouette
    assert np.isnan(model.set_params(structure="runs").fit(X).topic_silhouette_)


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
