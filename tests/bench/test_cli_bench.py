"""``bpseg bench``: a small real run in a subprocess, one-line errors, and ``register``."""

from __future__ import annotations

import argparse
import json
import subprocess
import sys

import pytest

from bpseg_bench import cli as bench
from bpseg_pgm.cli.main import main


def bpseg(*args, cwd=None):
    return subprocess.run(
        [sys.executable, "-m", "bpseg_pgm.cli.main", *args],
        capture_output=True, text=True, cwd=cwd, timeout=300,
    )  # fmt: skip


def test_register_adds_choi_and_example():
    parser = argparse.ArgumentParser()
    bench.register(parser.add_subparsers(dest="command"))
    args = parser.parse_args(["bench", "choi", "--sets", "2", "3", "--ranges", "3-5,6-8", "--limit", "4"])
    assert args.func is bench.run_choi and args.sets == ["2", "3"] and args.out == bench.DEFAULT_CHOI_OUT
    assert bench._split(args.ranges) == ["3-5", "6-8"]
    args = parser.parse_args(["bench", "example", "--seeds", "5"])
    assert args.func is bench.run_example and args.seeds == "5"


def test_choi_slice_writes_markdown_json_png(choi_dir, tmp_path):
    out = tmp_path / "out"
    proc = bpseg(
        "bench",
        "choi",
        "--limit",
        "2",
        "--sets",
        "1",
        "--ranges",
        "3-5",
        "--out",
        str(out),
        "--data",
        str(choi_dir),
        "--methods",
        "kmeans",
        "graphseg",
        "bpseg",
        "--no-progress",
    )
    assert proc.returncode == 0, proc.stderr
    assert sorted(p.name for p in out.iterdir()) == ["choi_results.json", "choi_results.md", "choi_results.png"]
    data = json.loads((out / "choi_results.json").read_text())
    assert [r["doc"] for r in data["records"] if r["method"] == "kmeans"] == ["1/3-5/0", "1/3-5/1"]
    assert data["summary"]["all"]["3-5"]["graphseg"]["n_docs"] == 2
    md = (out / "choi_results.md").read_text(encoding="utf-8")
    assert "| bpseg |" in md and "| 3-5 | kmeans | 2 |" in md and md in proc.stdout
    assert (out / "choi_results.png").read_bytes()[:4] == b"\x89PNG"


@pytest.mark.parametrize(
    "args, message",
    [
        (["--sets", "9"], "unknown Choi set"),
        (["--sets", "x"], "--sets must be an integer"),
        (["--ranges", "1-2"], "unknown Choi range"),
        (["--methods", "nope"], "unknown method"),
        (["--limit", "0"], "--limit must be a positive integer"),
        (["--seed", "-3"], "seed must be a non-negative integer"),
        (["--data", "/nonexistent/choi"], "not a Choi data folder"),
    ],
)
def test_bad_options_one_line_exit_2_nothing_written(choi_dir, tmp_path, capsys, args, message):
    out = tmp_path / "out"
    data = [] if "--data" in args else ["--data", str(choi_dir)]
    assert main(["bench", "choi", "--out", str(out), "--limit", "1", *data, *args]) == 2
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 1 and err[0].startswith("bpseg: error: ") and message in err[0]
    assert not out.exists()


def test_out_that_is_a_file_is_refused(choi_dir, tmp_path, capsys):
    target = tmp_path / "taken"
    target.write_text("keep")
    assert main(["bench", "choi", "--out", str(target), "--limit", "1", "--data", str(choi_dir)]) == 2
    assert "not a directory" in capsys.readouterr().err and target.read_text() == "keep"


@pytest.fixture(scope="module")
def error_run(tmp_path_factory):
    return bpseg("bench", "choi", "--sets", "9", "--out", str(tmp_path_factory.mktemp("e") / "out"))


def test_error_in_a_real_process_has_no_traceback(error_run):
    assert error_run.returncode == 2 and "Traceback" not in error_run.stderr
    assert [line for line in error_run.stderr.splitlines() if line.startswith("bpseg: error: ")] == [
        "bpseg: error: unknown Choi set(s) [9]; choose from [1, 2, 3, 4]"
    ]


def test_error_in_a_real_process_is_one_line(error_run):
    assert len(error_run.stderr.strip().splitlines()) == 1


def test_example_runs(tmp_path):
    proc = bpseg("bench", "example", "--seeds", "2", "--out", str(tmp_path / "ex"))
    assert proc.returncode == 0, proc.stderr
    assert "The three tennis sentences share a segment" in proc.stdout
    data = json.loads((tmp_path / "ex" / "example_results.json").read_text())
    assert data["ks"] == [2, 3, 4, 5, 6, 7] and data["n_seeds"] == 2


@pytest.mark.parametrize(
    "module, argv, where",
    [
        ("choi", ["bench", "choi"], "https://github.com/logological/C99"),
        ("choi", ["bench", "corpus", "choi-1"], "https://github.com/logological/C99"),
        ("qmsum", ["bench", "corpus", "qmsum-train"], "https://github.com/Yale-LILY/QMSum"),
        ("peps", ["bench", "corpus", "peps-val"], "https://github.com/python/peps"),
    ],
)
def test_a_missing_dataset_is_one_line_saying_where_to_get_it(module, argv, where, tmp_path, monkeypatch, capsys):
    import importlib
    from pathlib import Path

    loader = importlib.import_module(f"bpseg_bench.{module}")
    monkeypatch.delenv(loader.ENV_VAR, raising=False)
    monkeypatch.setattr(loader, "_RELATIVE", Path("no-such-folder") / module)  # as on a clone without the data
    monkeypatch.chdir(tmp_path)
    out = tmp_path / "out"
    assert main([*argv, "--out", str(out)]) == 2
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 1 and err[0].startswith("bpseg: error: ") and "data not found" in err[0], err
    assert where in err[0] and f"${loader.ENV_VAR}" in err[0]
    assert not out.exists()
