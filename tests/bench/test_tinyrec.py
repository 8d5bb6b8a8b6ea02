"""TinyRec transcripts at two annotation levels, on a tiny fake folder (and the real file if present)."""

from __future__ import annotations

import json

import pytest

from bpseg_bench import tinyrec
from bpseg_bench.bench_corpus import DATASET_NAMES, load_dataset
from bpseg_bench.corpus import LabelledDocument
from bpseg_bench.tinyrec import TINYREC_LEVELS, TINYREC_SPLITS, load_tinyrec, resolve_tinyrec_dir
from bpseg_pgm.utils.labels import n_runs

B = {
    "id": "b-meeting",
    "units": ["Hi all.", "My update.", "The build is fixed.", "Tests pass.", "Next, hiring.", "Two offers out."],
    "coarse": [0, 0, 0, 0, 1, 1],
    "fine": [0, 1, 2, 2, 3, 3],
}
A = {"id": "a-meeting", "units": ["Hello.", "Agenda.", "Done."], "coarse": [0, 0, 1], "fine": [0, 1, 2]}
SHORT = {"id": "c-short", "units": ["Only one."], "coarse": [0], "fine": [0]}


def _write(path, records):
    path.write_text("".join(json.dumps(r) + "\n" for r in records), encoding="utf-8")


@pytest.fixture
def fake_tinyrec(tmp_path):
    root = tmp_path / "tinyrec"
    root.mkdir()
    _write(root / "dev.jsonl", [B, SHORT, A])
    _write(root / "test.jsonl", [A])  # not a split the loader reads
    return root


def test_levels(fake_tinyrec):
    coarse, fine = load_tinyrec(fake_tinyrec), load_tinyrec(fake_tinyrec, level="fine")
    assert [d.doc_id for d in coarse] == ["tinyrec/dev/a-meeting", "tinyrec/dev/b-meeting"]  # sorted; c-short skipped
    assert all(isinstance(d, LabelledDocument) for d in coarse + fine)
    assert coarse[1].units == fine[1].units == tuple(B["units"])
    assert coarse[1].labels == (0, 0, 0, 0, 1, 1) and fine[1].labels == (0, 1, 2, 2, 3, 3)
    assert coarse[1].meta == {"level": "coarse", "fine": B["fine"]}
    assert fine[1].meta == {"level": "fine", "coarse": B["coarse"]}
    assert load_tinyrec(fake_tinyrec, splits=["dev"], level="coarse") == coarse  # the defaults


def test_limit(fake_tinyrec):
    assert [d.doc_id for d in load_tinyrec(fake_tinyrec, limit=1)] == ["tinyrec/dev/a-meeting"]
    assert len(load_tinyrec(fake_tinyrec, limit=5)) == 2


@pytest.mark.parametrize("splits", [["test"], ["train"], [], "dev"])
def test_bad_split(fake_tinyrec, splits):
    with pytest.raises(ValueError, match="splits must be among"):
        load_tinyrec(fake_tinyrec, splits=splits)
    assert TINYREC_SPLITS == ("dev",)


@pytest.mark.parametrize("level", ["segment", "Coarse", None])
def test_bad_level(fake_tinyrec, level):
    with pytest.raises(ValueError, match="level must be one of"):
        load_tinyrec(fake_tinyrec, level=level)
    assert TINYREC_LEVELS == ("coarse", "fine")


@pytest.mark.parametrize(
    "record, message",
    [
        ({"id": "x", "units": ["a", "b"], "coarse": [0, 0]}, "line 2: expected an object with"),
        ({"id": "x", "units": ["a", "b"], "coarse": [0, 0], "fine": [0, 1, 2]}, "'fine' has 3 entries for 2 units"),
        ({"id": "x", "units": ["a", "b"], "coarse": [0, True], "fine": [0, 1]}, "'coarse' must hold integers"),
    ],
)
def test_bad_records(tmp_path, record, message):
    root = tmp_path / "bad"
    root.mkdir()
    _write(root / "dev.jsonl", [A, record])
    with pytest.raises(ValueError, match=message):
        load_tinyrec(root)


def test_missing_data(tmp_path, monkeypatch):
    with pytest.raises(ValueError, match="not a TinyRec data folder.*AugmendTech/treeseg"):
        load_tinyrec(tmp_path / "nowhere")
    monkeypatch.delenv(tinyrec.ENV_VAR, raising=False)
    monkeypatch.chdir(tmp_path)
    monkeypatch.setattr(tinyrec, "_RELATIVE", tmp_path / "no" / "such" / "folder")
    with pytest.raises(ValueError, match=r"TinyRec data not found .*treeseg.*BPSEG_TINYREC_DIR"):
        resolve_tinyrec_dir()


def test_resolve(fake_tinyrec, monkeypatch, tmp_path):
    monkeypatch.setenv(tinyrec.ENV_VAR, str(fake_tinyrec))
    assert resolve_tinyrec_dir() == fake_tinyrec
    monkeypatch.delenv(tinyrec.ENV_VAR)
    root = tmp_path / "shared" / "data" / "tinyrec"
    root.mkdir(parents=True)
    _write(root / "dev.jsonl", [A])
    (tmp_path / "deep").mkdir()
    monkeypatch.chdir(tmp_path / "deep")
    assert resolve_tinyrec_dir() == tmp_path.resolve() / "shared" / "data" / "tinyrec"


def test_load_dataset_names(fake_tinyrec):
    assert {"tinyrec-coarse", "tinyrec-fine"} <= set(DATASET_NAMES)
    assert load_dataset("tinyrec-coarse", data_dir=fake_tinyrec) == load_tinyrec(fake_tinyrec)
    assert load_dataset("tinyrec-fine", data_dir=fake_tinyrec) == load_tinyrec(fake_tinyrec, level="fine")
    assert len(load_dataset("tinyrec-fine", limit=1, data_dir=fake_tinyrec)) == 1
    for bad in ("tinyrec", "tinyrec-dev", "tinyrec-test"):
        with pytest.raises(ValueError, match=f"unknown dataset '{bad}'"):
            load_dataset(bad, data_dir=fake_tinyrec)


def test_real_tinyrec():
    try:
        root = resolve_tinyrec_dir()
    except ValueError as exc:
        pytest.skip(f"TinyRec data not available: {exc}")
    coarse, fine = load_tinyrec(root), load_tinyrec(root, level="fine")
    assert len(coarse) == len(fine) == 5
    assert sum(len(d) for d in coarse) == 976
    assert [d.n_segments for d in coarse] == [3, 6, 4, 4, 5]
    assert [d.n_segments for d in fine] == [9, 15, 8, 8, 26]
    for c, f in zip(coarse, fine):
        assert c.units == f.units
        assert n_runs(c.gold) == c.n_segments and n_runs(f.gold) == f.n_segments  # contiguous
        assert sorted(set(f.labels)) == list(range(f.n_segments))
