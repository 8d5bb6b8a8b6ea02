"""Table 2 benchmark in-process, with planted embeddings where the answer is known."""

from __future__ import annotations

import json

import numpy as np
import pytest

from bpseg_bench.bench_example import (
    TENNIS,
    render_example_markdown,
    run_example_benchmark,
    write_example_report,
)
from bpseg_pgm.cli.demo import load_example


class TopicEmbedder:
    """Tennis sentences along e0, the others alternating between e1 and e2, plus small noise."""

    model_id = "topic-embedder"

    def encode(self, sentences):
        rng = np.random.default_rng(0)
        X = 0.05 * rng.normal(size=(len(sentences), 8))
        for i in range(len(sentences)):
            X[i, 0 if i in TENNIS else 1 + i % 2] += 1.0
        return X / np.linalg.norm(X, axis=1, keepdims=True)


def test_packaged_example_has_the_tennis_sentences():
    sentences = load_example()
    assert len(sentences) == 13
    assert all("tennis" in sentences[i] or "US Open" in sentences[i] for i in TENNIS)


@pytest.fixture(scope="module")
def result():
    return run_example_benchmark(n_seeds=3, ks=[2, 3, 4], embedder=TopicEmbedder())


def test_counts_and_known_answers(result):
    rows = {r["method"]: r for r in result["rows"]}
    assert set(rows) >= {
        "BP-Seg, paper (eq. 1-2, lam 0.12, random)",
        "BP-Seg, paper (farthest)",
        "BP-Seg, library defaults (random)",
        "BP-Seg, library defaults (farthest)",
        "k-means",
        "GraphSeg (tau 0.2)",
    }
    for row in rows.values():
        for k in ("2", "3", "4"):
            cell = row["cells"][k]
            assert cell["n_runs"] == (3 if row["seeded"] else 1)
            assert 0 <= cell["tennis_together"] <= cell["n_runs"] and len(cell["runs"]) == cell["n_runs"]
    # three well-separated topics: k-means with k = 3 groups the tennis sentences every time
    assert rows["k-means"]["cells"]["3"]["tennis_together"] == 3
    # GraphSeg is contiguous and the tennis sentences are apart: never together, k or not
    assert all(c["tennis_together"] == 0 for c in rows["GraphSeg (tau 0.2)"]["cells"].values())
    assert all(c["more_than_one"] == 1 for c in rows["GraphSeg (tau 0.2)"]["cells"].values())


def test_reports(result, tmp_path):
    md = render_example_markdown(result)
    kmeans_row = next(line for line in md.splitlines() if line.startswith("| k-means |"))
    assert kmeans_row.split("|")[3].strip() == "3/3"  # k = 3 column: 3 of 3 seeds
    assert "| method | k=2 | k=3 | k=4 |" in md and "| GraphSeg (tau 0.2) | ✗ | ✗ | ✗ |" in md
    paths = write_example_report(result, tmp_path)
    assert json.loads(paths["json"].read_text())["ks"] == [2, 3, 4]
    assert paths["markdown"].read_text(encoding="utf-8") == md


@pytest.mark.parametrize("kwargs", [{"n_seeds": 0}, {"ks": [0]}, {"ks": [14]}, {"sentences": ["a", "b"]}])
def test_bad_arguments(kwargs):
    with pytest.raises(ValueError):
        run_example_benchmark(embedder=TopicEmbedder(), **kwargs)
