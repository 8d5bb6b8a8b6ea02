"""PEPs as labelled documents of sentences, on a tiny fake folder (and the real files if present)."""

from __future__ import annotations

import json
import statistics

import pytest

from bpseg_bench import peps
from bpseg_bench.bench_corpus import DATASET_NAMES, load_dataset
from bpseg_bench.corpus import LabelledDocument, read_corpus
from bpseg_bench.peps import PEPS_SPLITS, heading, load_peps, resolve_peps_dir
from bpseg_pgm.cli.main import main


def _block(h1, h2, text):
    return {"h1": h1, "h2": h2, "text": text}


TEN = {
    "id": "pep-0010",
    "title": "Ten",
    "blocks": [
        _block("Abstract", None, "First sentence here. Second one follows."),  # 0: two sentences
        _block("Abstract", None, "Ends without a stop"),  # 1: not glued to the next block
        _block("Motivation", None, "starts lower case."),  # 2
        _block("Motivation", "Speed", "It is slow today."),  # 3
        _block("Motivation", "Memory", "It uses too much\n   memory. Far too much, e.g. on servers."),  # 4: wrapped
        _block("Specification", None, "   "),  # 5: no sentence, so no label for this heading
        _block("Abstract", None, "Back to the abstract."),  # 6: the section returns
        _block("Specification", "Memory", "Dr. Smith wrote PEP 8. It is about style."),  # 7: same h2, other h1
    ],
}
TEN_UNITS = (
    "First sentence here.", "Second one follows.", "Ends without a stop", "starts lower case.", "It is slow today.",
    "It uses too much memory.", "Far too much, e.g. on servers.", "Back to the abstract.", "Dr. Smith wrote PEP 8.",
    "It is about style.",
)  # fmt: skip
TWO = {
    "id": "pep-0002",
    "title": "Two",
    "blocks": [_block("Abstract", None, "One. Two."), _block("Rationale", "Why", "Three.")],
}
SHORT = {"id": "pep-0005", "title": "Too short", "blocks": [_block("Abstract", None, "Only one sentence.")]}
VAL = {
    "id": "pep-0100",
    "title": "Val",
    "blocks": [_block("Intro", None, "Alpha is here."), _block("Body", "Part", "Beta is there.")],
}


def _write(path, records):
    path.write_text("".join(json.dumps(r) + "\n" for r in records), encoding="utf-8")


@pytest.fixture
def fake_peps(tmp_path):
    root = tmp_path / "peps"
    root.mkdir()
    _write(root / "train.jsonl", [TEN, SHORT, TWO])  # not in id order
    _write(root / "val.jsonl", [VAL])
    _write(root / "test.jsonl", [TWO])  # not a split the loader reads
    return root


def test_sentences_per_block(fake_peps):
    docs = load_peps(fake_peps)
    assert [d.doc_id for d in docs] == ["peps/train/pep-0002", "peps/train/pep-0010"]  # sorted; pep-0005 skipped
    assert all(isinstance(d, LabelledDocument) for d in docs)
    doc = docs[1]
    assert doc.units == TEN_UNITS
    assert doc.meta["block"] == [0, 0, 1, 2, 3, 4, 4, 6, 7, 7]
    assert doc.meta["title"] == "Ten"
    assert docs[0].units == ("One.", "Two.", "Three.") and docs[0].meta["block"] == [0, 0, 1]


def test_section_labels(fake_peps):
    doc = load_peps(fake_peps)[1]
    # Abstract 0, Motivation 1, Abstract returns; Specification gets 2 from block 7 (block 5 has no sentence)
    assert doc.labels == (0, 0, 0, 1, 1, 1, 1, 0, 2, 2)
    assert doc.n_segments == 3 and doc.meta["level"] == "section"
    assert load_peps(fake_peps, level="section") == load_peps(fake_peps)  # the default level


def test_subsection_labels(fake_peps):
    docs = load_peps(fake_peps, level="subsection")
    doc = docs[1]
    # Abstract, Motivation, Motivation / Speed, Motivation / Memory, Abstract (returns), Specification / Memory
    assert doc.labels == (0, 0, 0, 1, 2, 3, 3, 0, 4, 4)
    assert doc.units == TEN_UNITS and doc.meta["level"] == "subsection"
    assert docs[0].labels == (0, 0, 1)


def test_heading():
    assert heading(_block("A", None, "x")) == "A"
    assert heading(_block("A", "B", "x")) == "A"
    assert heading(_block("A", "B", "x"), "subsection") == "A / B"
    assert heading(_block("A", None, "x"), "subsection") == "A"


def test_splits_and_limit(fake_peps):
    docs = load_peps(fake_peps, splits=("train", "val"), limit=1)
    assert [d.doc_id for d in docs] == ["peps/train/pep-0002", "peps/val/pep-0100"]  # limit per split
    assert docs[1].labels == (0, 1)
    assert [d.doc_id for d in load_peps(fake_peps, splits=["val"])] == ["peps/val/pep-0100"]
    # the limit counts kept documents: the short pep-0005 does not use up a place
    assert [d.doc_id for d in load_peps(fake_peps, limit=2)] == ["peps/train/pep-0002", "peps/train/pep-0010"]


@pytest.mark.parametrize("splits", [["test"], ["train", "dev"], [], "val"])
def test_bad_split(fake_peps, splits):
    with pytest.raises(ValueError, match="splits must be among"):
        load_peps(fake_peps, splits=splits)
    assert PEPS_SPLITS == ("train", "val")


@pytest.mark.parametrize("level", ["sections", "h2", None])
def test_bad_level(fake_peps, level):
    with pytest.raises(ValueError, match="level must be one of"):
        load_peps(fake_peps, level=level)


