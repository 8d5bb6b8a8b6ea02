"""``--format`` comes from the format registry: every registered format is offered and written, in process.

The pipeline is replaced by a small segmentation (and ``prune`` by a fixed result), so these
tests check the dispatch, not the model: the bytes written are the format's own rendering.
"""

import argparse
from types import SimpleNamespace

import pytest
from small_segmentation import TEXT, small_segmentation

import bpseg_pgm.pruning
import bpseg_pgm.text.pipeline
from bpseg_pgm.cli import main as cli_main
from bpseg_pgm.formats import FormatOption, OutputFormat, format_names, get_format, register_format
from bpseg_pgm.formats.registry import REGISTRY


@pytest.fixture
def stub_pipeline(monkeypatch, tmp_path):
    """A file to segment, and segment_text / prune returning fixed results; returns the file."""
    seg = small_segmentation()
    monkeypatch.setattr(bpseg_pgm.text.pipeline, "segment_text", lambda text, *a, **kw: seg)
    kept = SimpleNamespace(text="The office moves in May.", to_json=lambda: '{"kept": [2]}')
    monkeypatch.setattr(bpseg_pgm.pruning, "prune", lambda text, query, **kw: kept)
    path = tmp_path / "notes.txt"
    path.write_text(TEXT, encoding="utf-8")
    return path, seg, kept


@pytest.fixture
def registry():
    saved = {kind: dict(formats) for kind, formats in REGISTRY.items()}
    yield
    for kind, formats in saved.items():
        REGISTRY[kind].clear()
        REGISTRY[kind].update(formats)


def _choices(command: str) -> list[str]:
    sub = next(a for a in cli_main.build_parser()._actions if isinstance(a, argparse._SubParsersAction))
    return next(a for a in sub.choices[command]._actions if "--format" in a.option_strings).choices


@pytest.mark.parametrize("name", format_names("segmentation"))
def test_every_segmentation_format_is_offered_and_written(name, stub_pipeline, capsys):
    path, seg, _ = stub_pipeline
    assert name in _choices("segment")
    assert cli_main.main(["segment", str(path), "--format", name]) == 0
    out = capsys.readouterr()
    assert out.err == "" and out.out == get_format(name).render(seg, source="notes.txt") != ""


@pytest.mark.parametrize("name", format_names("prune"))
def test_every_prune_format_is_offered_and_written(name, stub_pipeline, capsys):
    path, _, kept = stub_pipeline
    assert tuple(_choices("prune")) == format_names("prune")
    assert cli_main.main(["prune", str(path), "-q", "office", "--format", name]) == 0
    assert capsys.readouterr().out == get_format(name, "prune").render(kept)


def test_a_format_registered_by_the_user_is_offered_with_its_options(registry, stub_pipeline, capsys):
    path, seg, _ = stub_pipeline

    @register_format("markdown")
    class Markdown(OutputFormat):
        options = (
            FormatOption("level", int, help="heading level", metavar="L"),
            FormatOption("numbered", help="number the sentences"),
        )
        options_title = "markdown"

        def content(self, result, *, source=None, level=None, numbered=False):
            marks = "#" * (level or 2)
            return "".join(
                f"{marks} Segment {j + 1}\n"
                + "".join(f"{'1. ' if numbered else '- '}{result.sentences[i]}\n" for i in idx)
                for j, idx in enumerate(result.segments)
            )

    assert _choices("segment")[-1] == "markdown" and "markdown" not in _choices("prune")
    assert cli_main.main(["segment", str(path), "--format", "markdown", "--level", "3", "--numbered"]) == 0
    out = capsys.readouterr().out
    assert out.startswith("### Segment 1\n1. The app release is on Friday.\n")
    assert out == Markdown().render(seg, level=3, numbered=True)
    help_text = cli_main.build_parser()._subparsers._group_actions[0].choices["segment"].format_help()
    assert "markdown (with --format markdown):" in help_text and "--level L" in help_text
    assert "{text,json,html,chunks-jsonl,markdown}" in help_text

    assert cli_main.main(["segment", str(path), "--level", "3"]) == 2
    assert capsys.readouterr().err == "bpseg: error: --level only applies to --format markdown\n"
    assert cli_main.main(["segment", str(path), "--format", "markdown", "--max-tokens", "5", "--numbered"]) == 2
    assert capsys.readouterr().err == "bpseg: error: --max-tokens only applies to --format chunks-jsonl\n"
    assert cli_main.main(["segment", str(path), "--format", "json", "--max-tokens", "5", "--numbered"]) == 2
    assert capsys.readouterr().err == (
        "bpseg: error: --max-tokens and --numbered only apply to --format chunks-jsonl or markdown\n"
    )


@pytest.mark.parametrize(
    "argv, message",
    [
        (["--max-tokens", "5"], "--max-tokens only applies to --format chunks-jsonl"),
        (
            ["--format", "json", "--max-tokens", "5", "--min-tokens", "3"],
            "--max-tokens and --min-tokens only apply to --format chunks-jsonl",
        ),
        (
            ["--format", "chunks-jsonl", "--whole-segments", "--min-tokens", "5"],
            "--min-tokens merges neighbouring chunks, which --whole-segments does not make",
        ),
        (
            ["--format", "chunks-jsonl", "--min-tokens", "50", "--max-tokens", "10"],
            "--min-tokens (50) is larger than --max-tokens (10)",
        ),
    ],
)
def test_format_options_are_checked_before_any_work_naming_flags(argv, message, stub_pipeline, monkeypatch, capsys):
    path, _, _ = stub_pipeline
    monkeypatch.setattr(bpseg_pgm.text.pipeline, "segment_text", lambda *a, **kw: pytest.fail("segmented"))
    assert cli_main.main(["segment", str(path), *argv]) == 2
    out = capsys.readouterr()
    assert (out.out, out.err) == ("", f"bpseg: error: {message}\n")
