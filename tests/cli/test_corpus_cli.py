"""``bpseg corpus``: a folder in, a Parquet dataset out; errors in one line with exit code 2."""

import re

import pyarrow.parquet as pq
import pytest

WEATHER_TENNIS = (
    "The sun was shining brightly. It was a beautiful morning. I'll play tennis tomorrow. "
    "Thunder rumbled in the distance. US Open is a tennis tournament. The rain poured down heavily. "
    "Who is going to win the US Open?\n"
)
MARKETS = (
    "Stocks fell sharply on Monday. Investors were nervous about rates. The recipe needs two eggs. "
    "Whisk them with sugar until pale. Bond yields rose for a third day.\n"
)


@pytest.fixture()
def small_corpus(make_folder):
    return make_folder({"weather.txt": WEATHER_TENNIS, "markets.md": MARKETS, "bin.txt": b"\x00\x01\x02"})


def test_corpus_command_writes_rows_and_resumes(run_bpseg, cli_env, small_corpus, tmp_path):
    out = tmp_path / "out.parquet"
    proc = run_bpseg(["corpus", small_corpus, "-o", out, "-k", "2", "--workers", "0"], cli_env)
    assert proc.returncode == 0, proc.stderr
    assert "2 document(s) segmented" in proc.stdout and "1 failed" in proc.stdout
    rows = pq.read_table(out).to_pylist()
    assert {r["doc"] for r in rows} == {"weather.txt", "markets.md", "bin.txt"}
    assert {r["label"] for r in rows if r["doc"] == "weather.txt"} == {0, 1}
    again = run_bpseg(["corpus", small_corpus, "-o", out, "-k", "2", "--workers", "0"], cli_env)
    assert again.returncode == 0 and "3 already in the output" in again.stdout
    assert pq.read_table(out).num_rows == len(rows)


@pytest.mark.parametrize(
    "args, message",
    [
        (["corpus", "{tmp}/missing", "-o", "{tmp}/o"], "corpus input does not exist"),
        (["corpus", "{in}", "-o", "{tmp}/in/weather.txt"], "exists and is not a folder"),
        (
            ["corpus", "{in}", "-o", "{tmp}/o", "--workers", "1", "--scheduler", "tcp://h:1"],
            "not allowed with argument",
        ),
        (["corpus", "{in}", "-o", "{tmp}/o", "--workers", "-1"], "must be an integer >= 0"),
        (["corpus", "{in}", "-o", "{tmp}/o", "--damping", "3"], "damping"),
        (["corpus", "{in}"], "required: -o/--output"),
    ],
)
def test_corpus_command_errors(run_bpseg, cli_env, small_corpus, tmp_path, args, message):
    args = [a.format(tmp=tmp_path, **{"in": small_corpus}) for a in args]
    proc = run_bpseg(args, cli_env)
    assert proc.returncode == 2
    assert proc.stderr.startswith("bpseg: error: ") and proc.stderr.count("\n") == 1, proc.stderr
    assert message in proc.stderr
    assert not (tmp_path / "o").exists()


def test_backend_option(run_bpseg, cli_env, small_corpus, example_file, tmp_path):
    import json

    pytest.importorskip("onnxruntime")
    env = dict(cli_env, BPSEG_CACHE_DIR=str(tmp_path / "cache"))  # its own cache: the export is written there
    torch_run = run_bpseg(["segment", example_file, "-k", "3", "--format", "json"], env)
    onnx_run = run_bpseg(["segment", example_file, "-k", "3", "--format", "json", "--backend", "onnx"], env)
    assert torch_run.returncode == onnx_run.returncode == 0, onnx_run.stderr
    assert json.loads(onnx_run.stdout)["labels"] == json.loads(torch_run.stdout)["labels"]
    assert (tmp_path / "cache" / "onnx").is_dir()
    out = tmp_path / "out.parquet"
    proc = run_bpseg(["corpus", small_corpus, "-o", out, "--workers", "0", "--backend", "onnx-int8"], env)
    assert proc.returncode == 0, proc.stderr
    assert json.loads((out / "_bpseg_corpus.json").read_text())["backend"] == "onnx-int8"
    bad = run_bpseg(["segment", example_file, "--backend", "tf"], env)
    assert bad.returncode == 2 and "invalid choice: 'tf'" in bad.stderr


