"""The one benchmark runner: every benchmark gives a method what it asks for (gold k of the right kind,
unit weights), so ``bpseg bench choi`` and ``bpseg bench corpus choi-1`` run "bpseg" the same way."""

from __future__ import annotations

import numpy as np
import pytest

from bpseg_bench import runner
from bpseg_bench.bench_choi import run_choi_benchmark
from bpseg_bench.bench_corpus import run_corpus_benchmark
from bpseg_bench.choi import load_choi
from bpseg_bench.corpus import from_choi
from bpseg_bench.interleaved import InterleavedDocument
from bpseg_bench.methods import METHODS, Method
from bpseg_pgm.features.weights import unit_weights
from bpseg_pgm.policy import DEFAULT_POLICY as P
from bpseg_pgm.types.document import Document


class Spy:
    """An estimator that records what it was given and labels units alternately 0, 1."""

    def __init__(self, calls: list, name: str, gold_k):
        self.calls, self.name, self.gold_k = calls, name, gold_k

    def fit_predict(self, X, sample_weight=None):
        # a method that uses the text's features gets them as Units (embeddings, weights, words)
        sample_weight = getattr(X, "weights", sample_weight)
        self.calls.append({"name": self.name, "n": len(X), "gold_k": self.gold_k, "sample_weight": sample_weight})
        return np.arange(len(X)) % 2


@pytest.fixture
def spies(monkeypatch):
    """Replace the factories of bpseg, kmeans-true-k (gold topics) and equal-blocks (gold runs) by spies."""
    calls: list = []
    for name in ("bpseg", "kmeans-true-k", "equal-blocks"):
        m = METHODS[name]
        if m.uses_gold_k:
            factory = lambda n, seed, gold_k, name=name: Spy(calls, name, gold_k)  # noqa: E731
        else:
            factory = lambda n, seed, name=name: Spy(calls, name, None)  # noqa: E731
        monkeypatch.setitem(METHODS, name, Method(name, factory, m.description, m.uses_gold_k, m.gold_k_kind,
                                                  m.uses_weights))  # fmt: skip
    return calls


def test_bench_choi_gives_bpseg_the_unit_weights(choi_dir, hash_embedder, spies):
    """The bug of issue 19: bench choi's own loop called fit_predict(X) and so ran "bpseg" without weights."""
    docs = load_choi(choi_dir, sets=[1], ranges=["3-5"], limit=2)
    run_choi_benchmark(choi_dir, sets=[1], ranges=["3-5"], limit=2, methods=["bpseg"], embedder=hash_embedder,
                       progress=False)  # fmt: skip
    assert [c["name"] for c in spies] == ["bpseg", "bpseg"]
    for call, doc in zip(spies, docs):
        assert call["sample_weight"] is not None, "bench choi ran bpseg without the unit weights"
        np.testing.assert_array_equal(call["sample_weight"], unit_weights(doc.sentences, P.word_scale))


def test_bench_choi_and_bench_corpus_call_every_method_alike(choi_dir, hash_embedder, spies):
    methods = ["bpseg", "kmeans-true-k", "equal-blocks"]
    run_choi_benchmark(choi_dir, sets=[1], ranges=["3-5"], limit=3, methods=methods, embedder=hash_embedder,
                       progress=False)  # fmt: skip
    choi_calls = list(spies)
    spies.clear()
    docs = load_choi(choi_dir, sets=[1], ranges=["3-5"], limit=3)
    run_corpus_benchmark({"choi": [from_choi(d) for d in docs]}, methods=methods, embedder=hash_embedder,
                         progress=False)  # fmt: skip
    assert len(choi_calls) == len(spies) == 9
    for a, b in zip(choi_calls, spies):
        assert (a["name"], a["n"], a["gold_k"]) == (b["name"], b["n"], b["gold_k"])
        assert (a["sample_weight"] is None) == (b["sample_weight"] is None) == (not METHODS[a["name"]].uses_weights)
        if a["sample_weight"] is not None:
            np.testing.assert_array_equal(a["sample_weight"], b["sample_weight"])


