"""Where each plug-in kind acts on the default path (the table of the plug-ins how-to): engines here; potentials in
tests/decisions/test_potentials_reach.py, costs in tests/test_estimator_policy.py, formats in test_loader.py."""

from __future__ import annotations

import numpy as np
import pytest
from planted import gradual_document, planted_blocks

from bpseg_pgm.estimator import BPSeg
from bpseg_pgm.inference.engine import REGISTRY, register_engine
from bpseg_pgm.inference.engines.potts import PottsEngine

CALLS: list[int] = []


@pytest.fixture()
def counting():
    """A registered copy of the default engine that counts the networks it is given (their number of variables)."""

    @register_engine("counting-potts")
    class Counting(PottsEngine):
        def infer(self, problem):
            CALLS.append(problem.log_unary.shape[0])
            return super().infer(problem)

    CALLS.clear()
    yield
    REGISTRY.pop("counting-potts", None)


def test_an_engine_groups_the_runs_on_gradual_text_and_gives_the_default_labels(counting):
    X = gradual_document(n_blocks=6, block=30, dim=32, seed=3)
    default = BPSeg(random_state=0, group_runs=True).fit(X)
    mine = BPSeg(engine="counting-potts", random_state=0, group_runs=True).fit(X)
    assert mine.structure_ == default.structure_ == "run-topics"
    assert CALLS and max(CALLS) < len(X)  # its networks are over runs, not units
    np.testing.assert_array_equal(mine.labels_, default.labels_)


def test_an_engine_runs_the_topic_model_on_abrupt_text(counting):
    X, _ = planted_blocks((12, 9, 15, 10), dim=32, noise=0.3, seed=2)
    default = BPSeg(random_state=0).fit(X)
    mine = BPSeg(engine="counting-potts", random_state=0).fit(X)
    assert mine.structure_ == default.structure_ == "topics"
    assert len(X) in CALLS  # a network over the units
    np.testing.assert_array_equal(mine.labels_, default.labels_)
