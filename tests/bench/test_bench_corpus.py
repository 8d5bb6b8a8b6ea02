"""The dataset-agnostic benchmark: a run on a tiny JSONL corpus, the report, and ``bpseg bench corpus``."""

from __future__ import annotations

import json
import os
import subprocess
import sys

import numpy as np
import pytest

from bpseg_bench import bench_corpus, runner
from bpseg_bench.bench_corpus import (
    CORPUS_METHODS,
    KEYS,
    load_dataset,
    render_corpus_markdown,
    run_corpus_benchmark,
    write_corpus_report,
)
from bpseg_bench.corpus import LabelledDocument, read_corpus, write_corpus
from bpseg_bench.methods import METHODS
from bpseg_pgm.cli.main import main

#: Fast methods covering every kind: no gold k, gold runs, gold topics, and sample weights.
FAST_METHODS = ["one-segment", "equal-blocks", "kcpd-true-k", "kmeans-true-k", "bpseg-contiguous",
                "bpseg-contiguous-true-k", "kcpd-auto", "semantic-breakpoints"]  # fmt: skip


def _units(prefix, n):
    return [f"{prefix} sentence number {i} ." for i in range(n)]


def tiny_docs():
    """Topics that return (A B A: 2 topics, 3 runs), an unlabelled unit, string and int labels."""
    a = LabelledDocument(
        "returns", tuple(_units("alpha", 4) + _units("beta", 3) + _units("alpha again", 3)),
        ("A",) * 4 + ("B",) * 3 + ("A",) * 3,
    )  # fmt: skip
    b = LabelledDocument(
        "partial", tuple(_units("gamma", 5) + ["Yeah ."] + _units("delta", 4)), (0,) * 5 + (None,) + (1,) * 4
    )
    c = LabelledDocument("single", tuple(_units("eps", 6)), ("x",) * 6)
    return [a, b, c]


@pytest.fixture
def corpus_file(tmp_path):
    return write_corpus(tiny_docs(), tmp_path / "tiny.jsonl")


@pytest.fixture
def result(corpus_file, hash_embedder, monkeypatch):
    seen = []
    real = runner.make_estimator

    def spy(name, n, seed, gold_k=None):
        seen.append((name, n, gold_k))
        return real(name, n, seed, gold_k=gold_k)

    monkeypatch.setattr(runner, "make_estimator", spy)
    docs = load_dataset(str(corpus_file))
    out = run_corpus_benchmark({"tiny": docs}, methods=FAST_METHODS + ["one-segment"], embedder=hash_embedder,
                               progress=False)  # fmt: skip
    out["_seen"] = seen
    out["_embed_calls"] = hash_embedder.calls
    return out


def test_summary_and_records(result):
    assert set(result) >= {"config", "machine", "seconds", "summary", "records"}
    assert list(result["config"]["methods"]) == FAST_METHODS  # duplicates dropped, order kept
    assert result["config"]["datasets"] == {"tiny": {"documents": 3, "units": 26}}
    assert result["config"]["embedder"] == "hash-embedder" and result["config"]["seed"] == 0
    assert result["_embed_calls"] == 1  # every unit of a dataset embedded in one call
    table = result["summary"]["tiny"]
    assert list(table) == FAST_METHODS
    for cell in table.values():
        assert cell["n_docs"] == 3 and cell["seconds_per_doc"] >= 0
        assert set(cell) == {"n_docs", "seconds_per_doc", *KEYS}
        for key in KEYS:
            extra = {"topics", "joined", "pooled"} if key == "spans_joined" else set()
            assert set(cell[key]) == {"mean", "std", "n"} | extra
    records = result["records"]
    assert len(records) == 3 * len(FAST_METHODS)
    assert {r["doc"] for r in records} == {"returns", "partial", "single"}
    for r in records:
        assert r["dataset"] == "tiny" and r["n_units"] == 10 - 4 * (r["doc"] == "single")
        assert set(KEYS) <= set(r)
    one = [r for r in records if r["method"] == "one-segment"]
    assert all(r["segments_found"] == 1.0 for r in one)
    assert table["one-segment"]["gold_segments"]["mean"] == pytest.approx((2 + 2 + 1) / 3)
    # purity of returning topics: only the A B A document has one, so one finite value per method
    assert table["one-segment"]["purity_returning"] == {"mean": 1.0, "std": 0.0, "n": 1}
    assert table["one-segment"]["spans_joined"] == {"mean": 1.0, "std": 0.0, "n": 1, "topics": 1, "joined": 1,
                                                    "pooled": 1.0}  # fmt: skip
    assert [r["returning_topics"] for r in one] == [1.0, 0.0, 0.0]


