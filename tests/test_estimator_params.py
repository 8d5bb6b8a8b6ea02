"""BPSeg as a facade: every parameter checked before any work, whichever model the document gets;
every fitted attribute set by every fit."""

from __future__ import annotations

import pytest
from planted import planted_blocks

from bpseg_pgm.estimator import BPSeg

BAD = [
    ({"context": -1.0}, "context"),
    ({"context": None}, "context"),
    ({"init": "bogus"}, "init must be one of"),
    ({"init": [0, 0]}, "representatives must be distinct"),
    ({"merge_above": "high"}, "merge_above"),
    ({"neighbors": "some"}, "neighbors must be"),
    ({"lam": -1.0}, "lam"),
    ({"max_iter": 0}, "max_iter"),
    ({"em_rounds": -1}, "em_rounds"),
    ({"engine": "nope"}, "engine must be one of"),
    ({"n_segments": 2.5}, "n_segments"),
    ({"group_runs": "yes"}, "group_runs"),
    ({"group_runs": 1}, "group_runs"),
]


@pytest.mark.parametrize("structure", ["runs", "auto", "topics"])
@pytest.mark.parametrize("params, match", BAD)
def test_bad_parameters_raise_whatever_the_model(structure, params, match, model_calls):
    X, _ = planted_blocks((10, 10, 10), seed=0)
    with pytest.raises(ValueError, match=match):
        BPSeg(structure=structure, **params).fit(X)
    assert model_calls == []  # refused before any model ran


ATTRIBUTES = (
    "labels_",
    "beliefs_",
    "centers_",
    "representatives_",
    "structure_",
    "structure_effect_",
    "n_segments_",
    "n_iter_",
    "converged_",
    "edges_",
    "deltas_",
    "model_",
    "engine_",
    "engine_extra_",
    "inference_",
    "log_partition_",
    "lam_",
    "sigma_",
    "em_rounds_",
    "potentials_",
    "context_",
    "smoothing_width_",
    "runs_",
    "run_topics_",
    "topic_silhouette_",
)


def test_every_fitted_attribute_is_set_by_both_models_and_a_refit_leaves_nothing_stale():
    X, _ = planted_blocks((10, 10, 10), seed=0)
    est = BPSeg(n_segments=3, structure="runs").fit(X)
    assert all(hasattr(est, a) for a in ATTRIBUTES)
    assert est.structure_ == "runs" and est.engine_ is None and est.smoothing_width_ is not None
    est.set_params(structure="topics").fit(X)
    assert all(hasattr(est, a) for a in ATTRIBUTES)
    assert est.structure_ == "topics" and est.engine_ is not None and est.smoothing_width_ is None
    assert est.run_topics_ is None
    est.set_params(structure="runs", group_runs=True).fit(X)
    assert est.structure_ == "run-topics" and est.run_topics_ is not None and est.engine_ is not None
    est.set_params(structure="runs", group_runs="auto").fit(X)
    assert est.engine_ is None and est.lam_ is None and est.potentials_ is None and est.run_topics_ is None
