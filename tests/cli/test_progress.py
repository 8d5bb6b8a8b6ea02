"""Progress a user can see (issue 52, item 5): ``segment``, ``prune``, ``demo`` and ``corpus`` print one line per
phase on stderr (loading the model, embedding n of N sentences, fitting ...) even when it is not a terminal, with no
bar and no carriage return; ``-q``/``--quiet`` prints none and leaves standard output as it was; a run that is quick
throughout (everything cached, a short text) prints nothing."""

from __future__ import annotations

import logging
import re
from pathlib import Path

import pytest

import bpseg_pgm.corpus.tasks
from bpseg_pgm.cli import main as cli_main
from bpseg_pgm.cli.progress import phase_lines
from bpseg_pgm.embeddings import Embedder

NOTES = Path(__file__).resolve().parents[2] / "examples" / "notes.txt"
LOADING = "bpseg: loading the model all-MiniLM-L6-v2"
EMBEDDING = re.compile(r"bpseg: embedding (\d+) of \1 sentences")


def test_segment_in_a_pipe_says_each_phase_in_one_plain_line(run_bpseg, cli_env, tmp_path):
    env = dict(cli_env, BPSEG_CACHE_DIR=str(tmp_path / "cache"))  # nothing cached: the model loads
    proc = run_bpseg(["segment", NOTES], env)  # stderr is a pipe
    assert proc.returncode == 0, proc.stderr
    lines = proc.stderr.splitlines()
    assert len(lines) == 3 and lines[0] == LOADING, proc.stderr
    n = EMBEDDING.fullmatch(lines[1])[1]
    assert int(n) >= 10 and lines[2] == f"bpseg: fitting {n} sentences"
    assert "\r" not in proc.stderr and "Embedding" not in proc.stderr  # no bar, no animation
    again = run_bpseg(["segment", NOTES, "-q"], env)  # all cached now: quick, and quiet
    assert again.returncode == 0 and again.stderr == "" and again.stdout == proc.stdout != ""


def test_a_run_that_is_quick_throughout_prints_nothing(run_bpseg, cli_env, example_file):
    proc = run_bpseg(["segment", example_file, "--lines"], cli_env)  # the example is cached: no model, no embedding
    assert proc.returncode == 0 and proc.stderr == "", proc.stderr


@pytest.fixture
def fresh_cache(embedder, monkeypatch, tmp_path):
    """``fresh_cache(name)``: a new, empty embedding cache for the next in-process run; the model "loads" as the
    session's loaded one (its line is printed all the same)."""
    model = embedder.model  # loaded before _load is replaced
    monkeypatch.setattr(Embedder, "_load", lambda self: model)
    monkeypatch.setattr(bpseg_pgm.corpus.tasks, "_EMBEDDERS", {})  # no embedder (and loaded model) kept from before

    def use(name: str) -> Path:
        folder = tmp_path / name
        monkeypatch.setenv("BPSEG_CACHE_DIR", str(folder))
        bpseg_pgm.corpus.tasks._EMBEDDERS.clear()
        return folder

    return use


def _corpus_rows(out: Path) -> list:
    import pyarrow.parquet as pq

    return sorted(pq.read_table(out).to_pylist(), key=lambda r: (r["doc"], r["sentence"]))


COMMANDS = {
    "segment": (["segment", str(NOTES)], "-q", [LOADING, EMBEDDING, re.compile(r"bpseg: fitting \d+ sentences")]),
    "prune": (
        ["prune", str(NOTES), "--query", "When does the office move?"],
        "--quiet",  # -q is --query
        [LOADING, EMBEDDING, re.compile(r"bpseg: segmenting \d+ sentences and keeping the most relevant")],
    ),
    "demo": (
        ["demo"],
        "-q",
        [LOADING, "bpseg: embedding 13 of 13 sentences", "bpseg: fitting the example for k = 2..7"],
    ),
    "corpus": (
        ["corpus", "{folder}", "--workers", "0"],  # a folder holding notes.txt alone
        "-q",
        ["bpseg: segmenting 1 document in this process", LOADING, EMBEDDING],
    ),
}


@pytest.mark.parametrize("command", COMMANDS)
def test_each_command_says_its_phases_and_quiet_keeps_stdout(command, fresh_cache, capsys, tmp_path):
    argv, quiet, expected = COMMANDS[command]
    if command == "corpus":
        (tmp_path / "docs").mkdir()
        (tmp_path / "docs" / "notes.txt").write_text(NOTES.read_text("utf-8"), encoding="utf-8")
        argv = [str(tmp_path / "docs") if a == "{folder}" else a for a in argv]
    outputs = []
    for name, extra in (("loud", []), ("quiet", [quiet])):
        fresh_cache(f"cache-{name}")  # nothing cached in either run: both embed
        out_dir = ["-o", str(tmp_path / f"{name}.parquet")] if command == "corpus" else []
        assert cli_main.main([*argv, *out_dir, *extra]) == 0
        out, err = capsys.readouterr()  # stderr here is not a terminal
        outputs.append(_corpus_rows(tmp_path / f"{name}.parquet") if command == "corpus" else out)
        if extra:
            assert err == "", err
        else:
            lines = err.splitlines()
            assert len(lines) == len(expected), err
            for line, want in zip(lines, expected):
                assert want.fullmatch(line) if isinstance(want, re.Pattern) else line == want, (line, want)
            assert "\r" not in err
    assert outputs[0] == outputs[1] and outputs[0]


def _record(logger: logging.Logger, message: str, quick: bool) -> None:
    logger.info(message, extra={"quick": quick})


def test_a_quick_phase_is_shown_only_after_a_slow_one(capsys):
    logger = logging.getLogger("bpseg_pgm.text.pipeline")
    with phase_lines():
        _record(logger, "fitting 18 sentences", quick=True)  # alone: a quick run, nothing to say
    assert capsys.readouterr().err == ""
    with phase_lines():
        _record(logger, "loading the model", quick=False)
        _record(logger, "fitting 18 sentences", quick=True)
    assert capsys.readouterr().err == "bpseg: loading the model\nbpseg: fitting 18 sentences\n"
    with phase_lines(False):  # --quiet
        _record(logger, "loading the model", quick=False)
    _record(logger, "outside a command: the library's logging as the caller set it", quick=False)
    assert capsys.readouterr().err == ""