def test_gold_k_methods_get_the_gold_count(result):
    runs = {"returns": 3, "partial": 2, "single": 1}  # contiguous oracles: gold runs (A B A: 3)
    topics = {"returns": 2, "partial": 2, "single": 1}  # k-means: gold topics (A B A: 2)
    lengths = {"returns": 10, "partial": 10, "single": 6}
    expected = []
    for doc in ("returns", "partial", "single"):
        for name in FAST_METHODS:
            method = METHODS[name]
            gold = None if not method.uses_gold_k else runs[doc] if method.gold_k_kind == "runs" else topics[doc]
            expected.append((name, lengths[doc], gold))
    assert result["_seen"] == expected
    records = {(r["doc"], r["method"]): r for r in result["records"]}
    for doc, r in runs.items():  # the contiguous oracles cut exactly the gold number of runs
        assert records[(doc, "equal-blocks")]["segments_found"] == r
        assert records[(doc, "bpseg-contiguous-true-k")]["segments_found"] == r
        assert records[(doc, "equal-blocks")]["runs_per_segment"] == 1.0


def test_report_files(result, tmp_path):
    clean = {k: v for k, v in result.items() if not k.startswith("_")}
    paths = write_corpus_report(clean, tmp_path / "out")
    assert {p.name for p in paths.values()} == {"corpus_results.md", "corpus_results.json", "corpus_results.png"}
    assert sorted(p.name for p in (tmp_path / "out").iterdir()) == sorted(p.name for p in paths.values())
    md = paths["markdown"].read_text(encoding="utf-8")
    assert md == render_corpus_markdown(clean)
    assert "## tiny: 3 documents, 26 units, 1.7 gold segments each, 1 returning topics" in md
    for m in FAST_METHODS:
        assert f"| {m} |" in md and f"- `{m}`: {METHODS[m].description}" in md
    data = json.loads(paths["json"].read_text())  # strict JSON: NaN written as null
    assert data["summary"]["tiny"]["equal-blocks"]["n_docs"] == 3
    partial = [r for r in data["records"] if r["doc"] == "partial"]
    assert all(r["purity_returning"] is None and r["spans_joined"] is None for r in partial)
    assert paths["png"].read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"


def _record(doc, returning, joined, ari):
    return {"dataset": "d", "method": "m", "doc": doc, "seconds": 0.0,
            **{k: 0.0 for k in KEYS}, "ari": ari, "returning_topics": returning, "spans_joined": joined,
            "purity_returning": joined if returning else float("nan")}  # fmt: skip


def test_spans_joined_pooled_over_topics():
    # one document joins 0 of its 1 returning topic, another 3 of 3, a third has none: documents' mean 0.5,
    # topics' 3/4: the set-level figure counts topics
    records = [_record("a", 1.0, 0.0, 0.2), _record("b", 3.0, 1.0, 0.4), _record("c", 0.0, float("nan"), 0.9)]
    cell = bench_corpus.summarize(records, ["m"])["d"]["m"]
    assert cell["spans_joined"] == {"mean": 0.5, "std": 0.5, "n": 2, "topics": 4, "joined": 3, "pooled": 0.75}
    assert cell["returning_topics"]["mean"] == pytest.approx(4 / 3)
    assert bench_corpus.summarize([_record("a", 2.0, 0.5, 0.1)], ["m"])["d"]["m"]["spans_joined"]["joined"] == 1
    none = bench_corpus.summarize([records[2]], ["m"])["d"]["m"]["spans_joined"]
    assert none["topics"] == 0 and none["joined"] == 0 and np.isnan(none["pooled"])
    config = {"embedder": "e", "seed": 0, "methods": {"m": "a method"}, "datasets": {"d": {"documents": 3, "units": 9}}}
    result = {"config": config,
              "machine": {"cpu": "cpu", "cores": 2}, "seconds": {"total": 1.0, "embedding": 0.5},
              "summary": bench_corpus.summarize(records, ["m"])}  # fmt: skip
    md = render_corpus_markdown(result)
    assert "## d: 3 documents, 9 units, 0.0 gold segments each, 4 returning topics" in md
    assert "joined (ret.) |" in md and "| 0.75 (3/4) |" in md and "ret. topics" not in md
    assert "pooled over the topics of the dataset" in md
    result["summary"] = bench_corpus.summarize([records[2]], ["m"])
    assert "| n/a | n/a | 0.000 |" in render_corpus_markdown(result)  # purity and joined: no returning topic


