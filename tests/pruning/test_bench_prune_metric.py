"""The recall metric, budget filling and semantic chunks of research/2026-11-23-query-pruning/bench_prune.py."""

import importlib.util
from pathlib import Path

import numpy as np
import pytest

_PATH = Path(__file__).resolve().parents[2] / "research" / "2026-11-23-query-pruning" / "bench_prune.py"
_spec = importlib.util.spec_from_file_location("bench_prune", _PATH)
bench = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(bench)


def test_gold_mask_clips_inclusive_spans():
    assert bench.gold_mask(6, [(1, 2), (4, 9)]).tolist() == [False, True, True, False, True, True]
    assert bench.gold_mask(3, [(-2, 0)]).tolist() == [True, False, False]


def test_recall_of_turns_and_words():
    gold = bench.gold_mask(6, [(1, 3)])
    words = np.array([5, 1, 10, 9, 4, 4])
    kept = np.array([1, 1, 0, 1, 0, 0], dtype=bool)
    turns, w = bench.recall(kept, gold, words)
    assert turns == pytest.approx(2 / 3)
    assert w == pytest.approx(10 / 20)
    assert bench.recall(gold, gold, words) == (1.0, 1.0)
    assert bench.recall(~gold, gold, words) == (0.0, 0.0)
    with pytest.raises(ValueError, match="no gold turn"):
        bench.recall(kept, np.zeros(6, dtype=bool), words)
    with pytest.raises(ValueError, match="one entry per turn"):
        bench.recall(kept[:3], gold, words)


def test_fill_skips_what_does_not_fit_and_goes_on():
    words = np.array([3, 8, 2, 2])
    kept = bench.fill([np.array([0]), np.array([1]), np.array([2, 3])], words, budget=7.5)
    assert kept.tolist() == [True, False, True, True]  # 3 + 2 + 2 = 7 <= 7.5; the 8-word turn skipped


def test_semantic_chunks_cut_where_adjacent_similarity_is_lowest():
    a, b = np.eye(4)[0], np.eye(4)[1]
    X = np.array([a, a, a, b, b, b, a, a])  # similarity 0 at 2|3 and 5|6, 1 elsewhere
    chunks = bench.semantic_chunks(X, percentile=40)
    assert [c.tolist() for c in chunks] == [[0, 1, 2], [3, 4, 5], [6, 7]]


def test_the_benchmark_measures_what_prune_keeps(fake_embedder):
    """The benchmark's 'bpseg prune' row (parts called on cached embeddings) keeps exactly what prune() keeps."""
    import types

    from bpseg_bench.corpus import LabelledDocument
    from bpseg_pgm import prune

    topics = ["tennis final serve court", "rain wind snow forecast", "budget invoice cost price"]
    units = [
        f"{topics[(i // 7) % 3].split()[i % 4]} and {topics[(i // 7) % 3].split()[(i + 1) % 4]} talk {i}"
        for i in range(40)
    ]
    units[5] = units[23] = ""  # empty turns, as QMSum has
    doc = LabelledDocument("fake", tuple(units), (None,) * len(units))
    args = types.SimpleNamespace(windows=[10], chunk_percentiles=[10], default_bpseg=False)
    X = fake_embedder.encode([u if u.strip() else "." for u in units])
    meeting = bench.Meeting(doc, X, args)
    query = "who won the tennis final"
    q = fake_embedder.encode([query])[0].astype(float)
    gold = bench.gold_mask(len(units), [(0, 6)])
    methods = bench.methods_for(meeting, q, query, gold, seeds=1)
    for budget in (0.1, 0.3):
        kept = methods["bpseg prune"](budget * meeting.words.sum())
        assert np.flatnonzero(kept).tolist() == list(prune(units, query, budget=budget, embedder=fake_embedder).kept)
