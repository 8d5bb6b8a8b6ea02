"""``--policy FILE`` on segment, prune and corpus: the file's Policy reaches the call; a bad file is one line,
exit 2, before any work."""

import pytest

import bpseg_pgm.corpus
import bpseg_pgm.pruning
import bpseg_pgm.text.pipeline
from bpseg_pgm.cli import commands
from bpseg_pgm.cli import main as cli_main
from bpseg_pgm.policy import DEFAULT_POLICY


@pytest.fixture
def calls(monkeypatch):
    """Each command's library call, recorded instead of run."""
    seen = {}

    def record(name, result):
        def call(*args, **kwargs):
            seen[name] = kwargs
            return result

        return call

    class Report:
        def summary(self):
            return "done"

    monkeypatch.setattr(bpseg_pgm.text.pipeline, "segment_text", record("segment", None))
    monkeypatch.setattr(bpseg_pgm.pruning, "prune", record("prune", None))
    monkeypatch.setattr(bpseg_pgm.corpus, "segment_corpus", record("corpus", Report()))
    return seen


@pytest.fixture
def text_file(tmp_path):
    path = tmp_path / "doc.txt"
    path.write_text("One sentence here. Another one there. A third.", encoding="utf-8")
    return path


def _argv(command, text_file, tmp_path):
    return {
        "segment": ["segment", str(text_file)],
        "prune": ["prune", str(text_file), "-q", "which one?"],
        "corpus": ["corpus", str(tmp_path), "-o", str(tmp_path / "out.parquet"), "--workers", "0"],
    }[command]


@pytest.mark.parametrize("command", ["segment", "prune", "corpus"])
def test_the_files_policy_reaches_the_call(command, calls, text_file, tmp_path, monkeypatch):
    monkeypatch.setattr(commands, "_emit", lambda content, out: None)
    monkeypatch.setattr(commands, "_chosen_format", lambda args, kind: (None, {}))
    policy = tmp_path / "policy.toml"
    policy.write_text("run_scale = 2.0\nprune_top_m = 3\n", encoding="utf-8")
    try:
        cli_main.main([*_argv(command, text_file, tmp_path), "--policy", str(policy)])
    except AttributeError:  # the recorded call returns None, which the command then renders
        pass
    assert calls[command]["policy"] == DEFAULT_POLICY.replace(run_scale=2.0, prune_top_m=3)


@pytest.mark.parametrize("command", ["segment", "prune", "corpus"])
@pytest.mark.parametrize(
    "text, message",
    [
        ("run_scal = 2.0\n", "Policy has no field 'run_scal'"),
        ("confidence_runs = 5.0\n", "Policy.confidence_runs must be a number in (0, 1), got 5.0"),
        ("run_scale = \n", "not valid TOML"),
    ],
)
def test_a_bad_policy_file_is_one_line_exit_2_before_any_work(
    command, text, message, calls, text_file, tmp_path, capsys
):
    policy = tmp_path / "policy.toml"
    policy.write_text(text, encoding="utf-8")
    assert cli_main.main([*_argv(command, text_file, tmp_path), "--policy", str(policy)]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and err.startswith("bpseg: error: ") and message in err, err
    assert "policy.toml" in err and command not in calls


def test_a_missing_policy_file_is_one_line_exit_2(calls, text_file, tmp_path, capsys):
    assert cli_main.main(["segment", str(text_file), "--policy", str(tmp_path / "none.toml")]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "none.toml" in err and "segment" not in calls


def _fifo(tmp_path):
    import os

    path = tmp_path / "policy.fifo"
    os.mkfifo(path)
    return path


@pytest.mark.parametrize(
    "make, message",
    [
        (lambda tmp_path: "/dev/zero", "is a character device, not a regular file"),
        (_fifo, "is a FIFO, not a regular file"),
        (lambda tmp_path: tmp_path, "is a folder, not a regular file"),
        (lambda tmp_path: _big(tmp_path), "larger than 1048576 bytes"),
        (lambda tmp_path: _latin1(tmp_path), "is not valid UTF-8 (byte 0xe9 at offset 19)"),
    ],
    ids=["dev-zero", "fifo", "folder", "100MB", "latin-1"],
)
def test_a_policy_file_is_a_bounded_regular_utf8_file(make, message, calls, text_file, tmp_path, capsys):
    """``--policy /dev/zero`` never returned and a FIFO waited for ever: only a regular file of at most
    MAX_POLICY_BYTES is read, and a file that is not UTF-8 is one line naming it."""
    import time

    path = str(make(tmp_path))
    start = time.perf_counter()
    assert cli_main.main(["segment", str(text_file), "--policy", path]) == 2
    assert time.perf_counter() - start < 5
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and err.startswith("bpseg: error: policy file ") and message in err, err
    assert path in err and "segment" not in calls


def _big(tmp_path):
    path = tmp_path / "big.toml"
    with open(path, "wb") as f:  # sparse: 100 MB without writing them
        f.truncate(100 * 2**20)
    return path


def _latin1(tmp_path):
    path = tmp_path / "latin1.toml"
    path.write_bytes("# the policy of caf\u00e9\nrun_scale = 2.0\n".encode("latin-1"))
    return path
