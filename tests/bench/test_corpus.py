"""The JSONL corpus format: round trip, unlabelled units, and errors that name the file and line
(read by the one JSONL reader, bpseg_pgm.io.documents.read_jsonl, with the benchmark's record format)."""

from __future__ import annotations

import json
from types import SimpleNamespace

import numpy as np
import pytest

from bpseg_bench.corpus import LabelledDocument, corpus_to_jsonl, from_choi, read_corpus, write_corpus


def _docs():
    return [
        LabelledDocument("a", ("One .", "Two .", "Three ."), ("t0", "t0", "t1"), {"source": "test"}),
        LabelledDocument("b/ü", ("Grüße 日本 .", "Yeah .", "Back ."), (3, None, 3)),
        LabelledDocument("c", ("x",), ("only",)),
    ]


def _write(path, lines):
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")
    return path


def _line(**obj):
    return json.dumps(obj)


GOOD = _line(id="ok", units=["a", "b"], labels=[0, 1])


def test_round_trip(tmp_path):
    docs = _docs()
    path = write_corpus(docs, tmp_path / "sub" / "c.jsonl")
    assert path == tmp_path / "sub" / "c.jsonl"
    back = read_corpus(path)
    assert back == docs  # ids, units and labels (types kept: "t0" vs 3)
    assert [d.meta for d in back] == [{"source": "test"}, {}, {}]
    assert back[1].labels == (3, None, 3) and isinstance(back[1].labels[0], int)
    text = path.read_text(encoding="utf-8")
    assert text.endswith("\n") and len(text.splitlines()) == 3
    assert "Grüße 日本" in text  # not \u-escaped
    assert json.loads(text.splitlines()[0]) == {
        "id": "a", "units": ["One .", "Two .", "Three ."], "labels": ["t0", "t0", "t1"], "meta": {"source": "test"},
    }  # fmt: skip
    assert "meta" not in json.loads(text.splitlines()[2])


def test_numpy_integer_labels_are_written_as_plain_ints():
    doc = LabelledDocument("n", ("a", "b"), (np.int64(4), np.int32(5)))
    assert json.loads(corpus_to_jsonl([doc]))["labels"] == [4, 5]


def test_null_labels_and_derived_properties():
    doc = LabelledDocument("d", ("a", "b", "c", "d", "e"), ("x", None, "y", "x", None))
    np.testing.assert_array_equal(doc.labelled, [True, False, True, True, False])
    np.testing.assert_array_equal(doc.gold, [0, 1, 0])  # codes in order of first appearance
    assert doc.n_segments == 2 and len(doc) == 5 and doc.sentences == doc.units
    with pytest.raises(ValueError, match="3 units but 2 labels"):
        LabelledDocument("bad", ("a", "b", "c"), (0, 1))


def test_from_choi():
    choi = SimpleNamespace(doc_id="1/3-5/0", sentences=["a", "b"], labels=np.array([0, 1]), set=1, range="3-5")
    doc = from_choi(choi)
    assert doc == LabelledDocument("1/3-5/0", ("a", "b"), (0, 1))
    assert doc.meta == {"set": 1, "range": "3-5"} and all(type(x) is int for x in doc.labels)


def test_blank_lines_ids_and_limit(tmp_path):
    path = _write(tmp_path / "c.jsonl", [
        "", _line(id=7, units=["a"], labels=["x"]), "   ",
        _line(units=["b", "c"], labels=[None, "y"]), GOOD, "{broken",
    ])  # fmt: skip
    docs = read_corpus(path, limit=3)  # stops before the broken line
    assert [d.doc_id for d in docs] == ["7", f"{path}:4", "ok"]  # no id: the line names the document
    assert [d.doc_id for d in read_corpus(path, limit=1)] == ["7"]
    with pytest.raises(ValueError) as info:
        read_corpus(path)
    assert str(info.value) == f"{path} line 6: not valid JSON (Expecting property name enclosed in double quotes)"
    for bad in (0, -1, 1.5, True, "2"):
        with pytest.raises(ValueError, match="limit"):
            read_corpus(path, limit=bad)


