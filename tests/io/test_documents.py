"""The one document reader (bpseg_pgm.io.documents): folders, JSONL and Parquet; bad documents kept as
errors, bad input refused in one wording; the JSONL rules shared by ``bpseg corpus`` and ``bpseg bench corpus``."""

import json

import pyarrow as pa
import pyarrow.parquet as pq
import pytest

from bpseg_pgm.io.documents import content_record, read_documents, read_jsonl
from bpseg_pgm.types.document import Document


@pytest.fixture()
def folder(tmp_path):
    """Two good documents (one in a sub-folder, Markdown), a binary, an empty one, and files that are skipped."""
    root = tmp_path / "in"
    (root / "sub").mkdir(parents=True)
    (root / "weather.txt").write_text("The sun was shining. I'll play tennis tomorrow.\n", encoding="utf-8")
    (root / "sub" / "markets.md").write_text("# Markets\n\nStocks fell sharply on Monday.\n", encoding="utf-8")
    (root / "bin.txt").write_bytes(b"\x89PNG\r\n\x1a\n\x00\x00\x00IHDR")
    (root / "empty.txt").write_bytes(b"")
    (root / "ignored.csv").write_text("a,b\n1,2\n")
    (root / ".hidden.txt").write_text("Not read. Hidden files are skipped.\n")
    return root


def _jsonl(tmp_path, *lines, name="c.jsonl"):
    path = tmp_path / name
    path.write_text("".join(line + "\n" for line in lines), encoding="utf-8")
    return path


def test_folder_reads_txt_and_md_recursively_sorted_with_errors_kept(folder):
    docs = read_documents(folder)
    assert [d.id for d in docs] == ["bin.txt", "empty.txt", "sub/markets.md", "weather.txt"]
    assert all(type(d) is Document for d in docs)
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
    assert docs["latin1.txt"].error == "not valid UTF-8 (byte 0xe9 at offset 3)"
    assert docs["big.txt"].error == "larger than 100 bytes"


def test_jsonl_text_and_units_records(tmp_path):
    lines = [{"id": "a", "text": "One. Two."}, {"id": 7, "units": ["x", "y"]}, {"id": "n", "text": 3},
             {"id": "both", "text": "a", "units": ["b"]}, {"id": "neither"}, {"id": "u", "units": ["a", 1]},
             {"id": "s", "units": "a b"}]  # fmt: skip
    path = _jsonl(tmp_path, *(json.dumps(x) for x in lines), "")
    docs = read_documents(path)
    assert [d.id for d in docs] == ["a", "7", "n", "both", "neither", "u", "s"]
    assert docs[0].text == "One. Two." and docs[1].units == ("x", "y")
    assert docs[2].error == "'text' is int, not a string"
    assert docs[3].error == "has both 'text' and 'units'; give one"
    assert docs[4].error == "has neither 'text' nor 'units'"
    assert docs[5].error == "unit 1 is int, not a string"
    assert docs[6].error == "'units' must be a list of strings, got str"


def test_jsonl_lines_end_at_newline_only(tmp_path):
    """U+2028, U+2029 and U+0085 are allowed unescaped in a JSON string: they stay in the text."""
    text = "First line\u2028still the first record\u0085 and\u2029 this too."
    path = tmp_path / "c.jsonl"
    path.write_text(
        json.dumps({"id": "a", "text": text}, ensure_ascii=False)
        + "\r\n"
        + json.dumps({"id": "b", "units": ["x\u2028y"]}, ensure_ascii=False)
        + "\n",
        encoding="utf-8",
    )
    docs = read_documents(path)
    assert [(d.id, d.text, d.units) for d in docs] == [("a", text, None), ("b", None, ("x\u2028y",))]


def test_jsonl_byte_order_mark_is_dropped(tmp_path):
    path = tmp_path / "c.jsonl"
    path.write_bytes(b"\xef\xbb\xbf" + json.dumps({"id": "a", "text": "One. Two."}).encode() + b"\n")
    assert [(d.id, d.text) for d in read_documents(path)] == [("a", "One. Two.")]


