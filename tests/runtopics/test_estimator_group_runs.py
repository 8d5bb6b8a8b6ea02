"""``BPSeg(group_runs=...)``: the runs grouped into topics over runs, when and only when asked for or implied."""

import numpy as np
from planted import returning_runs as returning

from bpseg_pgm.estimator import BPSeg


def test_runs_asked_for_with_grouping_give_the_returning_topic_its_label():
    X, _, gold = returning(order=(0, 1, 0, 2))
    est = BPSeg(structure="runs", n_segments=4, group_runs=True, random_state=0).fit(X)
    assert est.structure_ == "run-topics" and est.n_segments_ == 3
    np.testing.assert_array_equal(est.labels_, gold)
    np.testing.assert_array_equal(est.run_topics_.run_topics, [0, 1, 0, 2])
    assert est.runs_.labels.max() == 3  # the contiguous runs stay available
    np.testing.assert_allclose(est.beliefs_.sum(axis=1), 1.0)


def test_auto_groups_only_when_the_number_of_segments_is_left_to_the_model():
    X, _, _ = returning(order=(0, 1, 0, 2))
    assert BPSeg(structure="runs", n_segments=4, random_state=0).fit(X).run_topics_ is None  # runs asked for
    given = BPSeg(n_segments=4, random_state=0).fit(X)
    assert given.run_topics_ is None  # a number of segments asked for: runs stay runs
    off = BPSeg(group_runs=False, random_state=0).fit(X)
    assert off.structure_ in ("runs", "topics") and off.run_topics_ is None


def test_same_seed_same_topics():
    X, _, _ = returning(order=(0, 1, 0, 2, 1), seed=3)
    a = BPSeg(structure="runs", n_segments=5, group_runs=True, random_state=7).fit(X)
    b = BPSeg(structure="runs", n_segments=5, group_runs=True, random_state=7).fit(X)
    np.testing.assert_array_equal(a.labels_, b.labels_)
    np.testing.assert_array_equal(a.beliefs_, b.beliefs_)


def test_an_engine_with_potentials_of_its_own_groups_with_the_default_one_made_once(monkeypatch):
    import bpseg_pgm.decisions.grouping as grouping

    made = []
    real = grouping.make_engine

    def counting(name, *a, **k):
        engine = real(name, *a, **k)
        made.append(engine)
        return engine

    monkeypatch.setattr(grouping, "make_engine", counting)
    X, _, gold = returning(order=(0, 1, 0, 2))
    est = BPSeg(structure="runs", n_segments=4, group_runs=True, engine="appendix", random_state=0).fit(X)
    assert est.structure_ == "run-topics" and est.engine_.name == "potts"
    np.testing.assert_array_equal(est.labels_, gold)
    potts = [e for e in made if e.name == "potts"]
    assert potts == [est.engine_]  # the engine that grouped the runs, made once, is the one kept
