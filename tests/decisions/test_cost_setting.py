"""The runs model's cost through the decision layer (issue 35 item 2): ``Settings.cost`` (default "embeddings")
reaches every runs fit ``decide`` and ``choose_structure`` make."""

from __future__ import annotations

import dataclasses

import numpy as np
import pytest
from planted import gradual_document

from bpseg_pgm.decisions import DEFAULT_POLICY, Settings, choose_structure, decide
from bpseg_pgm.features.units import Units
from bpseg_pgm.inference.engines import make_engine
from bpseg_pgm.runs.cost_registry import RunCost
from bpseg_pgm.runs.costs import EmbeddingsCost, cost_matrix


class FirstAxisScatter(RunCost):
    """A user's cost: the embeddings' scatter on the first feature alone."""

    name = "test-decisions-first-axis"

    def matrix(self, positions=None):
        return cost_matrix(self.features[:, :1], self.weights, positions)


def two_shifts(n=60, d=12, seed=0):
    """Feature 0 changes sign at unit 20; a far larger change of the other features at unit 40."""
    rng = np.random.default_rng(seed)
    X = 0.3 * rng.normal(size=(n, d))
    X[:20, 0] += 1.0
    X[20:, 0] -= 1.0
    X[:40, 1:6] += 3.0
    X[40:, 6:11] += 3.0
    return X / np.linalg.norm(X, axis=1, keepdims=True)


def settings(**changes) -> Settings:
    base = dict(
        structure="runs",
        n_segments=2,
        group_runs=False,
        engine=make_engine("potts", 0.0),
        potentials=None,
        lam=None,
        sigma=None,
        max_iter=100,
        tol=1e-6,
        em_rounds=0,
        context=0.0,
        default_context=0.0,
        merge_above=None,
        init="farthest",
        neighbors="auto",
        random_state=None,
        seed=0,
    )
    base.update(changes)
    return Settings(**base)


def second_start(labels) -> int:
    return int(np.flatnonzero(np.diff(labels))[0]) + 1


def test_settings_cost_defaults_to_the_embeddings():
    (field,) = [f for f in dataclasses.fields(Settings) if f.name == "cost"]
    assert field.default == "embeddings"
    assert settings().cost == "embeddings"


def test_decide_cuts_runs_by_the_settings_cost():
    X = two_shifts()
    f = Units(X, np.ones(len(X)))
    default = decide(f, settings(), DEFAULT_POLICY)
    assert abs(second_start(default.runs.labels) - 40) <= 2
    for cost in ("embeddings", EmbeddingsCost()):
        same = decide(f, settings(cost=cost), DEFAULT_POLICY)
        np.testing.assert_array_equal(same.runs.labels, default.runs.labels)
        np.testing.assert_array_equal(same.runs.levels.costs, default.runs.levels.costs)
    mine = FirstAxisScatter()
    out = decide(f, settings(cost=mine), DEFAULT_POLICY)
    assert out.structure == "runs" and out.runs.cost is mine
    assert abs(second_start(out.runs.labels) - 20) <= 2


def test_decide_refuses_the_words_and_unknown_costs():
    X = two_shifts()
    f = Units(X, np.ones(len(X)))
    with pytest.raises(ValueError, match="not a cost to cut runs by alone"):
        decide(f, settings(cost="words"), DEFAULT_POLICY)
    with pytest.raises(ValueError, match=r"cost must be one of \('embeddings', 'words'"):
        decide(f, settings(cost="l1"), DEFAULT_POLICY)


def test_choose_structure_threads_the_cost_to_every_runs_fit():
    X = gradual_document(n_blocks=6, block=30, dim=32, seed=1)
    w = np.ones(len(X))
    mine = FirstAxisScatter()
    found = choose_structure(X, w, "auto", cost=mine, policy=DEFAULT_POLICY)
    assert found.fine is not None and found.fine.cost is mine and found.fit.cost is mine
    given = choose_structure(X, w, 3, cost=mine, policy=DEFAULT_POLICY)
    assert given.fit.cost is mine and int(given.fit.labels.max()) + 1 == 3
    default = choose_structure(X, w, "auto", policy=DEFAULT_POLICY)
    named = choose_structure(X, w, "auto", cost="embeddings", policy=DEFAULT_POLICY)
    np.testing.assert_array_equal(default.fit.labels, named.fit.labels)
    assert default.effect == named.effect and default.runs == named.runs


def test_decide_auto_uses_the_cost_for_its_runs():
    X = gradual_document(n_blocks=6, block=30, dim=32, seed=1)
    f = Units(X, np.ones(len(X)))
    mine = FirstAxisScatter()
    out = decide(f, settings(structure="auto", n_segments="auto", cost=mine), DEFAULT_POLICY)
    assert out.runs is not None and out.runs.cost is mine
