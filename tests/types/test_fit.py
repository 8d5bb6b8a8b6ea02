"""``Fit``: the one record a fit leaves. ``decide`` returns it, ``BPSeg`` reads every fitted attribute from it (no
copy), the text's ``Segmentation`` is built from it."""

import dataclasses

import numpy as np
import pytest
from planted import gradual_document, planted_blocks

from bpseg_pgm.estimator import BPSeg
from bpseg_pgm.features.units import Units
from bpseg_pgm.types.fit import FIT_FIELDS, Fit


@pytest.mark.parametrize(
    "params, structure",
    [
        ({}, "topics"),  # abrupt blocks: the topic model, kept
        ({"structure": "topics"}, "topics"),
        ({"structure": "runs"}, "runs"),
        ({"structure": "runs", "group_runs": True}, "run-topics"),
    ],
    ids=["auto", "topics", "runs", "run-topics"],
)
def test_every_fitted_attribute_is_the_fit_s_own_field(params, structure):
    X, _ = planted_blocks((12, 12, 12), dim=16, noise=0.4, seed=0)
    m = BPSeg(random_state=0, **params).fit(X)
    assert isinstance(m.result_, Fit)
    for name in FIT_FIELDS:
        assert getattr(m, name + "_") is getattr(m.result_, name)
    assert m.labels_.shape == (36,) and m.beliefs_.shape == (36, m.n_segments_)
    np.testing.assert_allclose(m.beliefs_.sum(axis=1), 1.0)
    assert m.structure_ == m.result_.structure == structure


def test_the_fit_of_each_model_says_which_it_is():
    X = gradual_document(n_blocks=4, block=25, dim=24, seed=1)
    runs = BPSeg(random_state=0, structure="runs", group_runs=False).fit(X)
    assert runs.structure_ == "runs" and runs.engine_ is None and runs.n_iter_ == 1 and runs.converged_
    assert runs.edges_.tolist() == [[i, i + 1] for i in range(len(X) - 1)]
    assert runs.lam_ is None and runs.em_rounds_ == 0 and runs.smoothing_width_ is not None
    topics = BPSeg(random_state=0, structure="topics").fit(X)
    assert topics.structure_ == "topics" and topics.engine_ is not None and topics.lam_ == 150.0
    assert topics.smoothing_width_ is None and topics.representatives_ is not None


def test_before_fit_the_attributes_are_missing_and_a_fit_cannot_be_changed():
    m = BPSeg()
    assert not hasattr(m, "labels_") and not hasattr(m, "result_")
    with pytest.raises(AttributeError, match="before fit"):
        m.labels_
    m.fit(Units(planted_blocks((10, 10), dim=8, seed=2)[0]))
    with pytest.raises(AttributeError):
        m.labels_ = np.zeros(20)
    with pytest.raises(dataclasses.FrozenInstanceError):
        m.result_.labels = np.zeros(20)
