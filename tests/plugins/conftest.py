"""``plugins``: declare plug-ins as an installed distribution would, without installing anything.

A ``*.dist-info`` folder with an ``entry_points.txt`` on ``sys.path`` is found by ``importlib.metadata`` as
pip's would be; the fixture puts one and the plug-ins' modules in a temporary folder, starts the loader afresh
(not loaded yet) and, afterwards, leaves every registry, the loader and ``sys.modules`` as they were.
"""

from __future__ import annotations

import importlib
import sys
import textwrap

import pytest

import bpseg_pgm.plugins.loader as loader
from bpseg_pgm.formats.registry import REGISTRY as FORMATS
from bpseg_pgm.inference.engine import ALIASES
from bpseg_pgm.inference.engine import REGISTRY as ENGINES
from bpseg_pgm.plugins import GROUP
from bpseg_pgm.potentials.registry import POTENTIALS
from bpseg_pgm.runs.cost_registry import COSTS

_REGISTRIES = (POTENTIALS, COSTS, ENGINES, ALIASES, *FORMATS.values())


def snapshot() -> list[dict]:
    """Every registry's entries: potentials, costs, engines, engine aliases, then the formats of each kind."""
    return [dict(registry) for registry in _REGISTRIES]


@pytest.fixture
def plugins(tmp_path, monkeypatch):
    """``plugins({"entry-name": (module source, "function" or None)})``: a distribution declaring those entry
    points in order, each module named ``bpseg_test_plugin_<n>``; returns the modules' names."""
    saved = snapshot()
    monkeypatch.setattr(loader, "_STATE", {"done": False})
    monkeypatch.setattr(loader, "_LOADED", {})
    monkeypatch.syspath_prepend(str(tmp_path))
    modules: list[str] = []

    def declare(entries: dict[str, tuple[str, str | None]]) -> list[str]:
        lines = []
        for name, (source, function) in entries.items():
            module = f"bpseg_test_plugin_{len(modules)}"
            (tmp_path / f"{module}.py").write_text(textwrap.dedent(source), encoding="utf-8")
            modules.append(module)
            lines.append(f"{name} = {module}" + (f":{function}" if function else ""))
        info = tmp_path / "bpseg_test_plugins-0.1.dist-info"
        info.mkdir()
        (info / "METADATA").write_text("Metadata-Version: 2.1\nName: bpseg-test-plugins\nVersion: 0.1\n")
        (info / "entry_points.txt").write_text(f"[{GROUP}]\n" + "\n".join(lines) + "\n")
        importlib.invalidate_caches()
        return list(modules)

    yield declare
    for module in modules:
        sys.modules.pop(module, None)
    for registry, before in zip(_REGISTRIES, saved):
        registry.clear()
        registry.update(before)