def test_bad_arguments(hash_embedder):
    docs = {"d": tiny_docs()}
    with pytest.raises(ValueError, match="unknown method"):
        run_corpus_benchmark(docs, methods=["nope"], embedder=hash_embedder)
    with pytest.raises(ValueError, match="no methods"):
        run_corpus_benchmark(docs, methods=[], embedder=hash_embedder)
    with pytest.raises(ValueError, match="no datasets"):
        run_corpus_benchmark({}, methods=["one-segment"], embedder=hash_embedder)
    for seed in (-1, 1.5, True):
        with pytest.raises(ValueError, match="seed"):
            run_corpus_benchmark(docs, methods=["one-segment"], seed=seed, embedder=hash_embedder)
    assert hash_embedder.calls == 0  # checked before any embedding
    assert set(CORPUS_METHODS) <= set(METHODS)


def test_load_dataset(corpus_file, tmp_path, monkeypatch):
    assert [d.doc_id for d in load_dataset(str(corpus_file), limit=2)] == ["returns", "partial"]
    monkeypatch.chdir(tmp_path)
    assert len(load_dataset("tiny.jsonl")) == 3  # a relative path
    with pytest.raises(ValueError, match="unknown dataset 'nope'"):
        load_dataset("nope")
    with pytest.raises(ValueError, match="does not exist"):
        load_dataset("missing.jsonl")
    for bad in (0, -1, 2.5, True):
        with pytest.raises(ValueError, match="limit"):
            load_dataset(str(corpus_file), limit=bad)


def test_load_qmsum_by_name(tmp_path):
    root = tmp_path / "q"
    (root / "val").mkdir(parents=True)
    meeting = {"topic_list": [{"topic": "t", "relevant_text_span": [["0", "1"]]}],
               "meeting_transcripts": [{"speaker": "A", "content": "Hi ."}, {"speaker": "B", "content": "Yes ."}]}  # fmt: skip
    (root / "val" / "M1.json").write_text(json.dumps(meeting))
    (doc,) = load_dataset("qmsum-val", data_dir=root)
    assert doc.doc_id == "qmsum/val/M1" and doc.labels == (0, 0)


def _fake_qmsum(root, split, meetings):
    (root / split).mkdir(parents=True, exist_ok=True)
    for name, (n_turns, topics) in meetings.items():
        meeting = {"topic_list": [{"topic": f"t{i}", "relevant_text_span": spans} for i, spans in enumerate(topics)],
                   "meeting_transcripts": [{"speaker": "A", "content": f"{name} turn {i} about things ."}
                                           for i in range(n_turns)]}  # fmt: skip
        (root / split / f"{name}.json").write_text(json.dumps(meeting))


def test_load_qmsum_returns(tmp_path, hash_embedder):
    root = tmp_path / "q"
    _fake_qmsum(root, "train", {
        "A1": (6, [[[0, 1], [4, 5]], [[2, 3]]]),  # t0 returns after t1
        "B2": (6, [[[0, 2]], [[3, 5]]]),  # no return
        "C3": (6, [[[0, 1], [3, 4]], [[5, 5]]]),  # t0's spans apart only by an unlabelled turn: no return
        "D4": (9, [[[0, 1], [4, 5]], [[2, 3], [6, 8]]]),  # both return
    })  # fmt: skip
    _fake_qmsum(root, "val", {"V1": (4, [[[0, 3]]])})
    docs = load_dataset("qmsum-train-returns", data_dir=root)
    assert [d.doc_id for d in docs] == ["qmsum/train/A1", "qmsum/train/D4"]
    assert docs[0].labels == (0, 0, 1, 1, 0, 0)  # one gold label per topic, over all its spans
    assert [d.doc_id for d in load_dataset("qmsum-train-returns", limit=1, data_dir=root)] == ["qmsum/train/A1"]
    assert len(load_dataset("qmsum-train", data_dir=root)) == 4  # the whole split is unchanged
    with pytest.raises(ValueError, match="no QMSum val meeting has a topic that returns"):
        load_dataset("qmsum-val-returns", data_dir=root)
    assert {"qmsum-train-returns", "qmsum-val-returns"} <= set(bench_corpus.DATASET_NAMES)
    # the baselines of the returns study run on them; 3 returning topics in all
    methods = ["bpseg", "bpseg-ungrouped", "bpseg-topics", "kmeans-true-k", "bpseg-contiguous"]
    out = run_corpus_benchmark({"r": docs}, methods=methods, embedder=hash_embedder, progress=False)
    for m in methods:
        cell = out["summary"]["r"][m]
        assert cell["n_docs"] == 2 and cell["spans_joined"]["topics"] == 3
        assert 0 <= cell["spans_joined"]["joined"] <= 3 and np.isfinite(cell["ari"]["mean"])


