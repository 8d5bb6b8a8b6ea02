"""LessonLink tutoring transcripts as labelled documents, on a tiny fake folder (and the real files if present)."""

from __future__ import annotations

import json
import statistics

import pytest

from bpseg_bench import lessonlink
from bpseg_bench.bench_corpus import DATASET_NAMES, load_dataset
from bpseg_bench.corpus import LabelledDocument, read_corpus
from bpseg_bench.lessonlink import LESSONLINK_LEVELS, LESSONLINK_SPLITS, load_lessonlink, resolve_lessonlink_dir
from bpseg_pgm.cli.main import main
from bpseg_pgm.utils.labels import n_runs

B = {
    "id": "b-session",
    "units": ["Hello everyone.", "Hi!", "Problem one asks for x.", "x is two.", "Next, problem two.", "Bye."],
    "segment": [0, 0, 1, 1, 2, 3],
    "problem": [-1, -1, 0, 0, 1, -1],
}
A = {"id": "a-session", "units": ["Warm up.", "Let us review.", "Done."], "segment": [0, 1, 1], "problem": [0, 0, -1]}
NO_PROBLEM = {"id": "c-chat", "units": ["Hi.", "How are you?"], "segment": [0, 1], "problem": [-1, -1]}
SHORT = {"id": "d-short", "units": ["Only one."], "segment": [0], "problem": [0]}
VAL = {"id": "v-one", "units": ["Start.", "Problem.", "End."], "segment": [0, 1, 2], "problem": [-1, 0, -1]}


def _write(path, records):
    path.write_text("".join(json.dumps(r) + "\n" for r in records), encoding="utf-8")


@pytest.fixture
def fake_lessonlink(tmp_path):
    root = tmp_path / "lessonlink"
    root.mkdir()
    _write(root / "train.jsonl", [B, SHORT, NO_PROBLEM, A])  # not in id order
    _write(root / "val.jsonl", [VAL])
    _write(root / "test.jsonl", [A])  # not a split the loader reads
    return root


def test_segments(fake_lessonlink):
    docs = load_lessonlink(fake_lessonlink)
    ids = ["lessonlink/train/a-session", "lessonlink/train/b-session", "lessonlink/train/c-chat"]
    assert [d.doc_id for d in docs] == ids  # sorted by id; the one-unit d-short is skipped
    assert all(isinstance(d, LabelledDocument) for d in docs)
    doc = docs[1]
    assert doc.units == tuple(B["units"])
    assert doc.labels == (0, 0, 1, 1, 2, 3) and doc.n_segments == 4
    assert doc.meta == {"level": "segment", "problem": B["problem"]}
    assert load_lessonlink(fake_lessonlink, level="segment") == docs  # the default level


def test_problems(fake_lessonlink):
    docs = load_lessonlink(fake_lessonlink, level="problem")
    # c-chat is on no problem at all: nothing to score at this level, skipped
    assert [d.doc_id for d in docs] == ["lessonlink/train/a-session", "lessonlink/train/b-session"]
    doc = docs[1]
    assert doc.labels == (None, None, 0, 0, 1, None)  # -1: on no problem, unlabelled
    assert list(doc.gold) == [0, 0, 1] and doc.n_segments == 2
    assert doc.meta == {"level": "problem", "segment": B["segment"]}
    assert docs[0].labels == (0, 0, None)


def test_splits_and_limit(fake_lessonlink):
    docs = load_lessonlink(fake_lessonlink, splits=("train", "val"), limit=1)
    assert [d.doc_id for d in docs] == ["lessonlink/train/a-session", "lessonlink/val/v-one"]  # limit per split
    assert [d.doc_id for d in load_lessonlink(fake_lessonlink, splits=["val"])] == ["lessonlink/val/v-one"]
    # the limit counts kept documents: at the problem level c-chat does not use up a place
    assert len(load_lessonlink(fake_lessonlink, limit=3)) == 3
    assert len(load_lessonlink(fake_lessonlink, limit=3, level="problem")) == 2


@pytest.mark.parametrize("splits", [["test"], ["train", "dev"], [], "val"])
def test_bad_split(fake_lessonlink, splits):
    with pytest.raises(ValueError, match="splits must be among"):
        load_lessonlink(fake_lessonlink, splits=splits)
    assert LESSONLINK_SPLITS == ("train", "val")


@pytest.mark.parametrize("level", ["segments", "problems", None])
def test_bad_level(fake_lessonlink, level):
    with pytest.raises(ValueError, match="level must be one of"):
        load_lessonlink(fake_lessonlink, level=level)
    assert LESSONLINK_LEVELS == ("segment", "problem")


@pytest.mark.parametrize("limit", [0, -1, 1.5, True, "2"])
def test_bad_limit(fake_lessonlink, limit):
    with pytest.raises(ValueError, match="limit"):
        load_lessonlink(fake_lessonlink, limit=limit)


def test_missing_data(tmp_path):
    with pytest.raises(ValueError, match="not a LessonLink data folder.*rosewang2008/posr"):
        load_lessonlink(tmp_path / "nowhere")
    (tmp_path / "only_val").mkdir()
    _write(tmp_path / "only_val" / "val.jsonl", [VAL])
    assert len(load_lessonlink(tmp_path / "only_val", splits=["val"])) == 1
    with pytest.raises(ValueError, match="no LessonLink split file"):
        load_lessonlink(tmp_path / "only_val", splits=["train"])


