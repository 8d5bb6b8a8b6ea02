"""``bpseg segment --layout/--no-layout``: a Markdown file's headings decide its sections unless told not to."""

import json

from bpseg_pgm.cli import main as cli_main

DOC = (
    "# Part one\n\nThe match went to five sets. The champion served for the title twice.\n\n"
    "# Part two\n\nHer backhand won the final point. The crowd cheered as she lifted the trophy. "
    "The bread needs four cups of flour. Knead the dough for ten minutes. Bake it until the crust is brown.\n"
)


def test_headings_are_the_sections_unless_no_layout(cli_env, tmp_path, monkeypatch, capsys):
    monkeypatch.setenv("BPSEG_CACHE_DIR", cli_env["BPSEG_CACHE_DIR"])
    path = tmp_path / "doc.md"
    path.write_text(DOC, encoding="utf-8")
    assert cli_main.main(["segment", str(path), "--format", "json"]) == 0
    labels = json.loads(capsys.readouterr().out)["labels"]
    assert labels == [0, 0, 0, 1, 1, 1, 1, 1, 1]
    assert cli_main.main(["segment", str(path), "--format", "json", "--no-layout"]) == 0
    assert json.loads(capsys.readouterr().out)["labels"] != labels
