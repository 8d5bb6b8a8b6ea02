"""``-o -`` is standard output, as input ``-`` is standard input (it wrote a file named ``-``)."""

from __future__ import annotations

import json

import pytest

from bpseg_pgm.cli import main as cli_main
from bpseg_pgm.cli.demo import load_example

TEXT = "\n".join(load_example()) + "\n"


@pytest.fixture
def cached(cli_env, monkeypatch):
    monkeypatch.setenv("BPSEG_CACHE_DIR", cli_env["BPSEG_CACHE_DIR"])


def test_segment_o_dash_writes_to_stdout(cached, tmp_path, capsys, monkeypatch):
    monkeypatch.chdir(tmp_path)
    doc = tmp_path / "in.txt"
    doc.write_text(TEXT, encoding="utf-8")
    assert cli_main.main(["segment", str(doc), "--lines", "-k", "3", "--format", "json", "-o", "-"]) == 0
    assert len(json.loads(capsys.readouterr().out)["labels"]) == len(load_example())
    assert not (tmp_path / "-").exists()


def test_corpus_o_dash_is_refused_in_one_line(tmp_path, capsys, monkeypatch):
    monkeypatch.chdir(tmp_path)
    (tmp_path / "docs").mkdir()
    (tmp_path / "docs" / "a.txt").write_text(TEXT, encoding="utf-8")
    assert cli_main.main(["corpus", "docs", "-o", "-"]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "bpseg corpus writes a folder of Parquet parts" in err, err
    assert not (tmp_path / "-").exists()
