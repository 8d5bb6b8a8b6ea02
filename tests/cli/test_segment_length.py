"""``bpseg segment --segment-length N``: the automatic fit re-cut into round(sentences / N) runs without
refitting; with -k or --topics, or a value that is not a number > 0, one error line and exit code 2."""

from __future__ import annotations

import json

import pytest

from bpseg_pgm.cli import main as cli_main


@pytest.fixture
def argv(cli_env, example_file, monkeypatch):
    monkeypatch.setenv("BPSEG_CACHE_DIR", cli_env["BPSEG_CACHE_DIR"])
    return ["segment", str(example_file), "--lines", "--format", "json"]


def _json_run(argv, capsys, warning: str = "") -> dict:
    assert cli_main.main(argv) == 0
    out, err = capsys.readouterr()
    if warning:  # one line, saying what was done
        assert err.count("\n") == 1 and err.startswith("bpseg: warning: ") and warning in err, err
    else:
        assert err == ""
    return json.loads(out)


def test_segment_length_recuts_into_round_n_over_length_runs(argv, capsys):
    data = _json_run([*argv, "--contiguous", "--segment-length", "3"], capsys)
    n = len(data["sentences"])
    assert n == 13 and data["n_segments"] == round(13 / 3) == 4
    assert data["structure"] == "runs" and data["params"]["n_segments"] == 4
    assert all(b - a in (0, 1) for a, b in zip(data["labels"], data["labels"][1:]))  # runs in reading order
    fresh = _json_run([*argv, "--contiguous", "-k", "4"], capsys)
    assert data == fresh  # the same as fitting k = 4 directly


def test_segment_length_is_clipped_to_the_levels_kept(argv, capsys):
    assert _json_run([*argv, "--contiguous", "--segment-length", "1000"], capsys, "cut into 1")["n_segments"] == 1
    data = _json_run([*argv, "--contiguous", "--segment-length", "0.5"], capsys, "asks for 26 segments")
    assert 1 < data["n_segments"] <= 13 // 2


def _one_error_line(capsys, code) -> str:
    assert code == 2
    out, err = capsys.readouterr()
    assert out == "" and err.count("\n") == 1 and err.startswith("bpseg: error: "), err
    return err


@pytest.mark.parametrize(
    "extra, match",
    [
        (["-k", "3"], "--segment-length and -k/--n-segments cannot be used together"),
        (["--topics"], "cannot be used with --topics"),
        (["--init", "all"], "this fit kept none (it chose the topics model); add --contiguous"),
    ],
)
def test_conflicts_are_one_error_line(argv, capsys, extra, match):
    err = _one_error_line(capsys, cli_main.main([*argv, "--segment-length", "3", *extra]))
    assert match in err, err


@pytest.mark.parametrize("value", ["0", "-1", "nan", "inf", "abc", ""])
def test_bad_values_are_one_usage_line(argv, capsys, value):
    with pytest.raises(SystemExit) as stop:
        cli_main.main([*argv, f"--segment-length={value}"])
    err = _one_error_line(capsys, stop.value.code)
    assert "argument --segment-length: expected a number > 0" in err, err


def test_real_command_exit_code_2_without_traceback(cli_env, example_file, run_bpseg):
    proc = run_bpseg(["segment", example_file, "--lines", "-k", "2", "--segment-length", "4"], cli_env)
    assert proc.returncode == 2 and proc.stdout == ""
    assert proc.stderr.startswith("bpseg: error: --segment-length and -k") and proc.stderr.count("\n") == 1


def test_help_documents_the_option(capsys):
    with pytest.raises(SystemExit):
        cli_main.main(["segment", "--help"])
    out = " ".join(capsys.readouterr().out.split())
    assert "--segment-length N target mean number of sentences per run" in out
    assert "not with -k or --topics" in out
