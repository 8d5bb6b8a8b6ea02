"""Interleaved-topic documents (the non-contiguous development set) and `bpseg bench interleaved`."""

from __future__ import annotations

import json

import numpy as np
import pytest

from bpseg_bench.choi import load_choi
from bpseg_bench.interleaved import make_interleaved, source_segments
from bpseg_pgm.cli.main import main


def runs(labels):
    """Label of each maximal run of equal labels, in order."""
    labels = list(labels)
    return [lab for i, lab in enumerate(labels) if i == 0 or labels[i - 1] != lab]


@pytest.fixture(scope="module")
def set1(choi_dir):
    return load_choi(choi_dir, sets=[1])


def test_documents_interleave_whole_source_segments(set1):
    docs = make_interleaved(set1, n_docs=20, seed=3)
    segments = {tuple(sorted(seg)) for seg in source_segments(set1)}
    assert len(docs) == 20
    for doc in docs:
        assert len(doc.sentences) == len(doc.labels) and doc.set == 1 and doc.range == "interleaved"
        assert 3 <= doc.n_segments <= 5
        for g in range(doc.n_segments):  # each gold label is one whole Choi segment (chunks in any order)
            assert tuple(sorted(s for s, lab in zip(doc.sentences, doc.labels) if lab == g)) in segments
    # topics really return: most documents have a label in two separate runs
    returning = sum(len(runs(d.labels)) > d.n_segments for d in docs)
    assert returning >= 15


def test_same_seed_same_documents_other_seed_other_documents(set1):
    a, b = make_interleaved(set1, 5, seed=1), make_interleaved(set1, 5, seed=1)
    c = make_interleaved(set1, 5, seed=2)
    assert [d.sentences for d in a] == [d.sentences for d in b]
    assert [d.sentences for d in a] != [d.sentences for d in c]
    assert all(np.array_equal(x.labels, y.labels) for x, y in zip(a, b))


def test_bad_arguments(set1):
    with pytest.raises(ValueError):
        make_interleaved(set1, n_docs=0)
    with pytest.raises(ValueError):
        make_interleaved(set1, min_sources=4, max_sources=3)
    with pytest.raises(ValueError, match="need at least 5 source segments, got 0"):
        make_interleaved(set1, exclude=set1)  # every source excluded
    with pytest.raises(ValueError, match="need at least 5 sources, got 0"):
        make_interleaved(set1, exclude=set1, distinct_sources=True)


def test_cli_writes_the_table(choi_dir, tmp_path, capsys):
    out = tmp_path / "inter"
    code = main(
        [
            "bench",
            "interleaved",
            "--docs",
            "3",
            "--methods",
            "bpseg",
            "kmeans-true-k",
            "--out",
            str(out),
            "--data",
            str(choi_dir),
            "--no-progress",
        ]
    )
    assert code == 0
    data = json.loads((out / "interleaved_results.json").read_text())
    assert data["config"]["n_documents"] == 3 and data["config"]["ranges"] == ["interleaved"]
    assert {r["method"] for r in data["records"]} == {"bpseg", "kmeans-true-k"}
    assert (out / "interleaved_results.png").stat().st_size > 1000
    assert "| bpseg |" in capsys.readouterr().out
    assert not (out / "choi_results.json").exists()  # files are named after the benchmark (issue 13, part 7)


def fingerprint(docs):
    """SHA-256 of the documents' ids, sentences and labels."""
    import hashlib

    rows = [[d.doc_id, list(d.sentences), [int(x) for x in d.labels]] for d in docs]
    return hashlib.sha256(json.dumps(rows).encode()).hexdigest()


def test_set_1_documents_unchanged(set1):
    # taken from the code before interleaved-234 and the exclude / distinct_sources options were added
    assert (
        fingerprint(make_interleaved(set1, n_docs=60, seed=0))
        == "2303e72972c38b3782500668715d79ccfe7037c3427c11a965a6d2b87309fbcd"
    )
    assert (
        fingerprint(make_interleaved(set1, n_docs=20, seed=3))
        == "a32c8f89cc2a394723581dd9088c3077b43753537463e9d394e11c746cfe7831"
    )


def test_held_out_twin_uses_no_set_1_source_and_distinct_sources(choi_dir, set1):
    from bpseg_bench.choi_sources import choi_passages

    held = make_interleaved(
        load_choi(choi_dir, sets=[2, 3, 4]),
        n_docs=30,
        seed=0,
        exclude=set1,
        distinct_sources=True,
        name="interleaved-234",
    )
    dev_words = {s for seg in source_segments(set1) for s in seg if len(s.split()) > 3}
    dev_sources = {p.source for p in choi_passages(set1)}
    pool = {p.sentences for p in choi_passages(load_choi(choi_dir, sets=[4]))}
    assert [d.doc_id for d in held[:2]] == ["interleaved-234/0/0", "interleaved-234/0/1"]
    assert all(d.range == "interleaved-234" and d.set == 4 for d in held)
    for doc in held:
        assert 3 <= doc.n_segments <= 5 and not any(s in dev_words for s in doc.sentences)
        passages = [tuple(s for s, lab in zip(doc.sentences, doc.labels) if lab == g) for g in range(doc.n_segments)]
        # chunks of one passage keep their order when the passage is cut in two, so each label is a passage
        # (or its two halves swapped); its source (first sentence) is in no set-1 passage and in no other label
        firsts = []
        for p in passages:
            whole = p if p in pool else next(p[i:] + p[:i] for i in range(2, len(p) - 1) if p[i:] + p[:i] in pool)
            firsts.append(whole[0])
        assert len(set(firsts)) == len(firsts) and not set(firsts) & dev_sources
        assert len(set(doc.sentences)) == len(doc.sentences)  # no text under two labels
        assert all(a != b for a, b in zip(runs(doc.labels), runs(doc.labels)[1:]))
    assert sum(len(runs(d.labels)) > d.n_segments for d in held) >= 25  # topics return


def test_legacy_set_1_documents_can_repeat_a_source_the_twin_cannot(set1):
    def shared(doc):  # a sentence under two labels: two passages of one Brown document
        labels = {}
        return any(labels.setdefault(s, lab) != lab for s, lab in zip(doc.sentences, doc.labels))

    assert sum(map(shared, make_interleaved(set1, n_docs=60, seed=0))) >= 1
    assert not any(map(shared, make_interleaved(set1, n_docs=60, seed=0, distinct_sources=True)))
