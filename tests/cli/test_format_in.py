"""``bpseg segment --format-in``: the input's format from the option, else from the file's extension."""

import json

import pytest

from bpseg_pgm.cli import main as cli_main

RST = (
    "Part one\n========\n\nThe match went to five sets. The champion served for the title twice.\n\n"
    "Part two\n========\n\nHer backhand won the final point. The crowd cheered as she lifted the trophy. "
    "The bread needs four cups of flour. Knead the dough for ten minutes. Bake it until the crust is brown.\n"
)


def _labels(capsys, *args):
    assert cli_main.main(["segment", *map(str, args), "--format", "json"]) == 0
    return json.loads(capsys.readouterr().out)


def test_rst_headings_decide_the_sections_from_the_extension_or_the_option(cli_env, tmp_path, monkeypatch, capsys):
    monkeypatch.setenv("BPSEG_CACHE_DIR", cli_env["BPSEG_CACHE_DIR"])
    rst, txt = tmp_path / "doc.rst", tmp_path / "doc.text"
    rst.write_text(RST, encoding="utf-8")
    txt.write_text(RST, encoding="utf-8")
    by_extension = _labels(capsys, rst)
    # the titles are units of their own (not "Part one ========") and each starts its section
    assert by_extension["sentences"][0] == "Part one"
    assert by_extension["labels"] == [0, 0, 0, 1, 1, 1, 1, 1, 1]
    assert _labels(capsys, txt, "--format-in", "rst")["labels"] == by_extension["labels"]
    plain = _labels(capsys, rst, "--format-in", "plain")
    assert plain["sentences"][0] != "Part one"


def test_an_unknown_format_is_one_line_and_exit_2(tmp_path, capsys):
    path = tmp_path / "doc.rst"
    path.write_text(RST, encoding="utf-8")
    with pytest.raises(SystemExit) as exc:
        cli_main.main(["segment", str(path), "--format-in", "docx"])
    assert exc.value.code == 2
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 1 and "--format-in" in err[0]