@pytest.mark.parametrize(
    "line, message",
    [
        ('{"id": "x", "units": [\n', r"train.jsonl line 2: not valid JSON"),
        (json.dumps({"id": "x", "units": ["a", "b"], "segment": [0, 1]}), "line 2: expected an object with"),
        (json.dumps({"id": 3, "units": ["a"], "segment": [0], "problem": [0]}), "line 2: expected an object with"),
        (json.dumps({"id": "x", "units": ["a", "b"], "segment": [0], "problem": [0, 0]}), "'segment' has 1 entries"),
        (json.dumps({"id": "x", "units": ["a", "b"], "segment": [0, "1"], "problem": [0, 0]}), "must hold integers"),
        (json.dumps({"id": "x", "units": ["a", 2], "segment": [0, 1], "problem": [0, 0]}), "unit 1 is int"),
    ],
)
def test_bad_lines(tmp_path, line, message):
    root = tmp_path / "bad"
    root.mkdir()
    (root / "train.jsonl").write_text(json.dumps(A) + "\n" + line + "\n", encoding="utf-8")
    with pytest.raises(ValueError, match=message):
        load_lessonlink(root)


def test_resolve_from_the_environment(fake_lessonlink, monkeypatch, tmp_path):
    monkeypatch.setenv(lessonlink.ENV_VAR, str(fake_lessonlink))
    assert resolve_lessonlink_dir() == fake_lessonlink
    assert [d.doc_id for d in load_lessonlink(splits=["val"])] == ["lessonlink/val/v-one"]
    monkeypatch.setenv(lessonlink.ENV_VAR, str(tmp_path / "nowhere"))
    assert resolve_lessonlink_dir(fake_lessonlink) == fake_lessonlink  # the argument comes first
    with pytest.raises(ValueError, match="not a LessonLink data folder"):
        resolve_lessonlink_dir()


def test_resolve_searches_above_the_working_directory(tmp_path, monkeypatch):
    monkeypatch.delenv(lessonlink.ENV_VAR, raising=False)
    root = tmp_path / "shared" / "data" / "lessonlink"
    root.mkdir(parents=True)
    _write(root / "val.jsonl", [VAL])
    deep = tmp_path / "a" / "b"
    deep.mkdir(parents=True)
    monkeypatch.chdir(deep)
    assert resolve_lessonlink_dir() == tmp_path.resolve() / "shared" / "data" / "lessonlink"


def test_not_found_names_where_to_get_it(tmp_path, monkeypatch):
    monkeypatch.delenv(lessonlink.ENV_VAR, raising=False)
    monkeypatch.chdir(tmp_path)
    monkeypatch.setattr(lessonlink, "_RELATIVE", tmp_path / "no" / "such" / "folder")  # the package's parents too
    with pytest.raises(ValueError, match=r"LessonLink data not found .*posr.*BPSEG_LESSONLINK_DIR") as err:
        resolve_lessonlink_dir()
    assert "\n" not in str(err.value)


def test_load_dataset_names(fake_lessonlink):
    names = {"lessonlink-train", "lessonlink-val", "lessonlink-train-problem", "lessonlink-val-problem"}
    assert names <= set(DATASET_NAMES)
    assert load_dataset("lessonlink-train", data_dir=fake_lessonlink) == load_lessonlink(fake_lessonlink)
    problem = load_dataset("lessonlink-train-problem", data_dir=fake_lessonlink)
    assert problem == load_lessonlink(fake_lessonlink, level="problem")
    (doc,) = load_dataset("lessonlink-val-problem", data_dir=fake_lessonlink)
    assert doc.labels == (None, 0, None)
    assert len(load_dataset("lessonlink-train", limit=1, data_dir=fake_lessonlink)) == 1
    for bad in ("lessonlink-test", "lessonlink-train-problems", "lessonlink"):
        with pytest.raises(ValueError, match=f"unknown dataset '{bad}'"):
            load_dataset(bad, data_dir=fake_lessonlink)


def test_cli_export(fake_lessonlink, monkeypatch, tmp_path, capsys):
    monkeypatch.setenv(lessonlink.ENV_VAR, str(fake_lessonlink))
    target = tmp_path / "lessonlink.jsonl"
    assert main(["bench", "export", "lessonlink-train-problem", "-o", str(target)]) == 0
    assert capsys.readouterr().out == f"Wrote 2 documents to {target}\n"
    assert read_corpus(target) == load_lessonlink(fake_lessonlink, level="problem")


def test_real_lessonlink():
    try:
        root = resolve_lessonlink_dir()
    except ValueError as exc:
        pytest.skip(f"LessonLink data not available: {exc}")
    train, val = load_lessonlink(root, splits=["train"]), load_lessonlink(root, splits=["val"])
    assert (len(train), len(val)) == (90, 40)
    for doc in train + val:
        assert sorted(set(doc.labels)) == list(range(doc.n_segments))  # 0..k-1
        assert n_runs(doc.gold) == doc.n_segments  # contiguous: no segment returns
        assert len(doc.meta["problem"]) == len(doc)
    assert [d.doc_id for d in train] == sorted(d.doc_id for d in train)
    assert 450 < statistics.mean(len(d) for d in train) < 530 and 11 < statistics.mean(d.n_segments for d in train) < 13
    problem = load_lessonlink(root, splits=["train", "val"], level="problem")
    assert len(problem) == 88 + 37  # 2 train and 3 val transcripts discuss no problem
    for doc in problem:
        assert n_runs(doc.gold) == doc.n_segments  # no problem returns after another (SOURCE.txt)