BAD_LINES = [
    ("{not json", "not valid JSON (Expecting property name enclosed in double quotes)"),
    ("[1, 2]", "expected a JSON object, got list"),
    ('"text"', "expected a JSON object, got str"),
    (_line(id="x", labels=[0]), "the record has no 'units'"),
    (_line(id="x", units=[], labels=[]), "'units' is empty"),
    (_line(id="x", units="a b", labels=[0]), "'units' must be a list of strings, got str"),
    (_line(id="x", units=["a", 3], labels=[0, 0]), "unit 1 is int, not a string"),
    (_line(id="x", units=["a", "b"]), "'labels' must be a list with one label (or null) per unit"),
    (_line(id="x", units=["a", "b"], labels=[0]), "'labels' must be a list with one label (or null) per unit"),
    (_line(id="x", units=["a"], labels="0"), "'labels' must be a list with one label (or null) per unit"),
    (_line(id="x", units=["a"], labels=[1.5]), "labels must be strings, integers or null, got 1.5"),
    (_line(id="x", units=["a"], labels=[True]), "labels must be strings, integers or null, got True"),
    (_line(id="x", units=["a"], labels=[[0]]), "labels must be strings, integers or null, got [0]"),
    (_line(id="x", units=["a", "b"], labels=[None, None]), "every label is null"),
    (_line(id=["x"], units=["a"], labels=[0]), "'id' must be a non-empty string or an integer, got ['x']"),
    (_line(id="", units=["a"], labels=[0]), "'id' must be a non-empty string or an integer, got ''"),
]


@pytest.mark.parametrize("bad, message", BAD_LINES)
def test_every_error_names_the_file_and_line(tmp_path, bad, message):
    path = _write(tmp_path / "c.jsonl", [GOOD, "", bad, GOOD.replace('"ok"', '"later"')])
    with pytest.raises(ValueError) as info:
        read_corpus(path)
    assert str(info.value) == f"{path} line 3: {message}"


def test_duplicate_ids_name_both_lines(tmp_path):
    path = _write(tmp_path / "c.jsonl", [GOOD, "", GOOD])
    with pytest.raises(ValueError) as info:
        read_corpus(path)
    assert str(info.value) == f"{path}: id 'ok' is used on lines 1 and 3; ids must be unique"


def test_duplicate_ids_compare_as_strings(tmp_path):
    path = _write(tmp_path / "c.jsonl", [_line(id=1, units=["a"], labels=[0]), _line(id="1", units=["b"], labels=[0])])
    with pytest.raises(ValueError, match="id '1' is used on lines 1 and 2; ids must be unique"):
        read_corpus(path)


def test_byte_order_mark_and_unicode_line_separators(tmp_path):
    """The benchmark corpus is read by the corpus's reader: a BOM is dropped, U+2028 / U+0085 stay in their unit."""
    path = tmp_path / "c.jsonl"
    units = ["One\u2028line .", "Two\u0085 .", "Three ."]
    path.write_bytes(
        b"\xef\xbb\xbf"
        + (json.dumps({"id": "a", "units": units, "labels": [0, 0, 1]}, ensure_ascii=False) + "\n").encode("utf-8")
    )
    (doc,) = read_corpus(path)
    assert doc.doc_id == "a" and doc.units == tuple(units) and doc.labels == (0, 0, 1)


def test_missing_and_empty_files(tmp_path):
    with pytest.raises(ValueError, match="does not exist"):
        read_corpus(tmp_path / "missing.jsonl")
    with pytest.raises(ValueError, match="does not exist"):
        read_corpus(tmp_path)  # a folder
    with pytest.raises(ValueError, match="holds no documents"):
        read_corpus(_write(tmp_path / "empty.jsonl", ["", "  "]))


def test_write_is_all_or_nothing_and_replaces(tmp_path):
    path = tmp_path / "c.jsonl"
    write_corpus(_docs(), path)
    write_corpus(_docs()[:1], path)
    assert [d.doc_id for d in read_corpus(path)] == ["a"]
    assert sorted(p.name for p in tmp_path.iterdir()) == ["c.jsonl"]  # no temporaries left
