"""Method registry: the paper's configurations and extension."""

from __future__ import annotations

import pytest

from bpseg_bench import methods as registry
from bpseg_pgm import BPSeg


def test_paper_configurations():
    bp = registry.make_estimator("bpseg", 35, 7)
    assert isinstance(bp, BPSeg) and bp.get_params() == BPSeg(random_state=7).get_params()
    paper = registry.make_estimator("bpseg-paper", 35, 7)
    assert (paper.potentials, paper.init, paper.n_segments, paper.random_state) == ("paper", "random", 20, 7)
    assert registry.make_estimator("bpseg-paper", 12, 0).n_segments == 12
    oracle = registry.make_estimator("kmeans-true-k", 50, 0, gold_k=7)
    assert oracle.n_clusters == 7
    with pytest.raises(ValueError, match="gold number"):
        registry.make_estimator("kmeans-true-k", 50, 0)
    app = registry.make_estimator("bpseg-appendix", 50, 0)
    assert (app.engine, app.init, app.lam, app.sigma, app.max_iter) == ("fast", "all", 300, 10, 5)
    assert registry.make_estimator("kmeans", 50, 3).max_clusters == 20
    gs = registry.make_estimator("graphseg", 50, 0)
    assert (gs.tau, gs.min_size, gs.variant) == (0.2, 1, "paper")
    assert registry.make_estimator("graphseg-python", 50, 0).variant == "graphseg-python"


def test_register_and_unknown(monkeypatch):
    monkeypatch.setattr(registry, "METHODS", dict(registry.METHODS))
    registry.register_method("bpseg-k3", lambda n, seed: BPSeg(n_segments=3), "k = 3")
    assert registry.make_estimator("bpseg-k3", 10, 0).n_segments == 3
    with pytest.raises(ValueError, match="unknown method"):
        registry.make_estimator("nope", 10, 0)
    with pytest.raises(ValueError):
        registry.register_method("two words", lambda n, s: None, "")


def test_automatic_peers():
    """kcpd-auto and semantic-breakpoints: the automatic methods a user would otherwise run, no gold count."""
    from bpseg_bench.baselines.kcpd_auto import KCPDAuto
    from bpseg_bench.baselines.semantic_breakpoints import SemanticBreakpoints

    kcpd = registry.make_estimator("kcpd-auto", 50, 3)
    assert isinstance(kcpd, KCPDAuto) and (kcpd.kernel, kcpd.min_size, kcpd.c_grid) == ("cosine", 2, None)
    chunker = registry.make_estimator("semantic-breakpoints", 50, 3)
    assert isinstance(chunker, SemanticBreakpoints) and chunker.percentile == 95
    for name in ("kcpd-auto", "semantic-breakpoints"):
        method = registry.METHODS[name]
        assert not (method.uses_gold_k or method.uses_weights or method.uses_words)
    assert registry.check_methods(["kcpd-auto", "semantic-breakpoints"]) == ["kcpd-auto", "semantic-breakpoints"]


def test_grouping_on_and_off():
    """bpseg-grouped and bpseg-ungrouped: the default with group_runs forced on and off (benchmarks/returns.py)."""
    for name, group in (("bpseg-grouped", True), ("bpseg-ungrouped", False)):
        est = registry.make_estimator(name, 50, 3)
        assert est.get_params() == BPSeg(group_runs=group, random_state=3).get_params()
        method = registry.METHODS[name]
        assert method.uses_weights and method.uses_words and not method.uses_gold_k
