"""The ``bpseg`` command run for real in subprocesses: outputs, and one-line errors with exit code 2."""

import fcntl
import importlib
import json
import os
import pty
import struct
import subprocess
import sys
import termios
import types
from concurrent.futures import ThreadPoolExecutor

import pytest

from bpseg_pgm.cli import main as cli_main
from bpseg_pgm.cli.demo import load_example


def test_text_output_through_the_installed_console_script(cli_env, example_file, console_script, run_bpseg):
    script = console_script
    assert script.is_file(), "bpseg is not installed; run pip install -e ."
    proc = run_bpseg(["segment", example_file, "-k", "3", "--lines", "--init", "farthest"], cli_env, cmd=[script])
    assert proc.returncode == 0, proc.stderr
    assert proc.stderr == ""
    assert proc.stdout.count("[Segment ") + proc.stdout.count("[Topic ") == 3  # topics when one returns
    for sentence in load_example():
        assert proc.stdout.count(sentence) == 1


def test_json_from_standard_input(cli_env, run_bpseg):
    prose = " ".join(load_example()).encode("utf-8")
    proc = run_bpseg(
        ["segment", "-", "-k", "4", "--format", "json", "--full-beliefs", "--engine", "loopy", "--init", "farthest"],
        cli_env,
        stdin=prose,
    )
    assert proc.returncode == 0, proc.stderr
    data = json.loads(proc.stdout)
    assert data["sentences"] == load_example()
    assert len(data["labels"]) == 13 and len(data["beliefs"]) == 13
    assert len(data["segments"]) <= len(data["beliefs"][0]) <= 4
    assert data["params"]["engine"] == "loopy" and data["params"]["n_segments"] == 4
    assert sorted(i for seg in data["segments"] for i in seg) == list(range(13))


def test_html_written_to_a_file(cli_env, example_file, tmp_path, run_bpseg):
    out = tmp_path / "page.html"
    proc = run_bpseg(["segment", example_file, "--lines", "--format", "html", "-o", out, "--seed", "1"], cli_env)
    assert proc.returncode == 0, proc.stderr
    assert proc.stdout == "" and proc.stderr == ""
    page = out.read_text(encoding="utf-8")
    assert page.startswith("<!DOCTYPE html>") and "I&#x27;ll play tennis tomorrow." in page
    assert oct(out.stat().st_mode & 0o777) != oct(0o600)  # not the temp file's private mode
    assert [p.name for p in tmp_path.iterdir()] == ["page.html"]


def test_progress_bar_on_a_terminal_only(cli_env, tmp_path, bpseg_module_cmd):
    text = "\n".join(f"Fresh sentence {i} about topic {i % 3} for the progress bar test." for i in range(40))
    src = tmp_path / "fresh.txt"
    src.write_text(text, encoding="utf-8")
    env = dict(cli_env, BPSEG_CACHE_DIR=str(tmp_path / "cache"))
    master, slave = pty.openpty()
    fcntl.ioctl(slave, termios.TIOCSWINSZ, struct.pack("HHHH", 24, 100, 0, 0))  # a new pty is 0 columns wide
    try:
        proc = subprocess.run(
            [*bpseg_module_cmd, "segment", str(src), "--lines", "-o", str(tmp_path / "out.txt")],
            env=env,
            stdin=subprocess.DEVNULL,
            stdout=subprocess.DEVNULL,
            stderr=slave,
            timeout=300,
        )
        os.close(slave)
        chunks = []
        while True:
            try:
                chunk = os.read(master, 65536)
            except OSError:
                break
            if not chunk:
                break
            chunks.append(chunk)
    finally:
        os.close(master)
    err = b"".join(chunks).decode("utf-8", "replace")
    assert proc.returncode == 0, err
    assert "Embedding" in err and "40/40" in err  # (off when stderr is not a terminal: tests/text)


# -- errors -------------------------------------------------------------------------------

BAD_INPUTS = {
    "empty file": (b"", [], "empty"),
    "whitespace only": (b"  \n\t\n   \n", [], "whitespace"),
    "single sentence": (b"Just one sentence here.\n", [], "found 1 sentence"),
    "binary": (b"\x89PNG\r\n\x1a\n\x00\x00\x00\rIHDR\x00\x00", [], "binary"),
    "not utf-8": ("Café au lait. Très bien. Merci.".encode("latin-1"), [], "not valid UTF-8"),
    "k too large": (None, ["-k", "20", "--lines"], "larger than the number of sentences"),
    "unknown model offline": (None, ["--model", "no-such-org/no-such-model-xyz"], "cannot be reached"),
}


