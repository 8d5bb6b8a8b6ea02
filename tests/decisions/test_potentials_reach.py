"""A potential reaches every model that has a place for it: the runs (their cost), the grouping, the topic model."""

from __future__ import annotations

import warnings

import numpy as np
import pytest
from planted import gradual_document, planted_blocks, returning_runs

from bpseg_pgm.estimator import BPSeg
from bpseg_pgm.policy import DEFAULT_POLICY as P
from bpseg_pgm.potentials import Potentials
from bpseg_pgm.potentials.centered import CenteredPottsPotentials
from bpseg_pgm.potentials.registry import POTENTIALS, register_potentials
from bpseg_pgm.runs.potentialcost import PotentialsCost
from bpseg_pgm.runtopics.potentials import RunTopicPotentials

CENTRED_DEFAULTS = POTENTIALS["centered"].defaults


@pytest.fixture()
def mine():
    """A registered copy of the default potential, removed again after the test."""

    @register_potentials("mine", defaults=CENTRED_DEFAULTS)
    class Mine(CenteredPottsPotentials):
        pass

    yield Mine
    POTENTIALS.pop("mine")


def _documents():
    gradual = gradual_document(n_blocks=6, block=30, dim=32, seed=3)
    abrupt, _ = planted_blocks((12, 9, 15, 10), dim=32, noise=0.3, seed=2)
    returning = returning_runs(seed=1)[0]
    return [gradual, abrupt, returning]


@pytest.mark.parametrize("group_runs", ["auto", True])
def test_a_registered_copy_of_the_default_potential_gives_its_structure_and_labels(mine, group_runs):
    for X in _documents():
        default = BPSeg(random_state=0, group_runs=group_runs).fit(X)
        copy = BPSeg(potentials="mine", random_state=0, group_runs=group_runs).fit(X)
        assert copy.structure_ == default.structure_
        np.testing.assert_array_equal(copy.labels_, default.labels_)


class CentredEnergy(CenteredPottsPotentials):
    """The default potential, its runs cut by the energy of its own couplings (not the embeddings' scatter)."""

    run_cost = None


def test_another_potential_cuts_the_runs_by_its_energy():
    X = gradual_document(n_blocks=6, block=30, dim=32, seed=3)
    default = BPSeg(random_state=0, n_segments=6, structure="runs").fit(X)
    other = BPSeg(potentials=CentredEnergy(), random_state=0, n_segments=6, structure="runs").fit(X)
    assert isinstance(other.runs_.cost, PotentialsCost)
    assert not np.allclose(other.runs_.levels.costs[1:7], default.runs_.levels.costs[1:7])


def test_the_papers_potential_reaches_the_runs():
    X = gradual_document(n_blocks=6, block=30, dim=32, seed=3)
    paper = BPSeg(potentials="paper", structure="runs", random_state=0, n_segments=6).fit(X)
    assert isinstance(paper.runs_.cost, PotentialsCost)  # before: the embeddings' scatter
    assert isinstance(paper.runs_.cost.potentials, POTENTIALS["paper"].cls)


def test_the_potentials_cost_is_the_energy_of_the_couplings_within_each_run():
    X, _ = planted_blocks((5, 4, 6), dim=8, noise=0.4, seed=0)
    Xn = X / np.linalg.norm(X, axis=1, keepdims=True)
    pot = POTENTIALS["paper"].cls(lam=0.5, sigma=None)
    C = PotentialsCost(pot).fit(X, np.ones(len(X))).matrix(np.array([0, 3, 5, 9, 15]))
    positions = [0, 3, 5, 9, 15]
    for i, a in enumerate(positions):
        for j, b in enumerate(positions):
            if j <= i:
                assert C[i, j] == np.inf
                continue
            r, c = np.triu_indices(b - a, k=1)
            expected = pot.log_coupling(Xn[a:b], r, c).sum()
            assert C[i, j] == pytest.approx(expected, abs=1e-9)


class TableOnly(Potentials):
    """Full pairwise tables, no Potts couplings: a run has no cost under it."""

    potts = False

    def log_unary(self, X, C):
        return X @ C.T

    def log_pairwise_table(self, X, rows, cols, k):
        return np.zeros((len(rows), k, k))


def test_a_potential_the_runs_cannot_take_is_one_warning_naming_the_topic_model():
    X, _ = planted_blocks((10, 10, 10), dim=16, noise=0.3, seed=0)
    with pytest.warns(UserWarning, match="full pairwise tables.*it fits the topic model") as caught:
        model = BPSeg(potentials=TableOnly(), engine="loopy", n_segments=3, random_state=0, max_iter=50).fit(X)
    assert len([w for w in caught if "structure='auto'" in str(w.message)]) == 1
    assert model.structure_ == "topics"
    with pytest.raises(ValueError, match="full pairwise tables"):
        PotentialsCost(TableOnly())
    with pytest.warns(UserWarning, match="runs model has no place for them and cuts the runs by the embeddings'"):
        runs = BPSeg(potentials=TableOnly(), engine="loopy", structure="runs", n_segments=3).fit(X)
    np.testing.assert_array_equal(runs.labels_, BPSeg(structure="runs", n_segments=3).fit(X).labels_)


class GroupLoosely(CenteredPottsPotentials):
    """The default potential, with grouping potentials of its own (everything attracts)."""

    def group_potentials(self, policy):
        return RunTopicPotentials.from_policy(P, threshold=-1.0, lam=50.0, locality=0.0)


def test_the_grouping_takes_the_potentials_grouping_potentials():
    X = returning_runs(seed=1)[0]
    default = BPSeg(random_state=0, group_runs=True, structure="runs").fit(X)
    loose = BPSeg(potentials=GroupLoosely(), random_state=0, group_runs=True, structure="runs").fit(X)
    assert default.structure_ == loose.structure_ == "run-topics"
    np.testing.assert_array_equal(default.runs_.labels, loose.runs_.labels)  # same runs: the same run cost
    assert len(np.unique(loose.labels_)) < len(np.unique(default.labels_))


def test_a_potentials_object_now_reaches_the_runs_quietly():
    X = gradual_document(n_blocks=6, block=30, dim=32, seed=3)
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        model = BPSeg(potentials=CenteredPottsPotentials(), random_state=0).fit(X)
    np.testing.assert_array_equal(model.labels_, BPSeg(random_state=0).fit(X).labels_)