@pytest.mark.parametrize("limit", [0, -1, 1.5, True, "2"])
def test_bad_limit(fake_peps, limit):
    with pytest.raises(ValueError, match="limit"):
        load_peps(fake_peps, limit=limit)


def test_missing_data(tmp_path):
    with pytest.raises(ValueError, match="not a PEPs data folder"):
        load_peps(tmp_path / "nowhere")
    (tmp_path / "empty").mkdir()
    with pytest.raises(ValueError, match="not a PEPs data folder"):
        load_peps(tmp_path / "empty")
    (tmp_path / "only_val").mkdir()
    _write(tmp_path / "only_val" / "val.jsonl", [VAL])
    assert len(load_peps(tmp_path / "only_val", splits=["val"])) == 1
    with pytest.raises(ValueError, match="no PEPs split file"):
        load_peps(tmp_path / "only_val", splits=["train"])


def test_bad_lines(tmp_path):
    root = tmp_path / "bad"
    root.mkdir()
    (root / "train.jsonl").write_text(json.dumps(TWO) + "\n\n" + '{"id": "pep-9", "blocks": [\n', encoding="utf-8")
    with pytest.raises(ValueError, match=r"train.jsonl line 3: not valid JSON"):
        load_peps(root)
    (root / "train.jsonl").write_text(json.dumps({"id": "pep-9", "title": "No blocks"}) + "\n", encoding="utf-8")
    with pytest.raises(ValueError, match=r"line 1: expected an object with 'id', 'blocks'"):
        load_peps(root)


def test_resolve_from_the_environment(fake_peps, monkeypatch, tmp_path):
    monkeypatch.setenv(peps.ENV_VAR, str(fake_peps))
    assert resolve_peps_dir() == fake_peps
    assert [d.doc_id for d in load_peps(splits=["val"])] == ["peps/val/pep-0100"]
    monkeypatch.setenv(peps.ENV_VAR, str(tmp_path / "nowhere"))
    assert resolve_peps_dir(fake_peps) == fake_peps  # the argument comes first
    with pytest.raises(ValueError, match="not a PEPs data folder"):
        resolve_peps_dir()


def test_resolve_searches_above_the_working_directory(tmp_path, monkeypatch):
    monkeypatch.delenv(peps.ENV_VAR, raising=False)
    root = tmp_path / "shared" / "data" / "peps"
    root.mkdir(parents=True)
    _write(root / "val.jsonl", [VAL])
    deep = tmp_path / "a" / "b"
    deep.mkdir(parents=True)
    monkeypatch.chdir(deep)
    assert resolve_peps_dir() == tmp_path.resolve() / "shared" / "data" / "peps"


def test_load_dataset_names(fake_peps):
    assert {"peps-train", "peps-val", "peps-train-sub", "peps-val-sub"} <= set(DATASET_NAMES)
    assert load_dataset("peps-train", data_dir=fake_peps) == load_peps(fake_peps, splits=["train"])
    assert [d.labels for d in load_dataset("peps-train-sub", data_dir=fake_peps)] == [
        (0, 0, 1),
        (0, 0, 0, 1, 2, 3, 3, 0, 4, 4),
    ]
    (doc,) = load_dataset("peps-val-sub", data_dir=fake_peps)
    assert doc.doc_id == "peps/val/pep-0100" and doc.meta["level"] == "subsection"
    assert [d.doc_id for d in load_dataset("peps-val", data_dir=fake_peps)] == ["peps/val/pep-0100"]
    assert len(load_dataset("peps-train", limit=1, data_dir=fake_peps)) == 1
    for bad in ("peps-test", "peps-train-subsection", "peps"):
        with pytest.raises(ValueError, match=f"unknown dataset '{bad}'"):
            load_dataset(bad, data_dir=fake_peps)


def test_cli_export(fake_peps, monkeypatch, tmp_path, capsys):
    monkeypatch.setenv(peps.ENV_VAR, str(fake_peps))
    target = tmp_path / "peps.jsonl"
    assert main(["bench", "export", "peps-train-sub", "-o", str(target)]) == 0
    assert capsys.readouterr().out == f"Wrote 2 documents to {target}\n"
    back = read_corpus(target)
    assert back == load_peps(fake_peps, level="subsection")
    assert back[1].meta["block"] == [0, 0, 1, 2, 3, 4, 4, 6, 7, 7]


def test_real_peps():
    try:
        root = resolve_peps_dir()
    except ValueError as exc:
        pytest.skip(f"PEPs data not available: {exc}")
    val = load_peps(root, splits=["val"])
    sub = load_peps(root, splits=["val"], level="subsection")
    assert len(val) == len(sub) == 98
    assert [d.doc_id for d in val] == sorted(d.doc_id for d in val) and val[0].doc_id.startswith("peps/val/pep-")
    for doc, fine in zip(val, sub):
        assert doc.units == fine.units and len(doc) >= 2
        assert sorted(set(doc.labels)) == list(range(doc.n_segments))  # integers from 0, in order of appearance
        assert fine.n_segments >= doc.n_segments
        assert doc.meta["block"] == sorted(doc.meta["block"]) and len(doc.meta["block"]) == len(doc)
    assert 100 < statistics.mean(len(d) for d in val) < 130
    assert 7 < statistics.mean(d.n_segments for d in val) < 8.5
    assert 13 < statistics.mean(d.n_segments for d in sub) < 15
    train = load_peps(root, splits=["train"])
    assert len(train) == 315
    returning = [d.doc_id for d in train if 1 + sum(a != b for a, b in zip(d.labels, d.labels[1:])) > d.n_segments]
    assert returning == ["peps/train/pep-0207", "peps/train/pep-0237", "peps/train/pep-0425", "peps/train/pep-0584"]