@pytest.fixture(scope="module")
def bad_runs(cli_env, example_file, tmp_path_factory, run_bpseg):
    """Every bad invocation in its own folder, run three at a time (each one is a few seconds of imports)."""
    root = tmp_path_factory.mktemp("bad")
    jobs = {}
    for name, (data, extra, _) in BAD_INPUTS.items():
        work = root / name.replace(" ", "_")
        work.mkdir()
        src = example_file
        if data is not None:
            src = work / "input.txt"
            src.write_bytes(data)
        env = dict(cli_env, HF_HUB_OFFLINE="1") if name == "unknown model offline" else cli_env
        jobs[name] = (work, ["segment", src, "-o", work / "out.txt", *extra], env)
    for name, args in {
        "output in a missing directory": ["segment", example_file, "-o", "{work}/nope/out.html"],
        "missing input file": ["segment", "{work}/no_such_file.txt", "-o", "{work}/out.txt"],
        "input is a directory": ["segment", "{work}", "-o", "{work}/out.txt"],
        "empty standard input": ["segment", "-", "-o", "{work}/out.txt"],
    }.items():
        work = root / name.replace(" ", "_")
        work.mkdir()
        jobs[name] = (work, [str(a).format(work=work) for a in args], cli_env)
    with ThreadPoolExecutor(max_workers=3) as pool:
        futures = {name: pool.submit(run_bpseg, args, env) for name, (_, args, env) in jobs.items()}
        return {name: (jobs[name][0], f.result()) for name, f in futures.items()}


EXPECTED_MESSAGE = {name: match for name, (_, _, match) in BAD_INPUTS.items()} | {
    "output in a missing directory": "output directory does not exist",
    "missing input file": "No such file or directory",
    "input is a directory": "is a directory",
    "empty standard input": "empty",
}


@pytest.mark.parametrize("name", list(EXPECTED_MESSAGE))
def test_bad_input_is_one_line_exit_2_and_no_output_file(bad_runs, name):
    work, proc = bad_runs[name]
    assert proc.returncode == 2, (proc.stdout, proc.stderr)
    assert "Traceback" not in proc.stderr
    lines = proc.stderr.splitlines()
    if name == "unknown model offline":  # it failed while loading the model: that phase's line comes first
        assert lines[0] == "bpseg: loading the model no-such-org/no-such-model-xyz", proc.stderr
        lines = lines[1:]
    assert len(lines) == 1, proc.stderr
    assert lines[0].startswith("bpseg: error: ") and EXPECTED_MESSAGE[name] in lines[0], lines[0]
    assert proc.stdout == ""
    assert [p.name for p in work.rglob("*") if p.name != "input.txt"] == []


def test_failed_run_keeps_an_existing_output_file(cli_env, tmp_path, run_bpseg):
    src = tmp_path / "one.txt"
    src.write_text("Only one sentence.", encoding="utf-8")
    out = tmp_path / "out.txt"
    out.write_text("previous result", encoding="utf-8")
    proc = run_bpseg(["segment", src, "-o", out], cli_env)
    assert proc.returncode == 2
    assert out.read_text(encoding="utf-8") == "previous result"
    assert sorted(p.name for p in tmp_path.iterdir()) == ["one.txt", "out.txt"]


@pytest.mark.parametrize(
    "argv, match",
    [
        ([], "required"),
        (["segment"], "required: FILE"),
        (["segment", "f.txt", "-k", "abc"], "invalid int value"),
        (["segment", "f.txt", "-k", "0"], "positive integer"),
        (["segment", "f.txt", "--engine", "warp"], "invalid choice"),
        (["segment", "f.txt", "--sigma", "wide"], "expected auto, none or a number > 0"),
        (["segment", "f.txt", "--context", "-1"], "expected auto or a number >= 0"),
        (["segment", "f.txt", "--context", "inf"], "expected auto or a number >= 0"),
        (["segment", "f.txt", "--context", "lots"], "expected auto or a number >= 0"),
        (["segment", "f.txt", "--merge-above", "2"], "expected none or a number in [-1, 1]"),
        (["segment", "f.txt", "--lam", "-1"], "argument --lam: expected none or a number >= 0, got '-1'"),
        (["segment", "f.txt", "--cost", "wide"], "argument --cost: invalid choice: 'wide'"),
        (["demo", "--format", "json"], "unrecognized arguments"),
    ],
)
def test_usage_errors_are_one_line_exit_2(argv, match, capsys):
    with pytest.raises(SystemExit) as exc:
        cli_main.main(argv)
    assert exc.value.code == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and err.startswith("bpseg: error: ") and match in err, err


