"""The count table of issue 51 (bpseg_bench.count_table, benchmarks/count_logo.py) on planted data."""

from __future__ import annotations

import importlib.util
import json
import math
from pathlib import Path

import numpy as np
import pytest
from planted import planted_blocks

from bpseg_bench import count_table
from bpseg_bench.bench_corpus import run_one
from bpseg_bench.corpus import LabelledDocument
from bpseg_bench.count_table import (
    COLUMNS,
    DEV_SETS,
    GENRE_SETS,
    SETS,
    VAL_SETS,
    check_sets,
    render_markdown,
    run_count_table,
    score_document,
    summarize,
    target,
)
from bpseg_bench.methods import METHODS, make_estimator

#: The trivial columns: a test of the scoring that fits nothing slow.
FAST = {"equal": "equal-blocks", "one segment": "one-segment", "KCPD-auto": "kcpd-auto"}
SCRIPT = Path(__file__).resolve().parents[2] / "benchmarks" / "count_logo.py"


def _doc(sizes, doc_id="planted", order=None, unlabelled=()):
    X, labels = planted_blocks(sizes, noise=0.05, order=order)
    gold = [None if i in unlabelled else int(x) for i, x in enumerate(labels)]
    units = tuple(f"{doc_id} unit {i} of topic {x}" for i, x in enumerate(labels))
    return LabelledDocument(doc_id, units, tuple(gold)), X


def test_columns_are_registered_methods():
    assert set(COLUMNS.values()) <= set(METHODS)
    assert COLUMNS["default"] == "bpseg"  # what `bpseg bench corpus` runs as the default
    method = METHODS["bpseg-true-k"]
    assert method.uses_gold_k and method.gold_k_kind == "runs" and method.uses_weights and method.uses_words
    est = make_estimator("bpseg-true-k", 10, 3, gold_k=4)
    assert est.n_segments == 4 and est.random_state == 3 and est.structure == "auto"
    assert make_estimator("bpseg-true-k", 3, 0, gold_k=5).n_segments == 3  # never more than the units


def test_sets():
    assert list(SETS)[: len(DEV_SETS)] == list(DEV_SETS)
    assert all(SETS[s][1] == "dev" for s in DEV_SETS) and all(SETS[s][1] == "val" for s in VAL_SETS)
    assert set(GENRE_SETS.values()) <= set(DEV_SETS) and len(GENRE_SETS) == 5
    assert check_sets(["peps-val", "choi-1", "peps-val"]) == ["choi-1", "peps-val"]  # dev first, once each
    with pytest.raises(ValueError, match="unknown set"):
        check_sets(["choi-1", "qmsum-test"])
    with pytest.raises(ValueError, match="no sets"):
        check_sets([])


def test_score_document_planted():
    doc, X = _doc([6, 6, 6])
    rows = {r["method"]: r for r in score_document(doc, X, columns=FAST)}
    assert list(rows) == list(FAST)
    eq = rows["equal"]
    assert (eq["ari"], eq["pk"], eq["runs_per_gold"], eq["gold_runs"], eq["runs"]) == (1.0, 0.0, 1.0, 3, 3)
    one = rows["one segment"]
    assert one["ari"] == 0.0 and one["runs"] == 1 and one["runs_per_gold"] == pytest.approx(1 / 3)
    assert one["pk"] > 0 and one["n_units"] == 18 and one["doc"] == "planted"
    assert all(r["seconds"] >= 0 for r in rows.values())


def test_score_document_counts_labelled_units_and_gold_runs():
    # topics 0 1 0: 2 gold segments but 3 runs; the unlabelled unit 0 is not scored
    doc, X = _doc([5, 5, 5], order=[0, 1, 0], unlabelled={0})
    rows = {r["method"]: r for r in score_document(doc, X, columns=FAST)}
    assert rows["equal"]["gold_runs"] == 3  # equal blocks get the gold runs, not the 2 segments
    assert rows["equal"]["runs"] == 3 and rows["equal"]["runs_per_gold"] == 1.0
    assert rows["one segment"]["runs_per_gold"] == pytest.approx(1 / 3)


