"""QMSum meetings as labelled documents, on a tiny fake folder (and one real meeting if present)."""

from __future__ import annotations

import json
import re

import pytest

from bpseg_bench import qmsum
from bpseg_bench.qmsum import QMSUM_SPLITS, clean_turn, load_qmsum, resolve_qmsum_dir


def _meeting(turns, topics, queries=()):
    return {
        "topic_list": [{"topic": f"topic {i}", "relevant_text_span": spans} for i, spans in enumerate(topics)],
        "general_query_list": [{"query": "Summarize the whole meeting", "answer": "..."}],
        "specific_query_list": [{"query": q, "answer": "...", "relevant_text_span": spans} for q, spans in queries],
        "meeting_transcripts": [{"speaker": s, "content": c} for s, c in turns],
    }


TURNS = [
    ("A", "Okay , {disfmarker} let's start ."),  # 0: before any topic
    ("B", "The budget {vocalsound} is  tight ."),  # 1: topic 0
    ("A", "We {disfmarker} we need {gap} more money ."),  # 2: topic 0
    ("C", "{vocalsound}"),  # 3: topic 0, only a marker: raw text kept
    ("B", "Now the design ."),  # 4: topics 0 and 1 overlap: the first listed wins
    ("A", "Round buttons ."),  # 5: topic 1
    ("C", "Mic check , {nonvocalsound} ."),  # 6: no topic
    ("B", "Back to the budget ."),  # 7: topic 0 returns
]
TOPICS = [[["1", "4"], ["7", "7"]], [["4", "5"]]]  # spans are strings of turn indices, inclusive
QUERIES = [("What about the budget?", [["1", "2"]]), ("What did they say about buttons?", [[5, 5]])]


@pytest.fixture
def fake_qmsum(tmp_path):
    root = tmp_path / "qmsum"
    (root / "train").mkdir(parents=True)
    (root / "val").mkdir()
    (root / "test").mkdir()
    (root / "train" / "Bmr002.json").write_text(json.dumps(_meeting(TURNS, TOPICS, QUERIES)), encoding="utf-8")
    (root / "train" / "Amr001.json").write_text(json.dumps(_meeting([("A", "Hi ."), ("B", "Hello .")], [[[0, 1]]])))
    (root / "train" / "notes.txt").write_text("not a meeting")
    # spans beyond the transcript are clipped; a reversed span covers nothing
    (root / "val" / "V1.json").write_text(
        json.dumps(_meeting([("A", "One ."), ("B", "Two ."), ("A", "Three .")], [[[-3, 0]], [[2, 99]], [[1, 0]]]))
    )
    (root / "test" / "T1.json").write_text(json.dumps(_meeting([("A", "Hidden .")], [[[0, 0]]])))
    return root


def test_labels_per_turn(fake_qmsum):
    docs = load_qmsum(fake_qmsum, splits=["train"])
    assert [d.doc_id for d in docs] == ["qmsum/train/Amr001", "qmsum/train/Bmr002"]  # sorted by file name
    doc = docs[1]
    assert doc.labels == (None, 0, 0, 0, 0, 1, None, 0)
    assert doc.n_segments == 2
    assert list(doc.gold) == [0, 0, 0, 0, 1, 0]  # labelled turns only
    assert docs[0].labels == (0, 0)


def test_markers_removed_and_whitespace_collapsed(fake_qmsum):
    doc = load_qmsum(fake_qmsum, splits=["train"])[1]
    assert doc.units[:3] == ("Okay , let's start .", "The budget is tight .", "We we need more money .")
    assert doc.units[3] == "{vocalsound}"  # nothing left but the marker: the raw text
    assert doc.units[6] == "Mic check , ."
    assert not any("{disfmarker}" in u or "{gap}" in u for u in doc.units)


def test_queries_and_speakers_in_meta(fake_qmsum):
    doc = load_qmsum(fake_qmsum, splits=["train"])[1]
    assert doc.meta["queries"] == [
        {"query": "What about the budget?", "spans": [(1, 2)]},
        {"query": "What did they say about buttons?", "spans": [(5, 5)]},
    ]
    assert doc.meta["speakers"] == ["A", "B", "A", "C", "B", "A", "C", "B"]