def test_engine_parameter_errors_are_one_line_exit_2(cli_env, example_file, monkeypatch, capsys):
    monkeypatch.setenv("BPSEG_CACHE_DIR", cli_env["BPSEG_CACHE_DIR"])
    with pytest.raises(SystemExit) as exc:  # refused by the option's own type, made from BPSeg's table
        cli_main.main(["segment", str(example_file), "--lines", "--lam", "-1"])
    assert exc.value.code == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and err.startswith("bpseg: error: ") and "lam" in err, err
    # a value only the estimator can judge (re-estimation rounds for an engine without them): one line, exit 2
    assert cli_main.main(["segment", str(example_file), "--lines", "--engine", "appendix", "--em-rounds", "2"]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and err.startswith("bpseg: error: "), err


def test_options_reach_the_estimator_and_unset_ones_keep_its_defaults(cli_env, example_file, monkeypatch, capsys):
    monkeypatch.setenv("BPSEG_CACHE_DIR", cli_env["BPSEG_CACHE_DIR"])
    argv = ["segment", str(example_file), "--lines", "--format", "json"]
    assert (
        cli_main.main(
            [
                *argv,
                "-k",
                "5",
                "--potentials",
                "paper",
                "--sigma",
                "none",
                "--em-rounds",
                "1",
                "--damping",
                "0.5",
                "--engine",
                "loopy",
                "--context",
                "0.3",
                "--merge-above",
                "none",
            ]
        )
        == 0
    )
    params = json.loads(capsys.readouterr().out)["params"]
    assert params["n_segments"] == 5 and params["potentials"] == "paper" and params["sigma"] is None
    assert params["context"] == 0.3 and params["merge_above"] is None
    assert params["em_rounds"] == 1 and params["damping"] == 0.5 and params["engine"] == "loopy"
    assert cli_main.main(argv) == 0
    params = json.loads(capsys.readouterr().out)["params"]
    from bpseg_pgm import BPSeg

    assert params == {k: v for k, v in BPSeg().get_params().items()}


# -- the bench hook (in-process) ----------------------------------------------------------


def test_bench_hook_registers_the_subcommand(monkeypatch, capsys):
    calls = []

    def register(subparsers):
        p = subparsers.add_parser("bench", help="fake bench")
        p.set_defaults(func=lambda args: calls.append(args.command) or 0)

    monkeypatch.setitem(sys.modules, "bpseg_bench.cli", types.SimpleNamespace(register=register))
    assert cli_main.main(["bench"]) == 0
    assert calls == ["bench"]


def test_bench_hook_is_optional_but_does_not_hide_broken_imports(monkeypatch):
    real = importlib.import_module

    def missing(name, *a):
        if name == "bpseg_bench.cli":
            raise ModuleNotFoundError("No module named 'bpseg_bench.cli'", name=name)
        return real(name, *a)

    monkeypatch.setattr(cli_main.importlib, "import_module", missing)
    with pytest.raises(SystemExit) as exc:
        cli_main.build_parser().parse_args(["bench"])
    assert exc.value.code == 2

    def broken(name, *a):
        if name == "bpseg_bench.cli":
            raise ModuleNotFoundError("No module named 'plotly'", name="plotly")
        return real(name, *a)

    monkeypatch.setattr(cli_main.importlib, "import_module", broken)
    with pytest.raises(ModuleNotFoundError, match="plotly"):
        cli_main.build_parser()


def test_out_of_memory_is_one_line_exit_2(cli_env, example_file, monkeypatch, capsys):
    import bpseg_pgm.inference.kernels.layouts as layouts

    monkeypatch.setenv("BPSEG_CACHE_DIR", cli_env["BPSEG_CACHE_DIR"])
    monkeypatch.setattr(layouts, "_POPULATE_BYTES", 0)  # check even the example's tiny buffers
    monkeypatch.setattr(layouts, "available_bytes", lambda: 0)
    assert cli_main.main(["segment", str(example_file), "--lines"]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and err.startswith("bpseg: error: ") and "GiB for its messages" in err, err


def test_structure_flags(cli_env, example_file, monkeypatch, capsys):
    """--contiguous forces runs, --topics the topic model; the JSON says which; both at once is an error."""
    monkeypatch.setenv("BPSEG_CACHE_DIR", cli_env["BPSEG_CACHE_DIR"])
    argv = ["segment", str(example_file), "--lines", "--format", "json", "-k", "3"]
    assert cli_main.main([*argv, "--contiguous"]) == 0
    data = json.loads(capsys.readouterr().out)
    assert data["structure"] == "runs" and data["params"]["structure"] == "runs"
    assert all(b - a in (0, 1) for a, b in zip(data["labels"], data["labels"][1:]))  # runs in reading order
    assert cli_main.main([*argv, "--topics"]) == 0
    data = json.loads(capsys.readouterr().out)
    assert data["structure"] == "topics" and data["params"]["structure"] == "topics"
    with pytest.raises(SystemExit) as exc:
        cli_main.main([*argv, "--topics", "--contiguous"])
    assert exc.value.code == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "not allowed with" in err, err