def test_qmsum_returns_real_data():
    from bpseg_bench.qmsum import resolve_qmsum_dir
    from bpseg_pgm.evaluation.metrics import returning_labels

    try:
        resolve_qmsum_dir()
    except ValueError as exc:
        pytest.skip(f"QMSum data not available: {exc}")
    docs = load_dataset("qmsum-train-returns")
    every = {d.doc_id: d for d in load_dataset("qmsum-train")}
    assert docs and all(every[d.doc_id] == d and returning_labels(d.gold) for d in docs)
    rest = [d for i, d in every.items() if i not in {x.doc_id for x in docs}]
    assert not any(returning_labels(d.gold) for d in rest)
    assert len(docs) == 20 and sum(len(returning_labels(d.gold)) for d in docs) == 28  # the data as shipped


def test_load_choi_by_name(choi_dir):
    docs = load_dataset("choi-1", limit=3, data_dir=choi_dir)
    assert len(docs) == 3 and len({d.meta["range"] for d in docs}) >= 2  # spread over the ranges
    assert all(isinstance(d, LabelledDocument) and d.n_segments >= 2 for d in docs)


def test_load_returning_choi_sets_by_name(choi_dir):
    names = ("interleaved", "interleaved-234", "choi-1-rr", "choi-234-rr")
    assert set(names) <= set(bench_corpus.DATASET_NAMES)
    got = {name: load_dataset(name, limit=4, data_dir=choi_dir) for name in names}
    for name, docs in got.items():
        assert [d.doc_id for d in docs] == [f"{name}/0/{i}" for i in range(4)]
        assert all(isinstance(d, LabelledDocument) and len(set(d.labels)) >= 2 for d in docs)
    assert got["interleaved"][0].meta == {"set": 1, "range": "interleaved"}
    assert got["interleaved-234"][0].meta == {"set": 4, "range": "interleaved-234"}  # set 1's sources left out
    assert got["choi-1-rr"][0].meta["sets"] == [1] and got["choi-234-rr"][0].meta["sets"] == [4]
    assert len(load_dataset("choi-234-rr", data_dir=choi_dir)) == 60  # 60 without a limit


# -- the command line -----------------------------------------------------------------------------------


def bpseg(*args, cwd=None, env=None):
    return subprocess.run(
        [sys.executable, "-m", "bpseg_pgm.cli.main", *args],
        capture_output=True, text=True, cwd=cwd, timeout=300, env=env,
    )  # fmt: skip


TWO_DOCS = [
    {"id": "pets", "units": ["The cat sat on the mat.", "Cats like warm places.", "My cat sleeps all day.",
                             "Stocks fell sharply today.", "The market lost two percent.", "Investors sold bank shares."],
     "labels": ["cats", "cats", "cats", "money", "money", "money"]},
    {"id": "weather", "units": ["Rain is expected tomorrow.", "Bring an umbrella.", "Hello everyone.",
                                "The striker scored twice.", "The team won the cup.", "Fans celebrated all night."],
     "labels": [0, 0, None, 1, 1, 1]},
]  # fmt: skip


def test_cli_corpus_run(tmp_path):
    corpus = tmp_path / "two.jsonl"
    corpus.write_text("".join(json.dumps(d) + "\n" for d in TWO_DOCS), encoding="utf-8")
    out = tmp_path / "out"
    methods = ["one-segment", "equal-blocks", "kcpd-true-k", "bpseg-contiguous", "kcpd-auto", "semantic-breakpoints"]
    proc = bpseg("bench", "corpus", str(corpus), "--methods", *methods, "--no-progress",
                 "--cache-dir", str(tmp_path / "cache"), "--out", str(out))  # fmt: skip
    assert proc.returncode == 0, proc.stderr
    assert sorted(p.name for p in out.iterdir()) == ["corpus_results.json", "corpus_results.md", "corpus_results.png"]
    data = json.loads((out / "corpus_results.json").read_text())
    table = data["summary"][str(corpus)]
    assert list(table) == methods and all(cell["n_docs"] == 2 for cell in table.values())
    assert table["equal-blocks"]["segments_found"]["mean"] == 2.0  # two gold runs per document
    assert table["one-segment"]["segments_found"]["mean"] == 1.0
    assert data["config"]["datasets"][str(corpus)] == {"documents": 2, "units": 12}
    md = (out / "corpus_results.md").read_text(encoding="utf-8")
    assert md in proc.stdout and "| bpseg-contiguous |" in md
    assert "Wrote " in proc.stdout