def test_default_column_is_the_corpus_benchmarks_default():
    doc, X = _doc([8, 8, 8], doc_id="defaults")
    (row,) = score_document(doc, X, seed=0, columns={"default": "bpseg"})
    corpus = run_one(doc, X, "bpseg", 0)
    assert (row["ari"], row["pk"], row["runs_per_gold"]) == (corpus["ari"], corpus["pk"], corpus["runs_per_segment"])


def _rows(method, values):
    return [{"method": method, "ari": a, "pk": p, "runs_per_gold": r, "seconds": 0.1} for a, p, r in values]


def test_summarize_means_and_median():
    rows = _rows("default", [(0.5, 0.2, 1.0), (0.7, 0.4, 3.0), (0.9, float("nan"), 0.5)]) + _rows(
        "equal", [(0.1, 0.3, 1.0)]
    )
    out = summarize(rows, ["default", "equal", "one segment"])
    assert set(out) == {"default", "equal"}  # no rows, no cell
    d = out["default"]
    assert d["ari"] == pytest.approx(0.7) and d["pk"] == pytest.approx(0.3)  # NaN-aware
    assert d["runs_per_gold"] == pytest.approx(1.5) and d["runs_median"] == 1.0 and d["n_docs"] == 3


def _summary(ari, pk, median, equal_ari=0.5, one_pk=0.4):
    return {
        "default": {"ari": ari, "pk": pk, "runs_median": median},
        "equal": {"ari": equal_ari},
        "one segment": {"pk": one_pk},
    }


@pytest.mark.parametrize(
    "summary, expected",
    [
        (_summary(0.56, 0.3, 1.0), {"ari": True, "pk": True, "runs": True, "pass": True}),
        (_summary(0.54, 0.3, 1.0), {"ari": False, "pk": True, "runs": True, "pass": False}),
        (_summary(0.6, 0.4, 1.0), {"ari": True, "pk": False, "runs": True, "pass": False}),  # not below
        (_summary(0.6, 0.3, 2 / 3), {"ari": True, "pk": True, "runs": True, "pass": True}),  # 1.5x under 1
        (_summary(0.6, 0.3, 1.5), {"ari": True, "pk": True, "runs": True, "pass": True}),
        (_summary(0.6, 0.3, 0.66), {"ari": True, "pk": True, "runs": False, "pass": False}),
        (_summary(0.6, 0.3, 1.51), {"ari": True, "pk": True, "runs": False, "pass": False}),
        (_summary(0.6, float("nan"), 1.0), {"ari": True, "pk": None, "runs": True, "pass": None}),
        (
            {"default": {"ari": 0.6, "pk": 0.1, "runs_median": 1.0}},
            {"ari": None, "pk": None, "runs": True, "pass": None},
        ),
    ],
)
def test_target(summary, expected):
    assert target(summary) == expected


def test_run_and_render(hash_embedder):
    docs = {
        "choi-1": [_doc([5, 5, 5], "c1")[0], _doc([4, 8], "c2")[0]],
        "lessonlink-val": [_doc([6, 6], "l1")[0]],
        "tinyrec-fine": [_doc([3, 3, 3, 3], "t1")[0]],
    }
    result = run_count_table(docs, embedder=hash_embedder, progress=False, columns=FAST)
    assert list(result["sets"]) == ["choi-1", "tinyrec-fine", "lessonlink-val"]  # dev first
    s = result["sets"]["choi-1"]
    assert (s["genre"], s["split"], s["documents"], s["units"], s["gold_runs"]) == ("Choi", "dev", 2, 27, 2.5)
    assert s["summary"]["equal"]["n_docs"] == 2 and s["target"]["ari"] is None  # no default column
    assert len(result["records"]) == 4 * len(FAST)
    assert [line["genre"] for line in result["logo"]] == ["Choi"]  # TinyRec's line reads the coarse level
    result["config"]["limit"] = 2
    md = render_markdown(result, "python benchmarks/count_logo.py --limit 2")
    assert "leave-one-genre-out here just means reporting each development genre separately" in md
    assert "median runs per gold segment within 1.5x of 1" in md and "`--limit 2`" in md
    assert "| choi-1 | dev | 2 | 2.5 |" in md and "| lessonlink-val | val | 1 |" in md
    assert "| TinyRec (fine, reported) | tinyrec-fine |" in md
    assert md.index("| choi-1 | dev") < md.index("| lessonlink-val | val")
    json.dumps(result, allow_nan=True)  # plain data