def test_splits_limit_and_clipped_spans(fake_qmsum):
    docs = load_qmsum(fake_qmsum, splits=("train", "val"), limit=1)
    assert [d.doc_id for d in docs] == ["qmsum/train/Amr001", "qmsum/val/V1"]  # limit per split
    assert docs[1].labels == (0, None, 1)
    assert [d.doc_id for d in load_qmsum(fake_qmsum, splits=["val"])] == ["qmsum/val/V1"]
    assert load_qmsum(fake_qmsum) == load_qmsum(fake_qmsum, splits=["train"])  # train by default


@pytest.mark.parametrize("splits", [["test"], ["train", "dev"], [], "val"])
def test_bad_split(fake_qmsum, splits):
    # "val" as a bare string is a sequence of characters, not a split name
    with pytest.raises(ValueError, match="splits must be among"):
        load_qmsum(fake_qmsum, splits=splits)
    assert QMSUM_SPLITS == ("train", "val")  # the test split stays unseen


@pytest.mark.parametrize("limit", [0, -1, 1.5, True, "2"])
def test_bad_limit(fake_qmsum, limit):
    with pytest.raises(ValueError, match="limit"):
        load_qmsum(fake_qmsum, limit=limit)


def test_missing_data(tmp_path, fake_qmsum):
    with pytest.raises(ValueError, match="not a QMSum data folder"):
        load_qmsum(tmp_path / "nowhere")
    (tmp_path / "only_val" / "val").mkdir(parents=True)
    with pytest.raises(ValueError, match="no QMSum meetings in"):
        load_qmsum(tmp_path / "only_val", splits=["val"])
    with pytest.raises(ValueError, match="no QMSum meetings in"):
        load_qmsum(tmp_path / "only_val", splits=["train"])


def test_resolve_from_the_environment(fake_qmsum, monkeypatch, tmp_path):
    monkeypatch.setenv(qmsum.ENV_VAR, str(fake_qmsum))
    assert resolve_qmsum_dir() == fake_qmsum
    assert [d.doc_id for d in load_qmsum(splits=["val"])] == ["qmsum/val/V1"]
    monkeypatch.setenv(qmsum.ENV_VAR, str(tmp_path / "nowhere"))
    assert resolve_qmsum_dir(fake_qmsum) == fake_qmsum  # the argument comes first
    with pytest.raises(ValueError, match="not a QMSum data folder"):
        resolve_qmsum_dir()


def test_resolve_searches_above_the_working_directory(tmp_path, monkeypatch):
    monkeypatch.delenv(qmsum.ENV_VAR, raising=False)
    (tmp_path / "shared" / "data" / "qmsum" / "train").mkdir(parents=True)
    deep = tmp_path / "a" / "b"
    deep.mkdir(parents=True)
    monkeypatch.chdir(deep)
    assert resolve_qmsum_dir() == tmp_path.resolve() / "shared" / "data" / "qmsum"


@pytest.mark.parametrize(
    "raw, clean",
    [
        ("So {disfmarker} yes .", "So yes ."),
        ("  a\t\tb  ", "a b"),
        ("{vocalsound} {disfmarker}", "{vocalsound} {disfmarker}"),
        ("{disfmarker} .", "{disfmarker} ."),
        ("Keep {Braces} and {two words} .", "Keep {Braces} and {two words} ."),
        ("", ""),
    ],
)
def test_clean_turn(raw, clean):
    assert clean_turn(raw) == clean


def test_one_real_meeting():
    try:
        root = resolve_qmsum_dir()
    except ValueError as exc:
        pytest.skip(f"QMSum data not available: {exc}")
    (doc,) = load_qmsum(root, splits=["train"], limit=1)
    assert doc.doc_id.startswith("qmsum/train/") and len(doc) > 50
    assert len(doc.meta["speakers"]) == len(doc) and doc.meta["queries"]
    labelled = sum(lab is not None for lab in doc.labels)
    assert 0.5 * len(doc) < labelled <= len(doc) and doc.n_segments >= 2
    for unit in doc.units:  # markers are gone, except from turns made of nothing else
        if "{disfmarker}" in unit:
            assert re.sub(r"\{[a-z_]+\}", "", unit).strip(" .,?!-") == ""
