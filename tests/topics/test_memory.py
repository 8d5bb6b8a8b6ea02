"""Issue 12, fault 5: a fit that cannot fit in memory is refused before any large allocation.

``bpseg_pgm.topics.memory.check_fit_memory`` estimates edges, couplings, messages and similarity
matrices from n, d, k and the edge count; ``BPSeg.fit`` calls it first thing.
"""

import numpy as np
import pytest

from bpseg_pgm.estimator import BPSeg
from bpseg_pgm.policy import DEFAULT_POLICY as P
from bpseg_pgm.topics import memory as _memory
from bpseg_pgm.topics.memory import check_fit_memory, estimate_fit_memory, planned_edges, planned_labels

GiB = 2**30


def test_planned_labels_follow_the_estimator():
    assert planned_labels(4000, "auto", "all", policy=P) == 4000
    assert planned_labels(100, "auto", "farthest", policy=P) == 20  # ceil(2 sqrt(100))
    assert planned_labels(10_000, "auto", "farthest", policy=P) == 40
    assert planned_labels(10, 3, "random", policy=P) == 3
    assert planned_labels(10, 5, [0, 1], policy=P) == 2


def test_planned_edges():
    assert planned_edges(20_000, "all", policy=P) == 20_000 * 19_999 // 2
    assert planned_edges(300, "auto", policy=P) == 300 * 299 // 2
    m = planned_edges(5000, "auto", sigma=200.0, policy=P)
    assert 5000 * 70 < m < 5000 * 90  # window of 75 plus 10 neighbours
    assert planned_edges(10, [(0, 1), (1, 2)], policy=P) == 2
    assert planned_edges(10, lambda X: [(0, 1)], policy=P) is None


def test_the_audits_two_cases_are_refused_with_the_gib_needed_and_what_to_do():
    with pytest.raises(
        ValueError,
        match=r"20,000 sentences .* needs about \d+\.\d GiB \(.*messages.*\) but only "
        r"16\.0 GiB .*neighbors='auto'",
    ):
        check_fit_memory(20_000, 384, neighbors="all", sigma=200.0, available=16 * GiB)
    with pytest.raises(
        ValueError,
        match=r"4,000 labels .*messages \d+\.\d.* fewer labels \(n_segments=\.\.\., not "
        r"init='all'\)",
    ):
        check_fit_memory(4000, 384, init="all", sigma=200.0, available=16 * GiB)


def test_ordinary_fits_pass():
    assert check_fit_memory(5000, 384, sigma=200.0, available=4 * GiB).total < 1 * GiB
    assert check_fit_memory(100, 384, engine="loopy", available=4 * GiB).total < 1 * GiB
    assert check_fit_memory(300, 384, engine="loopy", available=4 * GiB).total > 1.5 * GiB  # k = 35 tables
    assert check_fit_memory(1000, 384, neighbors=lambda X: [], available=4 * GiB).total < 1 * GiB  # edges unknown


def test_unknown_available_memory_never_refuses(monkeypatch):
    monkeypatch.setattr(_memory, "available_bytes", lambda: None)
    assert check_fit_memory(20_000, 384, neighbors="all").total > 100 * GiB


def test_estimate_is_close_to_the_measured_peak():
    """Peaks measured on this machine: ru_maxrss of a fresh process fitting random 384-d rows (max_iter=3,
    em_rounds=0), minus its baseline after a warm-up fit."""
    measured = {  # (n, k, engine, neighbors) -> MiB above the baseline
        (3000, 40, "potts", "all"): 3105,
        (5000, 300, "potts", "auto"): 2090,
        (1000, 10, "loopy", "auto"): 369,
        (300, 35, "loopy", "auto"): 1753,
    }
    for (n, k, engine, neighbors), mib in measured.items():
        est = estimate_fit_memory(n, 384, k, planned_edges(n, neighbors, 200.0, policy=P), engine).total / 2**20
        assert mib <= est < 1.5 * mib, (n, k, engine, est, mib)


@pytest.fixture
def no_memory(monkeypatch):
    """Pretend 1 MiB is free, and fail if the fit builds its edge list before checking."""
    from bpseg_pgm.topics import fit

    monkeypatch.setattr(_memory, "available_bytes", lambda: 2**20)

    def too_late(*a, **kw):
        raise AssertionError("edges were built before the memory check")

    monkeypatch.setattr(fit, "resolve_edges", too_late)
    monkeypatch.setattr(fit, "auto_pairs", too_late)


@pytest.mark.parametrize("params", [dict(neighbors="all"), dict(init="all")])
def test_bpseg_refuses_before_building_anything(no_memory, params):
    X = np.random.default_rng(0).standard_normal((600, 16))
    with pytest.raises(ValueError, match=r"needs about .* GiB .* available"):
        BPSeg(**params).fit(X)


def test_each_engine_estimates_its_own_messages():
    from bpseg_pgm.inference import Engine

    class Hungry(Engine):
        name = "hungry"

        @classmethod
        def memory(cls, n, k, m, dense, couplings):
            return 64 * GiB, couplings

    base = estimate_fit_memory(200, 384, 5, 1000, Engine)
    assert base["messages"] == 2 * 1000 * 5 * 8  # the base class: two messages of k floats per edge
    assert estimate_fit_memory(200, 384, 5, 1000, "no-such-engine") == base
    assert estimate_fit_memory(200, 384, 5, 1000, Hungry())["messages"] == 64 * GiB
    with pytest.raises(ValueError, match=r"engine 'hungry'\) needs about 64"):
        check_fit_memory(200, 384, engine=Hungry(), available=8 * GiB)
    assert estimate_fit_memory(200, 384, 5, 1000, "fast") == estimate_fit_memory(200, 384, 5, 1000, "appendix")
