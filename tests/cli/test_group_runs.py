"""``bpseg segment --group-runs`` and the segments and their runs in the CLI's outputs."""

import json
import re

import pytest

from bpseg_pgm.cli import main as cli_main


def test_group_runs_reaches_the_estimator(cli_env, example_file, monkeypatch, capsys):
    monkeypatch.setenv("BPSEG_CACHE_DIR", cli_env["BPSEG_CACHE_DIR"])
    argv = ["segment", str(example_file), "--lines", "--format", "json"]
    for flag, value in (("off", False), ("on", True), ("auto", "auto")):
        assert cli_main.main([*argv, "--group-runs", flag]) == 0
        assert json.loads(capsys.readouterr().out)["params"]["group_runs"] == value
    assert cli_main.main(argv) == 0
    assert json.loads(capsys.readouterr().out)["params"]["group_runs"] == "auto"  # BPSeg's default


def test_a_bad_group_runs_is_one_line_exit_2(capsys):
    with pytest.raises(SystemExit) as exc:  # a usage error: argparse exits
        cli_main.main(["segment", "-", "--group-runs", "yes"])
    assert exc.value.code == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and err.startswith("bpseg: error: ") and "expected auto, on or off" in err


def test_text_and_json_say_which_segments_return(cli_env, example_file, monkeypatch, capsys):
    monkeypatch.setenv("BPSEG_CACHE_DIR", cli_env["BPSEG_CACHE_DIR"])
    argv = ["segment", str(example_file), "--lines", "-k", "3", "--init", "farthest", "--topics"]
    assert cli_main.main([*argv, "--format", "json"]) == 0
    data = json.loads(capsys.readouterr().out)
    assert data["returning_segments"], "the example's segments come back"  # weather, tennis and small talk alternate
    assert cli_main.main(argv) == 0
    text = capsys.readouterr().out
    first = text.splitlines()[0]
    assert first.startswith(f"{data['n_runs']} runs in {data['n_segments']} segments. Segment")
    for t in data["returning_segments"]:
        where = [r + 1 for r in data["segment_runs"][t]]
        named = ", ".join(map(str, where[:-1])) + f" and {where[-1]}"
        assert f"egment {t + 1}{' returns' if len(data['returning_segments']) == 1 else ''}: runs {named}" in first
        assert f"[Segment {t + 1}] runs {named} · " in text
    assert len(re.findall(r"^  Run \d+", text, re.M)) == data["n_runs"]
    assert all(f"  keywords: {', '.join(words)}" in text for words in data["segment_keywords"] if words)
