"""``bpseg segment --format chunks-jsonl``: exact offsets into the input file, the token cap, option errors."""

import json

import pytest

from bpseg_pgm.cli import main as cli_main
from bpseg_pgm.cli.demo import load_example


@pytest.fixture
def cached(cli_env, monkeypatch):
    monkeypatch.setenv("BPSEG_CACHE_DIR", cli_env["BPSEG_CACHE_DIR"])


@pytest.fixture
def messy_file(tmp_path):
    """The cached example as messy prose: double spaces, tabs, CRLF, blank lines, a wrapped sentence."""
    s = load_example()
    text = (
        "\ufeff"
        + "  ".join(s[:3])
        + "\t"
        + s[3]
        + "\r\n\r\n\n"
        + s[4].replace(" ", "\n", 1)
        + "  "
        + "   ".join(s[5:9])
        + "\n\n\t"
        + "\t".join(s[9:])
        + "\n"
    )
    path = tmp_path / "messy.txt"
    path.write_bytes(text.encode("utf-8"))
    return path, text[1:]  # offsets count characters of the text as decoded, without the byte-order mark


def _chunks(capsys, argv):
    assert cli_main.main(argv) == 0
    out, err = capsys.readouterr()
    assert err == ""
    return [json.loads(line) for line in out.splitlines()]


@pytest.mark.parametrize(
    "extra",
    [
        [],
        ["--max-tokens", "30"],
        ["--max-tokens", "12", "--min-tokens", "8"],
        ["--whole-segments", "--max-tokens", "40"],
    ],
)
def test_chunks_point_into_the_input_and_fit_the_cap(cached, messy_file, capsys, extra):
    path, text = messy_file
    chunks = _chunks(capsys, ["segment", str(path), "--format", "chunks-jsonl", "-k", "3", *extra])
    assert [c["chunk"] for c in chunks] == list(range(len(chunks)))
    assert sorted(i for c in chunks for i in c["sentences"]) == list(range(13))
    cap = int(extra[extra.index("--max-tokens") + 1]) if "--max-tokens" in extra else None
    for c in chunks:
        assert c["text"] == "\n\n".join(text[a:b] for a, b in c["spans"])
        if len(c["spans"]) == 1:
            assert text[c["start"] : c["end"]] == c["text"]
        if cap:  # a hard cap: single sentences too
            assert c["n_tokens"] <= cap
        assert set(c) == {
            "chunk",
            "start",
            "end",
            "text",
            "sentences",
            "segment",
            "n_tokens",
            "confidence",
            "spans",
            "run",
            "keywords",
            "heading_path",
            "context_before",  # the policy's context, one sentence a side
            "context_after",
            "embed_text",
        }
        assert c["embed_text"] == c["context_before"] + c["text"] + c["context_after"]
    if "--whole-segments" not in extra:
        assert all(len(c["spans"]) == 1 for c in chunks)
        assert chunks[0]["start"] == 0 and chunks[-1]["end"] == len(text.rstrip())


def test_chunks_written_to_a_file(cached, example_file, tmp_path, capsys):
    out = tmp_path / "chunks.jsonl"
    assert cli_main.main(["segment", str(example_file), "--lines", "--format", "chunks-jsonl", "-o", str(out)]) == 0
    lines = out.read_text("utf-8").splitlines()
    text = example_file.read_text("utf-8")
    assert lines and all(text[(c := json.loads(x))["start"] : c["end"]] == c["text"] for x in lines)


@pytest.mark.parametrize(
    "extra, message",
    [
        (["--max-tokens", "50"], "--max-tokens only applies to --format chunks-jsonl"),
        (
            ["--format", "json", "--min-tokens", "5", "--whole-segments"],
            "--min-tokens and --whole-segments only apply to --format chunks-jsonl",
        ),
        (
            ["--format", "chunks-jsonl", "--max-tokens", "3", "--min-tokens", "5"],
            "--min-tokens (5) is larger than --max-tokens (3)",
        ),
        (
            ["--format", "chunks-jsonl", "--whole-segments", "--min-tokens", "5"],
            "--min-tokens merges neighbouring chunks, which --whole-segments does not make",
        ),
        (["--parents"], "--parents only applies to --format json or chunks-jsonl"),
        (
            ["--format", "html", "--context-sentences", "1"],
            "--context-sentences only applies to --format json or chunks-jsonl",
        ),
        (
            ["--format", "json", "--context-sentences", "1"],
            "--context-sentences is the chunks' context, which the json format writes only with --parents",
        ),
    ],
)
def test_option_errors_are_one_line_before_any_work(cached, example_file, capsys, monkeypatch, extra, message):
    import bpseg_pgm.text.pipeline as pipeline

    monkeypatch.setattr(pipeline, "segment_text", lambda *a, **k: pytest.fail("ran before the options were checked"))
    assert cli_main.main(["segment", str(example_file), "--lines", *extra]) == 2
    out, err = capsys.readouterr()
    assert out == "" and err == f"bpseg: error: {message}\n"