def test_ctrl_c_on_a_local_cluster_leaves_a_readable_output_that_a_rerun_completes(
    cli_env, bpseg_module_cmd, run_bpseg, tmp_path
):
    import os
    import signal
    import subprocess
    import time

    root = tmp_path / "many"
    root.mkdir()
    topics = ["tennis match", "rain storm", "stock market", "baking bread", "train timetable", "garden roses"]
    for i in range(24):  # one document per task (--task-chars 1): many parts, so the interrupt falls between them
        a, b = topics[i % 6], topics[(i + 1) % 6]
        (root / f"doc{i:02d}.txt").write_text(
            " ".join(f"Sentence {j} is about the {a if j % 3 else b}." for j in range(12))
        )
    out = tmp_path / "out.parquet"
    cmd = [*bpseg_module_cmd, "corpus", str(root), "-o", str(out), "--workers", "2", "--task-chars", "1"]
    proc = subprocess.Popen(
        cmd,
        env=cli_env,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        start_new_session=True,  # its own process group, as a terminal's foreground job
        preexec_fn=lambda: signal.signal(signal.SIGINT, signal.SIG_DFL),
    )  # not inherited "ignored"
    deadline = time.monotonic() + 240
    while time.monotonic() < deadline and proc.poll() is None:
        if out.is_dir() and len([p for p in out.glob("part-*.parquet") if not p.name.endswith("-schema.parquet")]):
            break
        time.sleep(0.2)
    assert proc.poll() is None, "finished before it could be interrupted"
    os.killpg(proc.pid, signal.SIGINT)  # to the whole group, workers included, as a terminal's Ctrl-C
    _, err = proc.communicate(timeout=120)
    lines = err.strip().splitlines()  # the run's phase line (tests/cli/test_progress.py), then the error alone
    assert proc.returncode == 130 and lines[-1] == "bpseg: error: interrupted", err  # no worker trace
    assert len(lines) == 2 and lines[0].startswith("bpseg: segmenting 24 documents on "), err
    done = {r["doc"] for r in pq.read_table(out).to_pylist()}
    assert 0 < len(done) < 24
    assert not [p for p in out.iterdir() if p.name.startswith(".")]
    again = run_bpseg(["corpus", root, "-o", out, "--workers", "0", "--task-chars", "1"], cli_env)
    assert again.returncode == 0 and f"{len(done)} already in the output" in again.stdout, again.stderr
    rows = pq.read_table(out).to_pylist()
    keys = [(r["doc"], r["sentence"]) for r in rows]
    assert len(keys) == len(set(keys)) and len({k[0] for k in keys}) == 24


def test_two_runs_at_once_on_one_output_never_write_a_document_twice(cli_env, bpseg_module_cmd, small_corpus, tmp_path):
    import subprocess

    out = tmp_path / "out.parquet"
    cmd = [*bpseg_module_cmd, "corpus", str(small_corpus), "-o", str(out), "-k", "2", "--workers", "0"]
    procs = [
        subprocess.Popen(cmd, env=cli_env, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True) for _ in range(2)
    ]
    results = [(p.wait(timeout=300), p.stderr.read()) for p in procs]
    for code, err in results:  # each either did the work, found it done, or refused while the other ran
        # the refusal names the holder's pid, or says "starting" when the holder has not yet written it
        assert code == 0 or (
            code == 2
            and err.count("\n") == 1
            and re.search(r"being written by another bpseg corpus run \((pid \d+ on .+, started .+|starting)\)", err)
        ), err
    rows = pq.read_table(out).to_pylist()
    keys = [(r["doc"], r["sentence"]) for r in rows]
    assert len(keys) == len(set(keys)) and {k[0] for k in keys} == {"weather.txt", "markets.md", "bin.txt"}


def test_a_broken_model_with_dask_workers_is_one_line(run_bpseg, cli_env, small_corpus, tmp_path):
    model = tmp_path / "model"
    model.mkdir()
    (model / "config.json").write_text("")  # a model folder with an empty config: the workers fail to load it
    out = tmp_path / "out.parquet"
    proc = run_bpseg(["corpus", small_corpus, "-o", out, "--workers", "2", "--model", model], cli_env)
    phase, error = proc.stderr.splitlines()  # the run's phase line (tests/cli/test_progress.py), no worker traceback
    assert proc.returncode == 2 and phase.startswith("bpseg: segmenting 3 documents on "), proc.stderr
    assert error.startswith("bpseg: error: cannot load model from ")
    assert not out.exists()
