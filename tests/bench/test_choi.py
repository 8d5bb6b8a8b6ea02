"""Choi loader: counts and pooling match SOURCE.txt on the real data; quirks; data discovery."""

from __future__ import annotations

from collections import Counter

import numpy as np
import pytest

from bpseg_bench.choi import CHOI_RANGES, ENV_VAR, load_choi, parse_choi_file, resolve_data_dir

SEP = "=========="


@pytest.fixture(scope="module")
def all_docs(choi_dir):
    return load_choi(choi_dir)


def test_counts_match_source_txt(all_docs):
    assert len(all_docs) == 920
    assert Counter(d.range for d in all_docs) == {
        "3-11": 400, "3-5": 130, "6-8": 130, "9-11": 130, "3-15": 100, "12-15": 30,
    }  # fmt: skip
    per_folder = Counter((d.set, d.range) for d in all_docs)
    assert per_folder[(3, "3-11")] == 300
    assert per_folder[(4, "3-5")] == 30
    assert per_folder[(1, "9-11")] == 50
    assert {s for s, r in per_folder if r == "3-11"} == {1, 2, 3}
    assert {s for s, r in per_folder if r == "6-8"} == {1, 2, 4}
    assert {s for s, r in per_folder if r in ("3-15", "12-15")} == {4}


def test_quirks_empty_segments_and_blank_lines(all_docs):
    nine = [d for d in all_docs if d.n_segments != 10]
    assert len(nine) == 14 and {d.n_segments for d in nine} == {9} and {d.set for d in nine} == {4}
    for d in all_docs:
        assert len(d.sentences) == len(d.labels)
        assert all(s.strip() == s and s for s in d.sentences)
        assert SEP not in d.sentences
        # labels are 0..K-1 in contiguous runs, each segment non-empty
        assert np.array_equal(np.unique(d.labels), np.arange(d.n_segments))
        assert np.all(np.diff(d.labels) >= 0)


def test_segment_lengths_follow_the_range(all_docs):
    for rng in CHOI_RANGES:
        lo, hi = map(int, rng.split("-"))
        lengths = np.concatenate([np.bincount(d.labels) for d in all_docs if d.range == rng])
        assert lengths.max() <= hi
        assert np.median(lengths) >= lo  # a few segments lose a blank line, but not typically


def test_filters_and_limit(choi_dir):
    docs = load_choi(choi_dir, sets=[1, 4], ranges=["3-5", "12-15"], limit=3)
    assert [(d.set, d.range) for d in docs] == [(1, "3-5")] * 3 + [(4, "3-5")] * 3 + [(4, "12-15")] * 3
    assert [d.path.stem for d in docs[:3]] == ["0", "1", "2"]  # numeric order, not 0, 1, 10
    assert docs[0].doc_id == "1/3-5/0"


@pytest.mark.parametrize(
    "kwargs, message",
    [
        ({"sets": [5]}, "unknown Choi set"),
        ({"ranges": ["3-4"]}, "unknown Choi range"),
        ({"sets": [3], "ranges": ["3-5"]}, "no Choi documents"),
        ({"limit": 0}, "limit"),
        ({"sets": []}, "empty selection"),
    ],
)
def test_bad_selection_raises(choi_dir, kwargs, message):
    with pytest.raises(ValueError, match=message):
        load_choi(choi_dir, **kwargs)


def _write(path, text):
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(text, encoding="latin-1")
    return path


def test_parse_drops_blank_lines_and_empty_segments(tmp_path):
    f = _write(tmp_path / "0.ref", f"{SEP}\na .\n \n\nb .\n{SEP}\n{SEP}\nc é .\n{SEP}\n")
    sentences, labels = parse_choi_file(f)
    assert sentences == ["a .", "b .", "c é ."]
    assert labels.tolist() == [0, 0, 1]


@pytest.mark.parametrize("text", ["stray\n" + SEP + "\na .\n" + SEP + "\n", SEP + "\n \n" + SEP + "\n"])
def test_parse_rejects_malformed_files(tmp_path, text):
    with pytest.raises(ValueError):
        parse_choi_file(_write(tmp_path / "0.ref", text))


def test_resolve_explicit_env_and_walk_up(tmp_path, monkeypatch):
    root = tmp_path / "shared" / "data" / "choi"
    _write(root / "1" / "3-5" / "0.ref", f"{SEP}\na .\n{SEP}\n")
    monkeypatch.delenv(ENV_VAR, raising=False)
    assert resolve_data_dir(root) == root
    with pytest.raises(ValueError, match="not a Choi data folder"):
        resolve_data_dir(tmp_path / "nowhere")
    monkeypatch.setenv(ENV_VAR, str(tmp_path / "nowhere"))
    with pytest.raises(ValueError, match=ENV_VAR):
        resolve_data_dir()
    monkeypatch.setenv(ENV_VAR, str(root))
    assert resolve_data_dir() == root
    monkeypatch.delenv(ENV_VAR)
    deep = tmp_path / "repo" / "sub"
    deep.mkdir(parents=True)
    monkeypatch.chdir(deep)  # the current directory is searched first: finds tmp_path/shared
    assert resolve_data_dir() == root.resolve()
    docs = load_choi(sets=[1], ranges=["3-5"])
    assert len(docs) == 1 and docs[0].sentences == ("a .",)
