"""segment_corpus on a real Dask LocalCluster: rows, spans, labels, error rows, resume, interruption."""

import json

import numpy as np
import pyarrow.parquet as pq
import pytest

from bpseg_pgm.corpus import COLUMNS, read_documents, segment_corpus
from bpseg_pgm.corpus.store import SETTINGS_FILE, CorpusStore
from bpseg_pgm.text.pipeline import segment_sentences, segment_text

BAD = {"bin.txt": "binary", "empty.txt": "text is empty", "one.txt": "found 1 sentence(s)"}
TASK_CHARS = 400  # several tasks for these few documents, so two workers share them


def _read(out):
    rows = pq.read_table(out).to_pylist()
    assert rows and set(rows[0]) == set(COLUMNS)
    return rows


def _by_doc(rows):
    docs = {}
    for r in rows:
        docs.setdefault(r["doc"], []).append(r)
    return {d: sorted(rs, key=lambda r: -1 if r["sentence"] is None else r["sentence"]) for d, rs in docs.items()}


def _labels(out):
    return {d: [r["label"] for r in rs] for d, rs in _by_doc(_read(out)).items() if rs[0]["error"] is None}


def test_local_cluster_rows_spans_labels_errors_and_resume(corpus_dir, tmp_path):
    out = tmp_path / "out.parquet"
    cache = tmp_path / "cache_two_workers"  # cold: the workers embed
    report = segment_corpus(corpus_dir, out, workers=2, cache_dir=cache, task_chars=TASK_CHARS, show_progress=False)
    assert (report.n_documents, report.n_segmented, report.n_failed, report.n_skipped) == (6, 3, 3, 0)
    docs = _by_doc(_read(out))
    assert set(docs) == {d.id for d in read_documents(corpus_dir)}
    for name, why in BAD.items():  # one error row each, every other column null
        (row,) = docs[name]
        assert why in row["error"] and row["sentence"] is None and row["label"] is None
    n_sentences = 0
    for doc in read_documents(corpus_dir):
        if doc.id in BAD:
            continue
        rows = docs[doc.id]
        alone = segment_text(doc.text, cache_dir=cache, show_progress=False)  # the sequential API
        assert [r["sentence"] for r in rows] == list(range(len(alone.sentences)))
        assert [(r["start"], r["end"]) for r in rows] == alone.spans
        assert all(doc.text[r["start"] : r["end"]] == r["text"] for r in rows)
        assert [r["label"] for r in rows] == alone.labels.tolist()
        np.testing.assert_allclose([r["confidence"] for r in rows], alone.confidence(), rtol=1e-6)
        assert all(r["error"] is None for r in rows)
        n_sentences += len(rows)
    assert report.n_sentences == n_sentences
    assert max(docs["notes.txt"][i]["label"] for i in range(len(docs["notes.txt"]))) >= 1  # really segmented

    parts = sorted(p.name for p in out.iterdir())
    again = segment_corpus(corpus_dir, out, workers=2, cache_dir=cache, task_chars=TASK_CHARS, show_progress=False)
    assert (again.n_skipped, again.n_segmented, again.n_failed) == (6, 0, 0)
    assert sorted(p.name for p in out.iterdir()) == parts  # nothing written, no cluster needed

    (corpus_dir / "new.txt").write_text("Cats purr when happy. Dogs wag their tails. The stock market closed up.\n")
    more = segment_corpus(corpus_dir, out, workers=2, cache_dir=cache, task_chars=TASK_CHARS, show_progress=False)
    assert (more.n_skipped, more.n_segmented) == (6, 1)
    rows = _read(out)
    keys = [(r["doc"], r["sentence"]) for r in rows]
    assert len(keys) == len(set(keys))  # no duplicates
    assert {r["doc"] for r in rows} == {d.id for d in read_documents(corpus_dir)}


def test_same_labels_on_one_worker_of_an_existing_cluster_and_in_process(corpus_dir, tmp_path):
    from distributed import LocalCluster

    two = tmp_path / "two.parquet"
    segment_corpus(corpus_dir, two, workers=2, cache_dir=tmp_path / "c2", task_chars=TASK_CHARS, show_progress=False)
    one = tmp_path / "one.parquet"
    with LocalCluster(n_workers=1, threads_per_worker=1, processes=True, dashboard_address=None) as cluster:
        report = segment_corpus(
            corpus_dir,
            one,
            scheduler=cluster.scheduler_address,
            cache_dir=tmp_path / "c1",
            task_chars=TASK_CHARS,
            show_progress=False,
        )
    assert report.n_segmented == 3
    local = tmp_path / "local.parquet"
    segment_corpus(corpus_dir, local, workers=0, cache_dir=tmp_path / "c0", show_progress=False)  # one task
    assert _labels(one) == _labels(two) == _labels(local)
    assert len(_labels(one)) == 3


