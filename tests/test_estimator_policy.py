"""BPSeg(policy=...) and BPSeg(cost=...): a researcher's decisions and cost reach the default path."""

import warnings

import numpy as np
import pytest
from planted import planted_blocks

from bpseg_pgm.estimator import BPSeg
from bpseg_pgm.params import PARAMETERS
from bpseg_pgm.policy import DEFAULT_POLICY, Policy
from bpseg_pgm.potentials.registry import lookup
from bpseg_pgm.runs.cost_registry import RunCost
from bpseg_pgm.runs.costs import cost_matrix


def _gradual(seed=0):
    """Six topics of 40 units with a weak per-unit signal: text the default segments into runs."""
    return planted_blocks((40,) * 6, dim=48, noise=0.9, seed=seed)


class HalfCost(RunCost):
    """A user's cost: the embeddings' scatter over the first half of the dimensions only."""

    name = "test-half"

    def matrix(self, positions=None):
        d = self.features.shape[1] // 2
        return cost_matrix(self.features[:, :d], self.weights, positions)


def test_the_shipped_policy_is_the_default():
    X, _ = _gradual()
    a = BPSeg(random_state=0).fit(X)
    b = BPSeg(random_state=0, policy=Policy()).fit(X)
    np.testing.assert_array_equal(a.labels_, b.labels_)
    assert a.structure_ == b.structure_ and b.policy_ == DEFAULT_POLICY


def test_a_changed_policy_reaches_the_number_of_segments():
    X, _ = _gradual()
    base = BPSeg(random_state=0, group_runs=False).fit(X)
    assert base.structure_ == "runs" and base.granularity_ is not None
    finer = BPSeg(random_state=0, group_runs=False, policy=Policy(run_scale=1.0)).fit(X)
    coarser = BPSeg(random_state=0, group_runs=False, policy=Policy(run_scale=8.0)).fit(X)
    assert finer.granularity_["span"] > coarser.granularity_["span"]


def test_a_changed_policy_reaches_the_structure():
    X, _ = _gradual()
    assert BPSeg(random_state=0, group_runs=False).fit(X).structure_ == "runs"
    # a threshold of (nearly) 0 judges every text abrupt, and with the topic model's gates opened its labels are kept
    policy = Policy(gradual_effect=1e-9, gradual_full=0.0, topic_silhouette=-1.0, topic_runs_ratio=1000.0)
    abrupt = BPSeg(random_state=0, group_runs=False, policy=policy).fit(X)
    assert abrupt.structure_ == "topics" and abrupt.runs_ is not None  # the runs kept as the fallback


def test_policy_must_be_a_policy():
    X, _ = _gradual()
    with pytest.raises(ValueError, match="policy must be None or a bpseg_pgm.Policy"):
        BPSeg(policy={"run_scale": 2.0}).fit(X)


def test_the_parameter_table_is_the_signature():
    params = BPSeg().get_params()
    assert sorted(params) == sorted(PARAMETERS)
    assert all(params[name] == p.default for name, p in PARAMETERS.items())


def test_a_user_cost_reaches_the_default_path():
    X, _ = _gradual()
    default = BPSeg(random_state=0, group_runs=False).fit(X)
    mine = BPSeg(random_state=0, group_runs=False, cost=HalfCost()).fit(X)
    assert default.structure_ == mine.structure_ == "runs"
    assert not np.array_equal(default.runs_.levels.costs, mine.runs_.levels.costs)


def test_a_cost_the_model_would_ignore_is_refused():
    X, _ = _gradual()
    with pytest.raises(ValueError, match="cuts no runs"):
        BPSeg(structure="topics", cost=HalfCost()).fit(X)
    with pytest.raises(ValueError, match="give structure='runs' to use the cost"):
        BPSeg(init="all", cost=HalfCost()).fit(X)  # init="all": the topic model


def test_a_user_potentials_object_under_auto_reaches_the_runs_quietly():
    # a Potts potential has a place in the runs (its couplings' energy): no warning; one without is warned about
    # in tests/decisions/test_potentials_reach.py
    X, _ = _gradual()
    pot = lookup("paper").cls(lam=0.12, sigma=None)
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        BPSeg(potentials=pot, n_segments=3, random_state=0, max_iter=300).fit(X)
        BPSeg(potentials=pot, n_segments=3, random_state=0, structure="topics", damping=0.5, max_iter=500).fit(X)
        BPSeg(potentials="paper", n_segments=3, random_state=0, damping=0.5, max_iter=500).fit(X)  # named: quiet
