"""Issue 36, fault 1: ``-o`` never replaces the input (the same file through any link); and the CLI notes of
issue 36 (``demo -o``, ``--group-runs on`` with ``--topics`` / ``--segment-length``)."""

from __future__ import annotations

import os
import re
import sys
import types

import pytest

from bpseg_pgm.cli import main as cli_main
from bpseg_pgm.cli.demo import load_example
from bpseg_pgm.embeddings import Embedder

TEXT = "\n".join(load_example()) + "\n"


@pytest.fixture
def cached(cli_env, monkeypatch):
    monkeypatch.setenv("BPSEG_CACHE_DIR", cli_env["BPSEG_CACHE_DIR"])


@pytest.fixture
def no_work(monkeypatch):
    """Embedding or pruning fails the test: the refusal must come before any work."""

    def refuse(*args, **kwargs):
        raise AssertionError("worked before refusing the output")

    monkeypatch.setattr(Embedder, "encode", refuse)
    import bpseg_pgm.pruning as pruning

    monkeypatch.setattr(pruning, "prune", refuse)


def _one_error_line(err: str, *parts: str) -> None:
    lines = err.splitlines()
    assert len(lines) == 1 and lines[0].startswith("bpseg: error: "), err
    for part in parts:
        assert part in lines[0], err
    assert "Traceback" not in err


def _layout(tmp_path):
    real = tmp_path / "in.txt"
    real.write_text(TEXT, encoding="utf-8")
    link = tmp_path / "link.txt"
    link.symlink_to(real)
    return real, link


@pytest.mark.parametrize("command", [["segment"], ["segment", "--format", "json"], ["prune", "-q", "tennis"]])
@pytest.mark.parametrize(
    "given, out", [("real", "real"), ("real", "link"), ("link", "real"), ("link", "link"), ("relative", "real")]
)
def test_output_that_is_the_input_is_refused_before_any_work(
    tmp_path, capsys, no_work, monkeypatch, command, given, out
):
    real, link = _layout(tmp_path)
    monkeypatch.chdir(tmp_path)
    paths = {"real": str(real), "link": str(link), "relative": "in.txt"}
    argv = [command[0], paths[given], *command[1:], "--lines", "-o", paths[out]]
    assert cli_main.main(argv) == 2
    _one_error_line(capsys.readouterr().err, f"output {paths[out]} is the input {paths[given]}")
    assert real.read_text(encoding="utf-8") == TEXT and link.is_symlink()
    assert sorted(p.name for p in tmp_path.iterdir()) == ["in.txt", "link.txt"]


def test_a_hard_link_to_the_input_is_the_input_too(tmp_path, capsys, no_work):
    real, _ = _layout(tmp_path)
    hard = tmp_path / "hard.txt"
    os.link(real, hard)
    assert cli_main.main(["segment", str(real), "--lines", "-o", str(hard)]) == 2
    _one_error_line(capsys.readouterr().err, "is the input", "(the same file)")
    assert real.read_text(encoding="utf-8") == TEXT == hard.read_text(encoding="utf-8")


def test_standard_input_redirected_from_the_output_file_is_refused(tmp_path, capsys, no_work, monkeypatch):
    real, _ = _layout(tmp_path)
    with open(real, "rb") as f:
        monkeypatch.setattr(sys, "stdin", types.SimpleNamespace(buffer=f, fileno=f.fileno))
        assert cli_main.main(["segment", "-", "--lines", "-o", str(real)]) == 2
    _one_error_line(capsys.readouterr().err, "is the input standard input")
    assert real.read_text(encoding="utf-8") == TEXT


def test_another_output_path_still_works(cached, tmp_path, capsys):
    real, _ = _layout(tmp_path)
    out = tmp_path / "out.txt"
    assert cli_main.main(["segment", str(real), "--lines", "-k", "3", "-o", str(out)]) == 0
    assert re.search(r"^\[(Segment|Topic) 1\]", out.read_text(), re.M)
    assert real.read_text(encoding="utf-8") == TEXT
    # /dev/stdin and /dev/stdout are not files that can be destroyed: never compared
    from bpseg_pgm.io.output import check_not_input

    check_not_input("/dev/null", ["/dev/null", "-", None])


@pytest.mark.parametrize("what", ["folder", "jsonl"])
def test_corpus_output_that_is_its_input_is_refused(tmp_path, capsys, no_work, what):
    if what == "folder":
        source = tmp_path / "docs"
        source.mkdir()
        (source / "a.txt").write_text(TEXT, encoding="utf-8")
        out = tmp_path / "docs_link"
        out.symlink_to(source)
    else:
        source = tmp_path / "docs.jsonl"
        source.write_text('{"id": "a", "text": "One sentence. Two sentences."}\n', encoding="utf-8")
        out = source
    before = sorted(p.name for p in tmp_path.rglob("*"))
    assert cli_main.main(["corpus", str(source), "-o", str(out), "--workers", "0"]) == 2
    _one_error_line(capsys.readouterr().err, f"output {out} is the input {source}")
    assert sorted(p.name for p in tmp_path.rglob("*")) == before


def test_bench_export_and_corpus_refuse_to_write_over_their_input(tmp_path, capsys, monkeypatch):
    import bpseg_bench.bench_corpus as bench_corpus

    def refuse(*args, **kwargs):
        raise AssertionError("loaded the dataset before refusing the output")

    monkeypatch.setattr(bench_corpus, "load_dataset", refuse)
    data = tmp_path / "data.jsonl"
    data.write_text('{"id": "a", "units": ["One.", "Two."], "labels": [0, 1]}\n', encoding="utf-8")
    assert cli_main.main(["bench", "export", str(data), "-o", str(data)]) == 2
    _one_error_line(capsys.readouterr().err, f"output {data} is the input {data}")
    out = tmp_path / "report"
    out.mkdir()
    (out / "corpus_results.json").symlink_to(data)
    assert cli_main.main(["bench", "corpus", str(data), "--out", str(out), "--no-progress"]) == 2
    _one_error_line(capsys.readouterr().err, "corpus_results.json is the input", "(the same file)")
    assert data.read_text(encoding="utf-8").startswith('{"id": "a"')


# -- the notes of issue 36 -------------------------------------------------------------------------


def test_demo_writes_its_report_to_o(cached, tmp_path, capsys):
    out = tmp_path / "demo.txt"
    assert cli_main.main(["demo", "-o", str(out)]) == 0
    assert out.read_text().startswith("BP-Seg demo:")
    assert capsys.readouterr().out == ""


@pytest.mark.parametrize(
    "argv, match",
    [
        (["--group-runs", "on", "--topics"], "--group-runs on groups the runs of the runs model"),
        (["--group-runs", "on", "--segment-length", "3"], "cannot be used with --group-runs on"),
    ],
)
def test_group_runs_on_where_it_would_be_ignored_is_refused(tmp_path, capsys, no_work, argv, match):
    real, _ = _layout(tmp_path)
    assert cli_main.main(["segment", str(real), "--lines", *argv]) == 2
    _one_error_line(capsys.readouterr().err, match)
