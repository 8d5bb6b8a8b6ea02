"""Interleaved-topic documents (the non-contiguous development set) and `bpseg bench interleaved`."""

from __future__ import annotations

import json

import numpy as np
import pytest

from bpseg_pgm.cli.main import main
from bpseg_pgm.evaluation.choi import load_choi
from bpseg_pgm.evaluation.interleaved import make_interleaved, source_segments


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


def test_cli_writes_the_table(choi_dir, tmp_path, capsys):
    out = tmp_path / "inter"
    code = main(["bench", "interleaved", "--docs", "3", "--methods", "bpseg", "kmeans-true-k",
                 "--out", str(out), "--data", str(choi_dir), "--no-progress"])
    assert code == 0
    data = json.loads((out / "interleaved_results.json").read_text())
    assert data["config"]["n_documents"] == 3 and data["config"]["ranges"] == ["interleaved"]
    assert {r["method"] for r in data["records"]} == {"bpseg", "kmeans-true-k"}
    assert (out / "interleaved_results.png").stat().st_size > 1000
    assert "| bpseg |" in capsys.readouterr().out
    assert not (out / "choi_results.json").exists()  # files are named after the benchmark (issue 13, part 7)
