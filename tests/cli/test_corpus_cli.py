"""``bpseg corpus``: a folder in, a Parquet dataset out; errors in one line with exit code 2."""

import pyarrow.parquet as pq
import pytest

WEATHER_TENNIS = ("The sun was shining brightly. It was a beautiful morning. I'll play tennis tomorrow. "
                  "Thunder rumbled in the distance. US Open is a tennis tournament. The rain poured down heavily. "
                  "Who is going to win the US Open?\n")
MARKETS = ("Stocks fell sharply on Monday. Investors were nervous about rates. The recipe needs two eggs. "
           "Whisk them with sugar until pale. Bond yields rose for a third day.\n")


@pytest.fixture()
def small_corpus(tmp_path):
    root = tmp_path / "in"
    root.mkdir()
    (root / "weather.txt").write_text(WEATHER_TENNIS, encoding="utf-8")
    (root / "markets.md").write_text(MARKETS, encoding="utf-8")
    (root / "bin.txt").write_bytes(b"\x00\x01\x02")
    return root


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


@pytest.mark.parametrize("args, message", [
    (["corpus", "{tmp}/missing", "-o", "{tmp}/o"], "corpus input does not exist"),
    (["corpus", "{in}", "-o", "{tmp}/in/weather.txt"], "exists and is not a folder"),
    (["corpus", "{in}", "-o", "{tmp}/o", "--workers", "1", "--scheduler", "tcp://h:1"], "not allowed with argument"),
    (["corpus", "{in}", "-o", "{tmp}/o", "--workers", "-1"], "must be an integer >= 0"),
    (["corpus", "{in}", "-o", "{tmp}/o", "--damping", "3"], "damping"),
    (["corpus", "{in}"], "required: -o/--output"),
])
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
