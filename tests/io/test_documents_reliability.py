"""Issue 22's reader rows: only regular files are opened (a FIFO never blocks, /dev/zero never fills the memory),
every read is bounded by max_bytes (records too), names that are not UTF-8 become escaped error rows, and
symlinked sub-folders are followed once (no loop)."""

import json
import os
import subprocess
import sys
import threading

import pytest

from bpseg_pgm.io.documents import read_documents

GOOD = "The sun was shining. I'll play tennis tomorrow.\n"


@pytest.fixture()
def root(make_folder):
    return make_folder({"good.txt": GOOD})


def _by_id(docs):
    return {d.id: d for d in docs}


@pytest.mark.skipif(not os.path.exists("/dev/zero"), reason="needs /dev/zero")
def test_a_device_in_a_folder_or_as_a_jsonl_is_never_read(root, tmp_path):
    (root / "zero.txt").symlink_to("/dev/zero")
    jsonl = tmp_path / "x.jsonl"
    jsonl.symlink_to("/dev/zero")
    code = (
        f"import json; from bpseg_pgm.io.documents import read_documents as r\n"
        f"d = {{x.id: x.error for x in r({str(root)!r}, max_bytes=1000)}}\n"
        f"try:\n    r({str(jsonl)!r})\nexcept ValueError as e:\n    d['jsonl'] = str(e)\nprint(json.dumps(d))"
    )
    # before the fix this read until out of memory: bounded here to 2 GiB of address space and 60 s
    proc = subprocess.run(
        ["bash", "-c", 'ulimit -v 4000000; exec "$0" -c "$1"', sys.executable, code],
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert proc.returncode == 0, proc.stderr[-2000:]
    got = json.loads(proc.stdout)
    assert got["zero.txt"] == "is a character device, not a regular file"
    assert got["good.txt"] is None
    assert got["jsonl"] == f"{jsonl} is a character device, not a regular file"


def test_a_fifo_in_a_folder_or_as_input_never_blocks(root, tmp_path):
    fifo = root / "pipe.txt"
    os.mkfifo(fifo)
    result = {}
    reader = threading.Thread(target=lambda: result.update(docs=read_documents(root)), daemon=True)
    reader.start()
    reader.join(timeout=20)
    if reader.is_alive():  # before the fix: blocked in open() until a writer comes; let it go
        os.close(os.open(fifo, os.O_WRONLY | os.O_NONBLOCK))
        pytest.fail("reading a folder with a FIFO in it blocked")
    docs = _by_id(result["docs"])
    assert docs["pipe.txt"].error == "is a FIFO, not a regular file" and docs["good.txt"].text == GOOD
    pipe = tmp_path / "p.jsonl"
    os.mkfifo(pipe)
    with pytest.raises(ValueError, match="p.jsonl is a FIFO, not a regular file"):
        read_documents(pipe)


def test_a_file_name_that_is_not_utf8_is_an_escaped_error_row(root):
    fd = os.open(os.path.join(os.fsencode(root), b"caf\xe9.txt"), os.O_CREAT | os.O_WRONLY)
    os.write(fd, GOOD.encode())
    os.close(fd)
    docs = _by_id(read_documents(root))
    assert set(docs) == {"good.txt", "caf\\xe9.txt"}
    assert "not valid UTF-8" in docs["caf\\xe9.txt"].error and docs["good.txt"].text == GOOD
    for d in docs.values():
        d.id.encode("utf-8")  # every id can go into a Parquet string column


def test_records_are_bounded_by_max_bytes_and_must_be_valid_unicode(tmp_path):
    src = tmp_path / "c.jsonl"
    lines = [
        {"id": "small", "text": GOOD},
        {"id": "big", "text": "é" * 600},
        {"id": "units", "units": ["a" * 500, "b" * 500]},
        {"id": "fits", "units": ["a" * 499, "b" * 500]},
    ]
    src.write_text(
        "".join(json.dumps(x) + "\n" for x in lines) + '{"id": "bad", "text": "\\ud800 x"}\n'
        '{"id": "\\udc80", "text": "x"}\n',
        encoding="utf-8",
    )
    docs = _by_id(read_documents(src, max_bytes=1000))
    assert docs["small"].error is None and docs["fits"].error is None
    assert docs["big"].error == "larger than 1000 bytes" and docs["units"].error == "larger than 1000 bytes"
    assert "not valid Unicode" in docs["bad"].error and "not valid Unicode" in docs["\\udc80"].error
    import pyarrow as pa
    import pyarrow.parquet as pq

    pq.write_table(pa.table({"id": ["a", "b"], "text": [GOOD, "x" * 2000]}), tmp_path / "d.parquet")
    docs = _by_id(read_documents(tmp_path / "d.parquet", max_bytes=1000))
    assert docs["a"].error is None and docs["b"].error == "larger than 1000 bytes"


def test_symlinked_sub_folders_are_followed_once(root, tmp_path):
    other = tmp_path / "elsewhere"
    other.mkdir()
    (other / "linked.txt").write_text(GOOD, encoding="utf-8")
    (root / "link").symlink_to(other, target_is_directory=True)
    (root / "loop").symlink_to(root, target_is_directory=True)  # would recurse for ever
    (other / "back").symlink_to(other, target_is_directory=True)
    ids = [d.id for d in read_documents(root)]
    assert ids == ["good.txt", "link/linked.txt"]
