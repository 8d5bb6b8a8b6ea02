"""benchmarks/returns.py (issue 51, item 3) on planted documents whose topics return."""

from __future__ import annotations

import importlib.util
import json
import math
import re
import zlib
from pathlib import Path

import numpy as np
import pytest

SCRIPT = Path(__file__).resolve().parents[2] / "benchmarks" / "returns.py"
FAST = ["kmeans-true-k", "bpseg-contiguous-true-k", "one-segment"]


def _script():
    spec = importlib.util.spec_from_file_location("returns_script", SCRIPT)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


class TopicEmbedder:
    """A unit ``"... topic T ..."`` as the unit vector e_T plus a little noise seeded by its text."""

    model_id = "topic-embedder"

    def encode(self, sentences):
        rows = []
        for s in sentences:
            row = 0.05 * np.random.default_rng(zlib.crc32(s.encode("utf-8"))).normal(size=16)
            row[int(re.search(r"topic (\d+)", s).group(1))] += 1.0
            rows.append(row)
        X = np.asarray(rows)
        return X / np.linalg.norm(X, axis=1, keepdims=True)


def _record(doc_id, blocks):
    """A JSONL line: blocks of (topic, size) in reading order, a topic given twice returns."""
    units, labels = [], []
    for topic, size in blocks:
        units += [f"{doc_id} unit {len(units)} of topic {topic}" for _ in range(size)]
        labels += [f"t{topic}"] * size
    return {"id": doc_id, "units": units, "labels": labels}


def _corpus(tmp_path) -> Path:
    path = tmp_path / "returns.jsonl"
    docs = [_record("a", [(0, 6), (1, 6), (0, 6)]), _record("b", [(2, 5), (3, 5), (2, 5), (4, 5)])]
    path.write_text("".join(json.dumps(d) + "\n" for d in docs), encoding="utf-8")
    return path


def test_the_defaults_are_registered_methods():
    from bpseg_bench.methods import METHODS

    script = _script()
    assert set(script.METHODS) <= set(METHODS) and script.SETS == ("qmsum-train-returns", "interleaved")
    assert all(set(pair) <= set(script.METHODS) for pair in script.COMPARED.values())


def test_a_clustering_joins_and_one_run_does_not(tmp_path):
    from bpseg_bench.corpus import read_corpus

    script = _script()
    result = script.run({"planted": read_corpus(_corpus(tmp_path))}, FAST, embedder=TopicEmbedder(), progress=False)
    s = result["sets"]["planted"]
    assert (s["documents"], s["returning_docs"], s["grouping_changed"], s["forced_differs"]) == (2, 2, None, None)
    km, runs, one = (s["summary"][m] for m in FAST)
    assert km["ari"] == pytest.approx(1.0)
    assert (km["joined_across_runs"]["hits"], km["joined_across_runs"]["total"]) == (2, 2)
    assert (km["return_precision"]["hits"], km["return_precision"]["total"]) == (2, 2)
    assert km["joined_across_runs"]["ci95"] == [1.0, 1.0] and km["docs_with_return"] == 2
    # one label for everything: the old score joins every topic, the new one none
    assert one["spans_joined"]["pooled"] == 1.0 and one["joined_across_runs"]["pooled"] == 0.0
    assert one["return_precision"]["total"] == 0 and math.isnan(one["return_precision"]["pooled"])
    assert runs["joined_across_runs"]["hits"] == 0 and runs["docs_with_return"] == 0  # contiguous: never returns
    assert len(result["records"]) == 2 * len(FAST)
    md = script.render_markdown(result, "python benchmarks/returns.py")
    assert "| kmeans-true-k | 1.00 | 1.00 (2/2) [1.00, 1.00] | 1.00 (2/2) [1.00, 1.00] |" in md
    assert "| one-segment | 0.00 | 0.00 (0/2) [0.00, 0.00] | n/a (0/0) | 1.00 (2/2) [1.00, 1.00] |" in md
    assert "## planted: 2 documents (2 with a returning gold topic)" in md and "Command: `python" in md


def test_script_writes_the_table(tmp_path, monkeypatch, capsys):
    from bpseg_bench import runner

    monkeypatch.setattr(runner, "make_embedder", lambda embedder, progress: TopicEmbedder())
    script = _script()
    assert script.RESULTS.parent.name == "results" and script.RESULTS.parent.parent.name == "benchmarks"
    out = tmp_path / "out" / "returns"
    argv = ["--sets", str(_corpus(tmp_path)), "--methods", "bpseg", "bpseg-ungrouped", "one-segment"]
    argv += ["--limit", "1", "--out", str(out), "--no-progress", "--records", str(tmp_path / "records.json")]
    assert script.main(argv) == 0
    md = (tmp_path / "out" / "returns.md").read_text()
    assert md == capsys.readouterr().out[: len(md)]
    assert "at most 1 documents per set (`--limit 1`)" in md and "changed the partition of" in md
    data = json.loads((tmp_path / "out" / "returns.json").read_text())
    assert "records" not in data and data["config"]["limit"] == 1 and "--limit 1" in data["config"]["command"]
    (summary,) = data["sets"].values()
    assert list(summary["summary"]) == ["bpseg", "bpseg-ungrouped", "one-segment"]
    assert summary["forced_differs"] is None and summary["grouping_changed"] in (0, 1)
    assert len(json.loads((tmp_path / "records.json").read_text())) == 3
