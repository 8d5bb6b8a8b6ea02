"""read_documents: folders, JSONL and Parquet; bad documents kept as errors, bad input refused."""

import json

import pyarrow as pa
import pyarrow.parquet as pq
import pytest

from bpseg_pgm.corpus import read_documents
from bpseg_pgm.corpus.tasks import group_documents


def test_folder_reads_txt_and_md_recursively_sorted_with_errors_kept(corpus_dir):
    docs = read_documents(corpus_dir)
    assert [d.id for d in docs] == ["bin.txt", "empty.txt", "notes.txt", "one.txt", "sub/markets.md", "weather.txt"]
    by_id = {d.id: d for d in docs}
    assert "binary" in by_id["bin.txt"].error and by_id["bin.txt"].text is None
    assert by_id["empty.txt"].text == "" and by_id["empty.txt"].error is None  # empty: refused when segmented
    assert by_id["sub/markets.md"].text.startswith("# Markets")


def test_folder_bom_dropped_bad_utf8_and_large_files_are_document_errors(tmp_path):
    (tmp_path / "bom.txt").write_bytes(b"\xef\xbb\xbfOne. Two.")
    (tmp_path / "latin1.txt").write_bytes("caf\xe9. Ok.".encode("latin-1"))
    (tmp_path / "big.txt").write_text("A sentence. " * 100)
    docs = {d.id: d for d in read_documents(tmp_path, max_bytes=100)}
    assert docs["bom.txt"].text == "One. Two."
    assert "not valid UTF-8 (byte 0xe9 at offset 3)" in docs["latin1.txt"].error
    assert "larger than 100 bytes" in docs["big.txt"].error


def test_jsonl_text_and_units_records(tmp_path):
    path = tmp_path / "c.jsonl"
    lines = [{"id": "a", "text": "One. Two."}, {"id": 7, "units": ["x", "y"]}, {"id": "n", "text": 3},
             {"id": "both", "text": "a", "units": ["b"]}, {"id": "neither"}, {"id": "u", "units": ["a", 1]}]
    path.write_text("\n".join(json.dumps(x) for x in lines) + "\n\n", encoding="utf-8")
    docs = read_documents(path)
    assert [d.id for d in docs] == ["a", "7", "n", "both", "neither", "u"]
    assert docs[0].text == "One. Two." and docs[1].units == ("x", "y")
    assert "'text' is int" in docs[2].error
    assert "both" in docs[3].error and "neither" in docs[4].error and "unit 1 is int" in docs[5].error


@pytest.mark.parametrize("content, message", [
    ('{"id": "a", "text": "x"}\nnot json\n', "line 2: not valid JSON"),
    ('{"text": "x"}\n', "line 1: the record has no 'id'"),
    ('{"id": "", "text": "x"}\n', "'id' must be a non-empty string"),
    ('[1, 2]\n', "expected a JSON object"),
    ('{"id": "a", "text": "x"}\n{"id": "a", "text": "y"}\n', "id 'a' is used by records 1 and 2"),
    ("", "holds no documents"),
])
def test_bad_jsonl_is_one_value_error_naming_the_line(tmp_path, content, message):
    path = tmp_path / "c.jsonl"
    path.write_text(content, encoding="utf-8")
    with pytest.raises(ValueError, match=message.replace("(", r"\(").replace("[", r"\[")):
        read_documents(path)


def test_parquet_with_text_or_units(tmp_path):
    t = tmp_path / "t.parquet"
    pq.write_table(pa.table({"id": ["a", "b"], "text": ["One. Two.", None]}), t)
    docs = read_documents(t)
    assert docs[0].text == "One. Two." and "neither" in docs[1].error
    u = tmp_path / "u.parquet"
    pq.write_table(pa.table({"id": [1, 2], "units": [["x", "y"], ["z"]]}), u)
    assert [(d.id, d.units) for d in read_documents(u)] == [("1", ("x", "y")), ("2", ("z",))]
    bad = tmp_path / "bad.parquet"
    pq.write_table(pa.table({"name": ["a"], "body": ["x"]}), bad)
    with pytest.raises(ValueError, match="expected columns 'id' and 'text' or 'units'"):
        read_documents(bad)
    junk = tmp_path / "junk.parquet"
    junk.write_bytes(b"not parquet at all")
    with pytest.raises(ValueError, match="cannot read .* as Parquet"):
        read_documents(junk)


@pytest.mark.parametrize("source, message", [("missing", "does not exist"), ("file.csv", "expected a folder")])
def test_bad_source(tmp_path, source, message):
    (tmp_path / "file.csv").write_text("a\n")
    with pytest.raises(ValueError, match=message):
        read_documents(tmp_path / source)
    empty = tmp_path / "empty"
    empty.mkdir()
    with pytest.raises(ValueError, match="no .txt or .md files"):
        read_documents(empty)


def test_grouping_keeps_order_whole_documents_and_ignores_worker_count(corpus_dir):
    docs = read_documents(corpus_dir)
    groups = group_documents(docs, task_chars=300)
    assert [d for g in groups for d in g] == docs
    assert all(sum(d.size for d in g) <= 300 or len(g) == 1 for g in groups)
    assert len(group_documents(docs, task_chars=10**9)) == 1
