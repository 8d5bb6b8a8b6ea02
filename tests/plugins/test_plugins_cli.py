"""The ``bpseg`` command and plug-ins, in process (the pipeline replaced by a small segmentation): ``--version``
loads none, a command's ``--help`` lists theirs, what a plug-in prints goes to stderr so ``--format json`` stays
JSON, and a plug-in that exits on import is one warning while the command runs."""

from __future__ import annotations

import json
import sys

import pytest
from small_segmentation import TEXT, small_segmentation

import bpseg_pgm
import bpseg_pgm.plugins.loader as loader
import bpseg_pgm.text.pipeline
from bpseg_pgm.cli import main as cli_main
from bpseg_pgm.formats import get_format

LOUD = """
    print("HELLO")
    from bpseg_pgm.potentials.centered import CenteredPottsPotentials
    from bpseg_pgm.potentials.registry import POTENTIALS, register_potentials

    @register_potentials("demo-loud", defaults=dict(POTENTIALS["centered"].defaults))
    class Loud(CenteredPottsPotentials):
        pass
"""


@pytest.fixture
def notes(monkeypatch, tmp_path):
    """A file to segment, and segment_text returning a fixed segmentation; returns both."""
    seg = small_segmentation()
    monkeypatch.setattr(bpseg_pgm.text.pipeline, "segment_text", lambda text, *a, **kw: seg)
    path = tmp_path / "notes.txt"
    path.write_text(TEXT, encoding="utf-8")
    return path, seg


def test_version_loads_no_plugin(plugins, capsys):
    (module,) = plugins({"loud": (LOUD, None)})
    with pytest.raises(SystemExit) as exc:
        cli_main.main(["--version"])
    assert exc.value.code == 0
    assert capsys.readouterr().out == f"bpseg {bpseg_pgm.__version__}\n"
    assert not loader._STATE["done"] and module not in sys.modules


def test_a_commands_help_lists_the_plugins_and_keeps_their_prints_off_stdout(plugins, capsys):
    plugins({"loud": (LOUD, None)})
    with pytest.raises(SystemExit) as exc:
        cli_main.main(["segment", "--help"])
    assert exc.value.code == 0
    out = capsys.readouterr()
    assert "demo-loud" in out.out and "HELLO" not in out.out and "HELLO" in out.err


def test_a_plugin_that_prints_on_import_leaves_json_on_stdout(plugins, notes, capsys):
    path, seg = notes
    plugins({"loud": (LOUD, None)})
    assert cli_main.main(["segment", str(path), "--format", "json"]) == 0
    out = capsys.readouterr()
    json.loads(out.out)
    assert out.out == get_format("json").render(seg, source="notes.txt")
    assert out.err == "HELLO\n"


def test_a_plugin_that_exits_on_import_does_not_end_the_command(plugins, notes, capsys):
    path, seg = notes
    plugins({"quitter": ("raise SystemExit(3)\n", None)})
    with pytest.warns(UserWarning, match=r"bpseg plug-in 'quitter' .*SystemExit: 3") as caught:
        code = cli_main.main(["segment", str(path), "--format", "json"])
    assert code == 0
    assert sum("bpseg plug-in" in str(w.message) for w in caught) == 1
    assert capsys.readouterr().out == get_format("json").render(seg, source="notes.txt")