def test_jobs_give_the_same_records(hash_embedder):
    docs = {"peps-val": [_doc([5, 7, 4], f"p{i}")[0] for i in range(3)]}
    one = run_count_table(docs, embedder=hash_embedder, progress=False, columns=FAST)
    two = run_count_table(docs, embedder=hash_embedder, progress=False, columns=FAST, jobs=2)
    strip = lambda rs: [{k: v for k, v in r.items() if k != "seconds"} for r in rs]
    assert strip(one["records"]) == strip(two["records"])
    with pytest.raises(ValueError, match="jobs must be a positive integer"):
        run_count_table(docs, embedder=hash_embedder, progress=False, columns=FAST, jobs=0)


def _script():
    spec = importlib.util.spec_from_file_location("count_logo", SCRIPT)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_script_writes_the_table(tmp_path, monkeypatch, capsys, hash_embedder):
    from bpseg_bench import tinyrec

    root = tmp_path / "tinyrec"
    root.mkdir()
    rec = {"id": "m1", "units": [f"utterance {i}" for i in range(12)], "coarse": [0] * 6 + [1] * 6}
    rec["fine"] = [0] * 3 + [1] * 3 + [2] * 6
    (root / "dev.jsonl").write_text(json.dumps(rec) + "\n", encoding="utf-8")
    monkeypatch.setenv(tinyrec.ENV_VAR, str(root))
    monkeypatch.setattr(count_table, "make_embedder", lambda embedder, progress: hash_embedder)
    monkeypatch.setattr(count_table, "COLUMNS", FAST)
    script = _script()
    assert script.RESULTS.parent.name == "results" and script.RESULTS.parent.parent.name == "benchmarks"
    out = tmp_path / "out" / "count"
    argv = ["--sets", "tinyrec-fine", "tinyrec-coarse", "--limit", "1", "--out", str(out), "--no-progress"]
    assert script.main([*argv, "--records", str(tmp_path / "records.json")]) == 0
    md = (tmp_path / "out" / "count.md").read_text()
    assert md == capsys.readouterr().out[: len(md)]
    assert "| tinyrec-coarse | dev | 1 | 2.0 |" in md and "| TinyRec | tinyrec-coarse | 1 |" in md
    data = json.loads((tmp_path / "out" / "count.json").read_text())
    assert "records" not in data and data["config"]["limit"] == 1 and "--limit 1" in data["config"]["command"]
    assert data["sets"]["tinyrec-coarse"]["summary"]["equal"]["ari"] == 1.0
    assert not math.isnan(data["sets"]["tinyrec-fine"]["summary"]["one segment"]["pk"])
    records = json.loads((tmp_path / "records.json").read_text())
    assert len(records) == 2 * len(FAST) and {r["set"] for r in records} == {"tinyrec-coarse", "tinyrec-fine"}
    with pytest.raises(SystemExit):
        script.parse_args(["--sets", "qmsum-test"])


def test_equal_blocks_miss_unequal_runs():
    doc, X = _doc([3, 12, 5], "odd")
    rows = score_document(doc, X, columns=FAST)
    summary = summarize([{"set": "x", **r} for r in rows], FAST)
    assert summary["equal"]["ari"] < 1.0  # equal blocks miss unequal runs
    assert np.isfinite(summary["KCPD-auto"]["pk"])
