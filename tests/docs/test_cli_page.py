"""docs/cli.md is generated from the bpseg parser (docs/gen_cli.py) and must not fall out of date."""

import os
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
PAGE = ROOT / "docs" / "cli.md"

# A fresh interpreter: engines, potentials or formats that other tests register in this process would show up in
# the parser's choices. The generator writes nothing here: it prints render() to stdout.
_RENDER = (
    "import importlib.util, sys\n"
    "spec = importlib.util.spec_from_file_location('gen_cli', sys.argv[1])\n"
    "gen = importlib.util.module_from_spec(spec)\n"
    "spec.loader.exec_module(gen)\n"
    "sys.stdout.write(gen.render())\n"
)


def _render(columns: str) -> str:
    env = {**os.environ, "COLUMNS": columns, "PYTHONIOENCODING": "utf-8"}
    out = subprocess.run(
        [sys.executable, "-c", _RENDER, str(ROOT / "docs" / "gen_cli.py")],
        capture_output=True,
        check=True,
        env=env,
        cwd=ROOT,
    )
    return out.stdout.decode("utf-8")


def test_the_page_is_up_to_date():
    assert PAGE.read_text(encoding="utf-8") == _render("80"), "docs/cli.md is out of date: run `python docs/gen_cli.py`"


def test_the_page_does_not_depend_on_the_terminal_width():
    assert _render("40") == _render("200")


def test_every_command_is_on_the_page():
    page = PAGE.read_text(encoding="utf-8")
    for command in ("bpseg", "bpseg segment", "bpseg corpus", "bpseg prune", "bpseg demo"):
        assert f"$ {command} --help\n" in page, command
    assert "--segment-length" in page