def test_cli_errors_are_one_line_exit_2(tmp_path, capsys):
    out = tmp_path / "out"
    assert main(["bench", "corpus", "no-such-dataset", "--out", str(out), "--no-progress"]) == 2
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 1 and err[0].startswith("bpseg: error: unknown dataset 'no-such-dataset'")
    bad = tmp_path / "bad.jsonl"
    bad.write_text(json.dumps(TWO_DOCS[0]) + "\n" + '{"id": "x", "units": ["a"]\n', encoding="utf-8")
    assert main(["bench", "corpus", str(bad), "--out", str(out), "--no-progress"]) == 2
    err = capsys.readouterr().err.strip().splitlines()
    assert err == [f"bpseg: error: {bad} line 2: not valid JSON (Expecting ',' delimiter)"]
    good = write_corpus(tiny_docs(), tmp_path / "good.jsonl")
    assert main(["bench", "corpus", str(good), "--methods", "nope", "--out", str(out)]) == 2
    assert "unknown method" in capsys.readouterr().err
    assert main(["bench", "export", "nope", "-o", str(tmp_path / "x.jsonl")]) == 2
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 1 and err[0].startswith("bpseg: error: unknown dataset 'nope'")
    assert not out.exists() and not (tmp_path / "x.jsonl").exists()


def test_cli_corpus_with_an_embedding_context_names_it(tmp_path):
    corpus = tmp_path / "two.jsonl"
    corpus.write_text("".join(json.dumps(d) + "\n" for d in TWO_DOCS), encoding="utf-8")
    out = tmp_path / "out"
    proc = bpseg("bench", "corpus", str(corpus), "--methods", "bpseg-contiguous", "--no-progress",
                 "--cache-dir", str(tmp_path / "cache"), "--embedding-context", "mix", "--context-window", "2",
                 "--out", str(out))  # fmt: skip
    assert proc.returncode == 0, proc.stderr
    data = json.loads((out / "corpus_results.json").read_text())
    assert data["config"]["embedder"].endswith("|context=mix:2:0.5")  # the report names the embeddings it used


@pytest.mark.parametrize(
    "extra, message",
    [
        (["--context-window", "2"], "bpseg: error: --context-window needs --embedding-context"),
        (["--embedding-context", "mix", "--context-window", "x"], "bpseg: error: --context-window must be an integer"),
        (["--model", "/no/such/model"], "bpseg: error: model directory does not exist: /no/such/model"),
    ],
    ids=["window-alone", "window-not-int", "no-model"],
)
def test_cli_embedder_options_are_checked(extra, message, tmp_path, capsys):
    good = write_corpus(tiny_docs(), tmp_path / "good.jsonl")
    out = tmp_path / "out"
    assert main(["bench", "corpus", str(good), "--methods", "one-segment", "--out", str(out), *extra]) == 2
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 1 and err[0].startswith(message), err
    assert not out.exists()


def test_cli_error_in_a_real_process(tmp_path):
    proc = bpseg("bench", "corpus", "no-such-dataset", "--out", str(tmp_path / "out"))
    assert proc.returncode == 2 and "Traceback" not in proc.stderr
    assert proc.stderr.strip().splitlines() == [
        f"bpseg: error: unknown dataset 'no-such-dataset': give a .jsonl corpus or one of "
        f"{', '.join(bench_corpus.DATASET_NAMES)}"
    ]


def test_cli_export_choi(choi_dir, tmp_path):
    target = tmp_path / "choi.jsonl"
    env = {**os.environ, "BPSEG_CHOI_DIR": str(choi_dir)}
    proc = bpseg("bench", "export", "choi-1", "--limit", "2", "-o", str(target), env=env)
    assert proc.returncode == 0, proc.stderr
    assert proc.stdout == f"Wrote 2 documents to {target}\n"
    docs = read_corpus(target)
    assert len(docs) == 2 and all(d.doc_id.startswith("1/") for d in docs)
    assert all(len(d) == len(d.labels) and d.n_segments >= 2 for d in docs)
