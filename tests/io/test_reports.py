"""All-or-nothing report writing (bpseg_pgm.io.reports)."""

from __future__ import annotations

import pytest

from bpseg_pgm.io.reports import check_output_dir, write_atomically


def test_writes_text_and_bytes_creating_folders(tmp_path):
    out = tmp_path / "a" / "b"
    paths = write_atomically({out / "x.md": "é\n", out / "y.png": b"\x89PNG"})
    assert (out / "x.md").read_text(encoding="utf-8") == "é\n" and (out / "y.png").read_bytes() == b"\x89PNG"
    assert paths == [out / "x.md", out / "y.png"]
    assert sorted(p.name for p in out.iterdir()) == ["x.md", "y.png"]  # no temporaries left


def test_failure_leaves_nothing(tmp_path):
    (tmp_path / "x.md").write_text("old")
    with pytest.raises(TypeError):
        write_atomically({tmp_path / "x.md": "new", tmp_path / "y.json": 42})
    assert (tmp_path / "x.md").read_text() == "old"
    assert sorted(p.name for p in tmp_path.iterdir()) == ["x.md"]


def test_output_dir_must_not_be_a_file(tmp_path):
    f = tmp_path / "f"
    f.write_text("")
    with pytest.raises(ValueError, match="not a directory"):
        check_output_dir(f)
    assert check_output_dir(tmp_path / "new") == tmp_path / "new"