@pytest.mark.parametrize("value", ["0", "-3", "2.5", "many"])
def test_bad_token_counts_are_usage_errors(capsys, value):
    with pytest.raises(SystemExit) as stop:
        cli_main.main(["segment", "-", "--format", "chunks-jsonl", "--max-tokens", value])
    assert stop.value.code == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and err.startswith("bpseg: error: argument --max-tokens")


def test_min_tokens_0_and_soft_cap_on_the_command_line(cached, example_file, capsys):
    def run(*extra):
        assert cli_main.main(["segment", str(example_file), "--lines", "--format", "chunks-jsonl", *extra]) == 0
        return [json.loads(x) for x in capsys.readouterr().out.splitlines()]

    merged, unmerged = run("--max-tokens", "40"), run("--max-tokens", "40", "--min-tokens", "0")
    assert len(unmerged) >= len(merged)  # the default floor (a quarter of the cap) may merge pieces of one segment
    assert cli_main.main(["segment", str(example_file), "--lines", "--format", "json"]) == 0
    labels = json.loads(capsys.readouterr().out)["labels"]
    for chunk in merged + unmerged:  # never across segments (issue 36, fault 5)
        assert {labels[i] for i in chunk["sentences"]} == {chunk["segment"]}
    hard, soft = run("--max-tokens", "6"), run("--max-tokens", "6", "--soft-cap")
    assert max(c["n_tokens"] for c in hard) <= 6 < max(c["n_tokens"] for c in soft)


def test_min_tokens_below_0_is_one_line_and_exit_2(cached, example_file, capsys):
    with pytest.raises(SystemExit) as exit_info:
        cli_main.main(["segment", str(example_file), "--format", "chunks-jsonl", "--min-tokens", "-1"])
    assert exit_info.value.code == 2
    assert "must be an integer >= 0" in capsys.readouterr().err


def test_parents_and_context_on_the_command_line(cached, messy_file, capsys):
    path, text = messy_file
    argv = ["segment", str(path), "-k", "3", "--format", "chunks-jsonl", "--max-tokens", "30"]
    plain = _chunks(capsys, [*argv, "--context-sentences", "0"])
    lines = _chunks(capsys, [*argv, "--parents", "--context-sentences", "1"])
    parents = [d for d in lines if d["type"] == "parent"]
    chunks = [d for d in lines if d["type"] == "chunk"]
    assert parents and lines[: len(parents)] == parents  # the parents first
    for p in parents:
        assert p["text"] == "\n\n".join(text[a:b] for a, b in p["spans"])
    # the context is beside the chunk, never in it: the chunks are those without the options
    keys = ("start", "end", "text", "sentences", "segment", "n_tokens")
    assert [{k: c[k] for k in keys} for c in chunks] == [{k: c[k] for k in keys} for c in plain]
    assert all(c["embed_text"] == c["context_before"] + c["text"] + c["context_after"] for c in chunks)
    assert all(text[c["start"] - len(c["context_before"]) : c["start"]] == c["context_before"] for c in chunks)
    assert any(c["context_before"] for c in chunks) and any(c["context_after"] for c in chunks)
    assert {c["parent"] for c in chunks} == set(range(len(parents)))

    assert cli_main.main(["segment", str(path), "-k", "3", "--format", "json", "--parents"]) == 0
    d = json.loads(capsys.readouterr().out)
    assert len(d["parents"]) == 3 and all("embed_text" in c for c in d["chunks"])  # the policy's context
    argv = ["segment", str(path), "-k", "3", "--format", "json", "--parents", "--context-sentences", "0"]
    assert cli_main.main(argv) == 0
    assert all("embed_text" not in c for c in json.loads(capsys.readouterr().out)["chunks"])


def test_context_sentences_below_0_is_a_usage_error(capsys):
    with pytest.raises(SystemExit) as stop:
        cli_main.main(["segment", "-", "--format", "chunks-jsonl", "--context-sentences", "-1"])
    assert stop.value.code == 2
    assert "must be an integer >= 0" in capsys.readouterr().err
