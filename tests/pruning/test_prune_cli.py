"""``bpseg prune``: the kept text or JSON, -o, and one-line errors with exit code 2."""

import json
import re
from pathlib import Path

import pytest

from bpseg_pgm import prune
from bpseg_pgm.cli import main as cli_main
from bpseg_pgm.embeddings import Embedder
from bpseg_pgm.text import sentence_spans

TEXT = """The tennis final was played on the hard court at noon.  Heavy rain and strong wind are expected tonight.

Her tennis serve won the final set of the tournament. The forecast says rain will turn to snow.
Cold wind and snow will close the mountain roads tomorrow.\tThe tennis tournament gives the winner a trophy.
"""
QUERY = "Who won the tennis tournament?"


def _main(argv):
    """Exit code of ``bpseg`` (usage errors end in SystemExit)."""
    try:
        return cli_main.main(argv)
    except SystemExit as exc:
        return exc.code


@pytest.fixture(scope="module")
def cache_dir(tmp_path_factory):
    """A private embedding cache already holding the sentences and the query (the model loads once, offline)."""
    from bpseg_pgm.text import split_sentences

    cache = tmp_path_factory.mktemp("prune_cache")
    Embedder(cache_dir=cache, show_progress=False).encode([*split_sentences(TEXT), QUERY])
    return cache


@pytest.fixture
def text_file(tmp_path, cache_dir, monkeypatch):
    monkeypatch.setenv("BPSEG_CACHE_DIR", str(cache_dir))
    path = tmp_path / "notes.txt"
    path.write_text(TEXT, encoding="utf-8")
    return path


def test_text_output_is_the_pruned_text(text_file, capsys):
    assert cli_main.main(["prune", str(text_file), "--query", QUERY, "--budget", "0.4"]) == 0
    out, err = capsys.readouterr()
    assert err == ""
    expected = prune(TEXT, QUERY, budget=0.4)
    assert expected.kept and out == expected.text + "\n"


def test_json_output_and_output_file(text_file, tmp_path, capsys):
    out_path = tmp_path / "pruned.json"
    argv = ["prune", str(text_file), "-q", QUERY, "--max-tokens", "30", "--format", "json", "-o", str(out_path)]
    assert cli_main.main(argv) == 0
    assert capsys.readouterr() == ("", "")
    d = json.loads(out_path.read_text("utf-8"))
    assert d["budget"]["unit"] == "tokens" and 0 < d["budget"]["used"] <= 30
    assert d["kept"] == sorted(d["kept"])
    spans = sentence_spans(TEXT)
    assert [tuple(s) for s in d["spans"]] == [spans[i] for i in d["kept"]]  # offsets of the kept sentences
    assert d["text"] == "\n\n".join(TEXT[a:b] for a, b in d["runs"])


@pytest.mark.parametrize(
    "extra, message",
    [
        (["--query", ""], "query is empty"),
        (["--query", "x", "--budget", "0"], r"budget must be a fraction of the words in \(0, 1\]"),
        (["--query", "x", "--budget", "1.5"], "budget must be"),
        (["--query", "x", "--budget", "lots"], "argument --budget: invalid float value"),
        (["--query", "x", "--budget", "0.2", "--max-tokens", "50"], "not allowed with argument"),
        (["--query", "x", "--max-tokens", "0"], "must be a positive integer"),
        ([], "the following arguments are required: --query"),
    ],
)
def test_errors_are_one_line_and_exit_2(text_file, capsys, extra, message):
    assert _main(["prune", str(text_file), *extra]) == 2
    out, err = capsys.readouterr()
    assert out == ""
    assert err.count("\n") == 1 and err.startswith("bpseg: error: ")
    assert re.search(message, err)


def test_missing_and_empty_files(tmp_path, capsys):
    (tmp_path / "empty.txt").write_text("", encoding="utf-8")
    for name, message in (("missing.txt", "No such file"), ("empty.txt", "text is empty")):
        assert _main(["prune", str(tmp_path / name), "-q", "x"]) == 2
        out, err = capsys.readouterr()
        assert out == "" and err.count("\n") == 1 and message in err


def test_the_docs_example_runs(tmp_path, monkeypatch, capsys):
    """The docs' pruning guide (docs/howto/prune.md, once the README's 'Pruning a prompt to a question'): its example
    runs as shown and keeps the office move."""
    root = Path(__file__).resolve().parents[2]
    page = (root / "docs" / "howto" / "prune.md").read_text("utf-8")
    block = re.search(r"```python\n(.*?)```", page, re.S).group(1)
    monkeypatch.setenv("BPSEG_CACHE_DIR", str(tmp_path))
    monkeypatch.chdir(root)
    scope = {}
    exec(compile(block, "docs/howto/prune.md", "exec"), scope)
    res = scope["res"]
    assert "office move" in res.text and capsys.readouterr().out == res.text + "\n"
    assert [" ".join(scope["text"][a:b].split()) for a, b in res.spans] == [res.units[i] for i in res.kept]
