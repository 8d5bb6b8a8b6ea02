"""The package layout: every import points downward (issue 19).

Scanned from the source with ``ast``, imports inside functions included:

* no module imports through the package root (``from bpseg_pgm import X`` below the root);
* no underscore name, and no underscore module, is imported across top-level sub-packages;
* no circle between top-level sub-packages (``bpseg_pgm.text``, ``bpseg_pgm.estimator``, ...), so
  the packages can be drawn as layers, each importing only the ones below it.
"""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1] / "bpseg_pgm"


def _modules() -> dict[str, tuple[Path, bool]]:
    mods = {}
    for path in ROOT.rglob("*.py"):
        parts = list(path.relative_to(ROOT.parent).with_suffix("").parts)
        is_pkg = parts[-1] == "__init__"
        if is_pkg:
            parts = parts[:-1]
        mods[".".join(parts)] = (path, is_pkg)
    return mods


def _imports(mods):
    """(importing module, imported module, imported name or None) for every import of bpseg_pgm."""
    out = []
    for mod, (path, is_pkg) in sorted(mods.items()):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.ImportFrom):
                if node.level:
                    base = mod.split(".") if is_pkg else mod.split(".")[:-1]
                    base = base[: len(base) - (node.level - 1)]
                    target = ".".join(base + ([node.module] if node.module else []))
                else:
                    target = node.module or ""
                if not target.startswith("bpseg_pgm"):
                    continue
                for alias in node.names:
                    full = f"{target}.{alias.name}"
                    out.append((mod, full if full in mods else target, None if full in mods else alias.name))
            elif isinstance(node, ast.Import):
                out.extend((mod, a.name, None) for a in node.names if a.name.startswith("bpseg_pgm"))
    return out


#: Import edges kept only so that an old, documented name keeps working (each warns FutureWarning and
#: names the new path); they point upward on purpose and are the one exception to the layers.
DEPRECATED_ALIASES: set[tuple[str, str]] = set()  # none: the never-released aliases were removed (issue 35)


def _top(mod: str) -> str:
    return ".".join(mod.split(".")[:2])


def _private(name: str) -> bool:
    return name.startswith("_") and not name.startswith("__")


MODS = _modules()
IMPORTS = _imports(MODS)


def test_the_scan_sees_the_package():
    assert "bpseg_pgm.estimator" in MODS and len(IMPORTS) > 100


def test_no_import_through_the_package_root():
    bad = sorted({f"{src} imports {name}" for src, dst, name in IMPORTS if dst == "bpseg_pgm" and src != "bpseg_pgm"})
    assert not bad, "\n".join(bad)


def test_no_private_name_across_packages():
    bad = []
    for src, dst, name in IMPORTS:
        if _top(src) == _top(dst) or src == "bpseg_pgm":
            continue
        if name is not None and _private(name):
            bad.append(f"{src} imports {name} from {dst}")
        if any(_private(part) for part in dst.split(".")[1:]):
            bad.append(f"{src} imports the private module {dst}")
    assert not bad, "\n".join(sorted(set(bad)))


def _cycles(edges: dict[str, set[str]]) -> list[list[str]]:
    index, low, stack, on, found = {}, {}, [], set(), []

    def visit(v):
        index[v] = low[v] = len(index)
        stack.append(v)
        on.add(v)
        for w in edges.get(v, ()):
            if w not in index:
                visit(w)
                low[v] = min(low[v], low[w])
            elif w in on:
                low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            comp = []
            while True:
                w = stack.pop()
                on.discard(w)
                comp.append(w)
                if w == v:
                    break
            if len(comp) > 1:
                found.append(sorted(comp))

    for v in list(edges):
        if v not in index:
            visit(v)
    return found


@pytest.mark.parametrize("level", ["module", "package"])
def test_no_import_circle(level):
    edges: dict[str, set[str]] = {}
    for src, dst, _ in IMPORTS:
        if src == "bpseg_pgm" or dst == "bpseg_pgm" or (src, dst) in DEPRECATED_ALIASES:
            continue  # the root's lazy exports sit above everything
        a, b = (src, dst) if level == "module" else (_top(src), _top(dst))
        if a != b:
            edges.setdefault(a, set()).add(b)
    assert not _cycles(edges), _cycles(edges)


def test_every_deprecated_alias_is_still_there():
    assert all(
        (src, dst, None) in IMPORTS or any(i[:2] == (src, dst) for i in IMPORTS) for src, dst in DEPRECATED_ALIASES
    )


def test_the_root_exports_lazily():
    """Importing bpseg_pgm imports no sub-package: the root's names load on first use."""
    tree = ast.parse((ROOT / "__init__.py").read_text(encoding="utf-8"))
    eager = [
        n
        for n in tree.body
        if isinstance(n, (ast.Import, ast.ImportFrom))
        and (n.level or (getattr(n, "module", "") or "").startswith("bpseg_pgm"))
    ]
    assert not eager


def test_the_root_names_load_on_first_use():
    import bpseg_pgm

    for name in bpseg_pgm.__all__:
        assert getattr(bpseg_pgm, name) is not None
    from bpseg_pgm import BPSeg, prune, segment_text, segment_texts  # noqa: F401


def test_the_code_map_lists_every_package_in_an_order_the_imports_keep():
    """The docs' code map (docs/code-map.md, once the README's "How the code is organised") names every top-level
    package, bottom layer first, and every import goes to a package named before the importer."""
    import re

    text = (ROOT.parent / "docs" / "code-map.md").read_text(encoding="utf-8")
    section = text.split("## Packages, bottom layer first", 1)[1].split("\n## ", 1)[0]
    listed = [m.group(1) for m in re.finditer(r"^- `(\w+)(?:/|\.py)`", section, re.M)]
    order = {f"bpseg_pgm.{name}": i for i, name in enumerate(listed)}
    tops = {_top(m) for m in MODS if m != "bpseg_pgm"}
    assert tops <= set(order), sorted(tops - set(order))
    upward = sorted(
        {
            (_top(s), _top(d))
            for s, d, _ in IMPORTS
            if "bpseg_pgm" not in (s, d) and (s, d) not in DEPRECATED_ALIASES and order[_top(d)] > order[_top(s)]
        }
    )
    assert not upward, upward


def test_the_package_never_imports_the_benchmarks():
    """``bpseg_bench`` (the repository's ``bench/``, not in the wheel) sits on top of the package, never below it."""
    found = []
    for path in ROOT.rglob("*.py"):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            names = [node.module or ""] if isinstance(node, ast.ImportFrom) else []
            names += [a.name for a in node.names] if isinstance(node, ast.Import) else []
            found += [f"{path.relative_to(ROOT.parent)}: {n}" for n in names if n.split(".")[0] == "bpseg_bench"]
    assert found == []