@pytest.mark.parametrize("content, message", [
    ('{"id": "a", "text": "x"}\nnot json\n', "c.jsonl line 2: not valid JSON (Expecting value)"),
    ('{"text": "x"}\n', "c.jsonl line 1: the record has no 'id'"),
    ('{"id": "", "text": "x"}\n', "c.jsonl line 1: 'id' must be a non-empty string or an integer, got ''"),
    ('{"id": true, "text": "x"}\n', "c.jsonl line 1: 'id' must be a non-empty string or an integer, got True"),
    ('[1, 2]\n', "c.jsonl line 1: expected a JSON object, got list"),
    ('{"id": "a", "text": "x"}\n\n{"id": "a", "text": "y"}\n',
     "c.jsonl: id 'a' is used on lines 1 and 3; ids must be unique"),
    ('{"id": 1, "text": "x"}\n{"id": "1", "text": "y"}\n',  # ids compare as strings
     "c.jsonl: id '1' is used on lines 1 and 2; ids must be unique"),
    ("", "c.jsonl holds no documents"),
    ("\n  \n", "c.jsonl holds no documents"),
])  # fmt: skip
def test_bad_jsonl_is_one_value_error_naming_the_line(tmp_path, content, message):
    path = tmp_path / "c.jsonl"
    path.write_text(content, encoding="utf-8")
    with pytest.raises(ValueError) as info:
        read_documents(path)
    assert str(info.value) == f"{tmp_path}/{message}"


def test_jsonl_that_is_not_text(tmp_path):
    (tmp_path / "b.jsonl").write_bytes(b'{"id": "a", "text": "x"}\n\x00\x00')
    with pytest.raises(ValueError, match=r"b.jsonl: looks like a binary file \(it contains NUL bytes\)"):
        read_documents(tmp_path / "b.jsonl")
    (tmp_path / "l.jsonl").write_bytes('{"id": "a", "text": "caf\xe9"}\n'.encode("latin-1"))
    with pytest.raises(ValueError, match=r"l.jsonl: not valid UTF-8 \(byte 0xe9 at offset 24\)"):
        read_documents(tmp_path / "l.jsonl")


def test_read_jsonl_takes_a_record_reader_and_a_limit(tmp_path):
    path = _jsonl(tmp_path, '{"n": 1}', "", '{"n": 2}', "{broken")
    seen = []

    def record(obj, where, default_id):
        seen.append((where, default_id))
        return Document(default_id, units=(str(obj["n"]),))

    docs = read_jsonl(path, record, limit=2)  # stops before the broken line
    assert [d.id for d in docs] == [f"{path}:1", f"{path}:3"]
    assert seen == [(f"{path} line 1", f"{path}:1"), (f"{path} line 3", f"{path}:3")]
    with pytest.raises(ValueError, match="line 4: not valid JSON"):
        read_jsonl(path, record)


def test_content_record_is_the_default():
    assert content_record({"id": 3, "text": "t"}, "here") == Document("3", text="t")
    with pytest.raises(ValueError, match="^here: the record has no 'id'$"):
        content_record({"text": "t"}, "here")


def test_parquet_with_text_or_units(tmp_path):
    t = tmp_path / "t.parquet"
    pq.write_table(pa.table({"id": ["a", "b"], "text": ["One. Two.", None]}), t)
    docs = read_documents(t)
    assert docs[0].text == "One. Two." and "neither" in docs[1].error
    u = tmp_path / "u.parquet"
    pq.write_table(pa.table({"id": [1, 2], "units": [["x", "y"], ["z"]]}), u)
    assert [(d.id, d.units) for d in read_documents(u)] == [("1", ("x", "y")), ("2", ("z",))]
    dup = tmp_path / "dup.parquet"
    pq.write_table(pa.table({"id": ["a", "b", "a"], "text": ["x", "y", "z"]}), dup)
    with pytest.raises(ValueError, match="dup.parquet: id 'a' is used in rows 1 and 3; ids must be unique"):
        read_documents(dup)
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
    with pytest.raises(ValueError, match="no .txt, .md or .markdown files"):
        read_documents(empty)
    for bad in ("", None, True):
        with pytest.raises(ValueError, match="must be a folder or file path"):
            read_documents(bad)


def test_a_markdown_file_is_a_document_read_as_markdown(tmp_path):
    # .markdown is Markdown for `bpseg segment`: a corpus folder reads it too, as Markdown
    for name in ("a.md", "b.markdown", "c.MARKDOWN", "d.txt", "e.rst.bak"):
        (tmp_path / name).write_text("# Title\n\nOne sentence. Two sentences.\n", encoding="utf-8")
    docs = {d.id: d for d in read_documents(tmp_path)}
    assert sorted(docs) == ["a.md", "b.markdown", "c.MARKDOWN", "d.txt"]
    assert [docs[k].meta.get("markdown") for k in sorted(docs)] == [True, True, True, None]


def test_folder_reads_rst_and_html_with_their_format(make_folder):
    root = make_folder({"a.rst": "T\n=\n\nx.", "b.html": "<p>x</p>", "c.htm": "<p>y</p>", "d.txt": "z", "e.md": "# m"})
    docs = read_documents(root)
    assert [(d.id, d.meta) for d in docs] == [
        ("a.rst", {"format": "rst"}),
        ("b.html", {"format": "html"}),
        ("c.htm", {"format": "html"}),
        ("d.txt", {}),
        ("e.md", {"markdown": True}),
    ]
