"""prune(policy=...): the Policy is prune's one channel for its tuned numbers (budget, BM25 weight, top_m, pieces,
block), and for the segmenter's."""

import pytest

import bpseg_pgm.estimator
from bpseg_pgm.policy import Policy
from bpseg_pgm.pruning import prune

from .test_prune_api import MESSY

QUERY = "Who won the tennis tournament final?"


def test_the_policys_budget_is_the_default_budget(fake_embedder):
    shipped = prune(MESSY, QUERY, embedder=fake_embedder)
    wider = prune(MESSY, QUERY, embedder=fake_embedder, policy=Policy(prune_budget=0.9))
    assert shipped.limit == pytest.approx(0.2 * shipped.total) and wider.limit == pytest.approx(0.9 * wider.total)
    assert len(wider.kept) > len(shipped.kept)


def test_the_policys_bm25_weight_reaches_the_scores(fake_embedder):
    plain = prune(MESSY, QUERY, budget=0.5, embedder=fake_embedder, policy=Policy(prune_bm25_weight=0.0))
    shipped = prune(MESSY, QUERY, budget=0.5, embedder=fake_embedder)
    assert (shipped.scores - plain.scores).max() > 0.1


def test_the_policy_reaches_the_segmenter(fake_embedder, monkeypatch):
    seen = []
    fit = bpseg_pgm.estimator.BPSeg.fit

    def spy(self, X, *args, **kwargs):
        seen.append(self.policy)
        return fit(self, X, *args, **kwargs)

    monkeypatch.setattr(bpseg_pgm.estimator.BPSeg, "fit", spy)
    policy = Policy(run_scale=2.0)
    prune(MESSY, QUERY, budget=0.5, embedder=fake_embedder, policy=policy)
    assert seen and all(p is policy for p in seen)


def test_the_former_keywords_name_the_policy_field(fake_embedder):
    with pytest.raises(ValueError, match=r"takes no keyword 'top_m': it is Policy\.prune_top_m"):
        prune(MESSY, QUERY, embedder=fake_embedder, top_m=3)
    with pytest.raises(ValueError, match="policy must be None or a bpseg_pgm.Policy"):
        prune(MESSY, QUERY, embedder=fake_embedder, policy={"prune_top_m": 3})