def test_units_records_and_bp_options(tmp_path):
    units = [
        "The sun was shining brightly.",
        "I'll play tennis tomorrow.",
        "It was a beautiful morning.",
        "US Open is a tennis tournament.",
        "The rain poured down heavily.",
        "Who will win the US Open?",
    ]
    src = tmp_path / "c.jsonl"
    src.write_text(
        json.dumps({"id": "m1", "units": units}) + "\n" + json.dumps({"id": "m2", "units": units[:1]}) + "\n"
    )
    out = tmp_path / "out.parquet"
    opts = {"potentials": "paper", "lam": 0.12, "init": "farthest"}
    cache = tmp_path / "cache"
    segment_corpus(src, out, 2, workers=0, cache_dir=cache, show_progress=False, **opts)
    docs = _by_doc(_read(out))
    alone = segment_sentences(units, 2, cache_dir=cache, **opts)
    assert [r["label"] for r in docs["m1"]] == alone.labels.tolist()
    joined = "\n".join(units)
    assert [joined[r["start"] : r["end"]] for r in docs["m1"]] == units
    assert "at least 2" in docs["m2"][0]["error"]
    settings = json.loads((out / SETTINGS_FILE).read_text())
    assert settings["n_segments"] == 2 and settings["params"] == {"potentials": "paper"}  # defaults left out
    with pytest.raises(ValueError, match="other settings \\(lam: not given before, 0.2 now; potentials"):
        segment_corpus(src, out, 2, workers=0, cache_dir=cache, show_progress=False, lam=0.2)


def test_interrupt_leaves_a_readable_output_that_a_rerun_completes(corpus_dir, tmp_path, monkeypatch):
    out = tmp_path / "out.parquet"
    cache = tmp_path / "cache"
    real = CorpusStore.write_part

    def interrupted_after_one(self, table, label=None):
        if self.data_parts == 1 and label is None:
            raise KeyboardInterrupt
        return real(self, table, label)

    monkeypatch.setattr(CorpusStore, "write_part", interrupted_after_one)
    with pytest.raises(KeyboardInterrupt):
        segment_corpus(corpus_dir, out, workers=0, cache_dir=cache, task_chars=TASK_CHARS, show_progress=False)
    first = {r["doc"] for r in _read(out)}
    assert 0 < len(first) < 6
    assert not [p for p in out.iterdir() if p.name.startswith(".")]  # no temporary file left
    monkeypatch.setattr(CorpusStore, "write_part", real)
    report = segment_corpus(corpus_dir, out, workers=0, cache_dir=cache, task_chars=TASK_CHARS, show_progress=False)
    assert report.n_skipped == len(first) and report.n_skipped + report.n_segmented + report.n_failed == 6
    keys = [(r["doc"], r["sentence"]) for r in _read(out)]
    assert len(keys) == len(set(keys)) and len({k[0] for k in keys}) == 6


@pytest.mark.parametrize(
    "kwargs, message",
    [
        ({"damping": 2.0}, "damping"),
        ({"engine": "nope"}, "engine must be one of"),
        ({"workers": -1}, "workers must be an integer"),
        ({"workers": 2, "scheduler": "tcp://x:1"}, "not both"),
        ({"task_chars": 0}, "task_chars"),
        ({"n_segments": 0}, "n_segments"),
        ({"model": "/no/such/model"}, "model directory does not exist"),
    ],
)
def test_bad_options_fail_before_anything_is_written(corpus_dir, tmp_path, kwargs, message):
    out = tmp_path / "out.parquet"
    with pytest.raises(ValueError, match=message):
        segment_corpus(corpus_dir, out, **{"workers": 0, **kwargs})
    assert not out.exists()


def test_outputs_that_are_refused(corpus_dir, tmp_path):
    afile = tmp_path / "file.parquet"
    afile.write_bytes(b"precious")
    with pytest.raises(ValueError, match="exists and is not a folder"):
        segment_corpus(corpus_dir, afile, workers=0)
    assert afile.read_bytes() == b"precious"
    foreign = tmp_path / "foreign"
    foreign.mkdir()
    (foreign / "data.csv").write_text("keep me")
    with pytest.raises(ValueError, match="not a bpseg corpus output"):
        segment_corpus(corpus_dir, foreign, workers=0)
    assert [p.name for p in foreign.iterdir()] == ["data.csv"]
    with pytest.raises(ValueError, match="output directory does not exist"):
        segment_corpus(corpus_dir, tmp_path / "no" / "out.parquet", workers=0)


def test_unreachable_scheduler_is_one_error_and_leaves_nothing(corpus_dir, tmp_path):
    out = tmp_path / "out.parquet"
    with pytest.raises(ValueError, match="cannot connect to the Dask scheduler at tcp://127.0.0.1:9"):
        segment_corpus(corpus_dir, out, scheduler="tcp://127.0.0.1:9", cache_dir=tmp_path / "c")
    assert not out.exists()
