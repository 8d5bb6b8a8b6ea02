"""The card's model on the default path: where topics return, ``segment_sentences`` / ``segment_text`` group the
runs on a pgmpy ``DiscreteMarkovNetwork`` with explicit factors, solved through pgmpy's ``Inference`` API.

The spy sits on pgmpy's ``Inference.__init__`` itself: a grouping that went around the network (the Potts kernel
on arrays) would leave it uncalled and fail here.
"""

from __future__ import annotations

import numpy as np
import pytest
from planted import returning_runs

from bpseg_pgm.text.pipeline import segment_sentences


class _Fixed:
    model_name = "fixed"

    def __init__(self, X):
        self.X = np.asarray(X, dtype=np.float32)

    def encode(self, sentences):
        return self.X[: len(sentences)]


@pytest.fixture
def inference_calls(monkeypatch):
    from pgmpy.inference import base

    calls = []
    init = base.Inference.__init__

    def spy(self, model, *args, **kwargs):
        init(self, model, *args, **kwargs)
        calls.append((type(self).__name__, model, [f.scope() for f in model.get_factors()]))

    monkeypatch.setattr(base.Inference, "__init__", spy)
    return calls


def test_returning_topics_are_grouped_on_a_pgmpy_network(inference_calls):
    from pgmpy.models import DiscreteMarkovNetwork

    X, _, _ = returning_runs(order=(0, 1, 0, 2, 1, 0), size=12, d=24, spread=0.5, seed=0)
    units = [f"Unit {i} of the meeting." for i in range(len(X))]
    seg = segment_sentences(units, embedder=_Fixed(X))
    assert seg.structure == "run-topics"
    runs = seg.runs
    assert len(seg.segments) < len(runs)  # a topic holds separate runs: the non-contiguous step did something
    assert inference_calls, "the runs were grouped without pgmpy's Inference API"
    name, model, scopes = inference_calls[-1]
    assert name == "PottsBeliefPropagation" and isinstance(model, DiscreteMarkovNetwork)
    m = len(model.nodes())
    assert m >= len(runs)  # one variable per run the model cut (neighbours may end with one topic)
    # explicit factors: one unary per run, one pairwise per pair of runs (the dense graph at this size)
    assert sorted(len(s) for s in scopes) == [1] * m + [2] * (m * (m - 1) // 2)