def test_oracles_get_gold_runs_or_gold_topics_in_bench_choi_too(choi_dir, hash_embedder, spies):
    """On documents whose topics return (A B A), a contiguous oracle needs the number of runs (3), not of topics (2)."""
    doc = InterleavedDocument([f"s{i} ." for i in range(9)], np.array([0, 0, 0, 1, 1, 1, 0, 0, 0]), "interleaved/x/0")
    run_choi_benchmark(choi_dir, methods=["kmeans-true-k", "equal-blocks"], docs=[doc], embedder=hash_embedder,
                       progress=False)  # fmt: skip
    assert [(c["name"], c["gold_k"]) for c in spies] == [("kmeans-true-k", 2), ("equal-blocks", 3)]


def test_segment_times_the_fit_and_returns_an_array():
    doc = Document("d", units=("The cat sat .", "A dog ran ."), labels=(0, 1))
    labels, seconds = runner.segment(doc, np.eye(2), "one-segment", 0)
    assert isinstance(labels, np.ndarray) and labels.tolist() == [0, 0] and seconds >= 0


def test_gold_k_counts_runs_of_the_labelled_units_or_topics():
    doc = Document("d", units=tuple("abcdef"), labels=("x", None, "y", "x", "x", None))
    assert runner.gold_k(doc, "runs") == 3 and runner.gold_k(doc, "segments") == 2


def test_embed_documents_in_one_call(hash_embedder):
    docs = [Document("a", units=("one", "two")), Document("b", units=("three",))]
    rows, seconds = runner.embed_documents(docs, hash_embedder)
    assert hash_embedder.calls == 1 and [len(r) for r in rows] == [2, 1] and seconds >= 0
    np.testing.assert_array_equal(np.vstack(rows), hash_embedder.encode(["one", "two", "three"]))


@pytest.mark.parametrize("seed", [-1, 1.5, True, "0", None])
def test_check_seed(seed):
    with pytest.raises(ValueError, match="seed must be a non-negative integer"):
        runner.check_seed(seed)
    assert runner.check_seed(np.int64(3)) == 3


def test_the_default_gets_the_units_word_counts_and_other_methods_do_not(monkeypatch):
    """What the text pipeline gives ``BPSeg()`` (the words its automatic granularity reads) the bench gives too;
    a method that does not declare ``uses_words`` is not handed them."""
    from bpseg_pgm.features.words import unit_word_counts

    calls: list = []

    class WordSpy(Spy):
        def fit_predict(self, X, sample_weight=None, word_counts=None):
            calls.append({"name": self.name, "word_counts": getattr(X, "word_counts", word_counts)})
            return np.arange(len(X)) % 2

    for name in ("bpseg", "kcpd-true-k"):
        m = METHODS[name]
        factory = (
            (lambda n, seed, gold_k, name=name: WordSpy(calls, name, gold_k))
            if m.uses_gold_k
            else (lambda n, seed, name=name: WordSpy(calls, name, None))
        )
        monkeypatch.setitem(METHODS, name, Method(name, factory, m.description, m.uses_gold_k, m.gold_k_kind,
                                                  m.uses_weights, m.uses_words))  # fmt: skip
    doc = Document("d", units=("The cats sat on the mat .", "A dog ran in the park ."), labels=(0, 1))
    runner.segment(doc, np.eye(2), "bpseg", 0)
    runner.segment(doc, np.eye(2), "kcpd-true-k", 0)
    assert [c["name"] for c in calls] == ["bpseg", "kcpd-true-k"]
    expected = unit_word_counts(doc.units).toarray()
    np.testing.assert_array_equal(calls[0]["word_counts"].toarray(), expected)
    assert calls[1]["word_counts"] is None
    # the runs model as users call it through the pipeline gets them too (its boundaries weigh the words)
    assert METHODS["bpseg-contiguous"].uses_words and METHODS["bpseg-contiguous-true-k"].uses_words
