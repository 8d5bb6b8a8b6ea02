"""Choi benchmark in-process: a small real slice with a stand-in embedder, aggregation, reports."""

from __future__ import annotations

import json

import numpy as np
import pytest

from bpseg_bench import bench_choi
from bpseg_bench.bench_choi import render_markdown, run_choi_benchmark, summarize, write_choi_report


def _record(doc, rng, method, ari, s):
    return {
        "doc": doc,
        "set": s,
        "range": rng,
        "method": method,
        "seconds": 0.5,
        "pred_segments": 3,
        "ari": ari,
        "nmi": ari,
        "ami": ari,
        "pk": 1 - ari,
        "windowdiff": 1 - ari,
    }


def test_summarize_means_stds_and_held_out():
    records = [_record("a", "3-5", "m", 1.0, 1), _record("b", "3-5", "m", 0.5, 2), _record("c", "3-5", "m", 0.0, 2)]
    summary = summarize(records, ["m"])
    cell = summary["all"]["3-5"]["m"]
    assert cell["n_docs"] == 3 and cell["ari"]["mean"] == pytest.approx(0.5)
    assert cell["ari"]["std"] == pytest.approx(np.std([1.0, 0.5, 0.0]))
    held = summary["held_out"]["3-5"]["m"]  # set 1 (tuning) excluded
    assert held["n_docs"] == 2 and held["ari"]["mean"] == pytest.approx(0.25)
    assert "held_out" not in summarize(records[1:], ["m"])


def test_run_small_slice_and_write_reports(choi_dir, hash_embedder, tmp_path):
    result = run_choi_benchmark(
        choi_dir, sets=[1, 2], ranges=["3-5"], methods=["kmeans", "graphseg", "texttiling"],
        limit=1, embedder=hash_embedder, progress=False,
    )  # fmt: skip
    assert hash_embedder.calls == 1  # every sentence embedded in one call
    assert len(result["records"]) == 2 * 3
    assert {r["doc"] for r in result["records"]} == {"1/3-5/0", "2/3-5/0"}
    assert set(result["summary"]) == {"all", "held_out"}
    assert result["config"]["sets"] == [1, 2] and result["config"]["ranges"] == ["3-5"]
    for r in result["records"]:
        assert -1 <= r["ari"] <= 1 and 0 <= r["pk"] <= 1
    md = render_markdown(result)
    assert "| kmeans |" in md and "Held-out set 2" in md and "3-5 ARI" in md
    paths = write_choi_report(result, tmp_path / "out")
    assert paths["png"].read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
    data = json.loads(paths["json"].read_text())
    assert len(data["records"]) == 6 and data["summary"]["all"]["3-5"]["kmeans"]["n_docs"] == 2
    assert paths["markdown"].read_text() == md


def test_bad_options_fail_before_embedding(choi_dir, hash_embedder):
    for kwargs in ({"methods": ["nope"]}, {"methods": []}, {"seed": -1}, {"sets": [7]}, {"limit": 0}):
        with pytest.raises(ValueError):
            run_choi_benchmark(choi_dir, embedder=hash_embedder, progress=False, **kwargs)
    assert hash_embedder.calls == 0


def test_report_is_all_or_nothing(choi_dir, hash_embedder, tmp_path, monkeypatch):
    result = run_choi_benchmark(
        choi_dir, sets=[1], ranges=["3-5"], methods=["kmeans"], limit=1, embedder=hash_embedder, progress=False
    )
    monkeypatch.setattr(bench_choi, "_render_png", lambda result: 1 / 0)
    with pytest.raises(ZeroDivisionError):
        write_choi_report(result, tmp_path / "out")
    assert not (tmp_path / "out").exists()
