"""Plug-ins of other packages: one entry-point group registers engines, potentials, costs and formats."""

from __future__ import annotations

import os
import subprocess
import sys
import textwrap
import warnings
from pathlib import Path

import pytest

import bpseg_pgm.plugins.loader as loader
from bpseg_pgm.plugins import GROUP

ROOT = Path(__file__).resolve().parents[2]

PLUGIN = '''
"""A tiny plug-in package: one of each kind."""
from bpseg_pgm.formats.registry import OutputFormat, register_format
from bpseg_pgm.inference.engine import register_engine
from bpseg_pgm.inference.engines.potts import PottsEngine
from bpseg_pgm.potentials.centered import CenteredPottsPotentials
from bpseg_pgm.potentials.registry import POTENTIALS, register_potentials
from bpseg_pgm.runs.cost_registry import register_cost
from bpseg_pgm.runs.costs import EmbeddingsCost


@register_potentials("demo-centred", defaults=dict(POTENTIALS["centered"].defaults))
class DemoCentred(CenteredPottsPotentials):
    pass


@register_engine("demo-potts")
class DemoPotts(PottsEngine):
    pass


@register_cost
class DemoCost(EmbeddingsCost):
    name = "demo-cost"


@register_format("demo-shout")
class Shout(OutputFormat):
    def content(self, result, *, source=None):
        return f"DEMO-SHOUT {len(set(result.labels))} segments of {len(result.labels)} sentences\\n"
'''


def _install(where: Path, entry_points: str) -> None:
    """A distribution on ``where`` as pip would leave it: the module and its dist-info with entry points."""
    (where / "bpseg_demo_plugin.py").write_text(PLUGIN)
    info = where / "bpseg_demo_plugin-0.1.dist-info"
    info.mkdir()
    (info / "METADATA").write_text("Metadata-Version: 2.1\nName: bpseg-demo-plugin\nVersion: 0.1\n")
    (info / "entry_points.txt").write_text(f"[{GROUP}]\n{textwrap.dedent(entry_points)}")


def _bpseg(args, path: Path):
    env = {**os.environ, "PYTHONPATH": os.pathsep.join([str(path), str(ROOT)])}
    code = "import sys; from bpseg_pgm.cli.main import main; sys.exit(main())"
    return subprocess.run(
        [sys.executable, "-c", code, *args], env=env, capture_output=True, text=True, timeout=300, cwd=path
    )


def test_an_installed_plugin_reaches_the_command_line(tmp_path):
    _install(tmp_path, "demo = bpseg_demo_plugin\nbroken = bpseg_no_such_plugin_module\n")
    helped = _bpseg(["segment", "--help"], tmp_path)
    assert helped.returncode == 0, helped.stderr
    for name in ("demo-centred", "demo-potts", "demo-shout"):
        assert name in helped.stdout
    # a broken plug-in: one warning naming it, not a crash
    assert helped.stderr.count("bpseg plug-in 'broken'") == 1
    text = tmp_path / "notes.txt"
    text.write_text(
        "Cats purr and sleep all day. Cats chase mice at night. Kittens play with yarn.\n\n"
        "The stock market fell today. Investors sold their shares. Bonds rose as stocks fell.\n"
    )
    args = ["segment", str(text), "--potentials", "demo-centred", "--engine", "demo-potts", "--format", "demo-shout"]
    done = _bpseg(args, tmp_path)
    assert done.returncode == 0, done.stderr
    assert done.stdout.startswith("DEMO-SHOUT ") and "of 6 sentences" in done.stdout


def test_the_registries_list_a_plugin_and_a_broken_one_is_one_warning(tmp_path, monkeypatch):
    _install(tmp_path, "broken = bpseg_no_such_plugin_module\n")
    (tmp_path / "bpseg_demo_plugin-0.1.dist-info" / "entry_points.txt").write_text(
        f"[{GROUP}]\nbroken = bpseg_no_such_plugin_module\nnot-callable = os:sep\n"
    )
    monkeypatch.syspath_prepend(str(tmp_path))
    monkeypatch.setattr(loader, "_STATE", {"done": False})
    monkeypatch.setattr(loader, "_LOADED", {})
    with pytest.warns(UserWarning) as caught:
        loader.load_plugins()
    messages = [str(w.message) for w in caught]
    assert len(messages) == 2
    assert "'broken'" in messages[0] and "ModuleNotFoundError" in messages[0]
    assert "'not-callable'" in messages[1] and "neither a module nor a function" in messages[1]
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        loader.load_plugins()  # once per process
    assert loader.loaded_plugins() == {}
