"""Check that every study script's ``bpseg_pgm`` / ``bpseg_bench`` imports resolve against today's code.

Walks every ``.py`` file under ``research/`` (except ``research/archive/``, the studies kept only for the
record) without running any of it, and checks, for each ``import bpseg_pgm...`` / ``from bpseg_pgm... import
name`` (the same for ``bpseg_bench``), including imports inside functions:

* that the module imports and each imported name exists on it (a name may also be a submodule);
* that each ``alias.attr`` read on an imported module or object exists (``import bpseg_pgm.estimator as
  estimator`` then ``estimator.fit_runs``; ``DEFAULT_POLICY.smoothing``);
* that each call of an imported function or class, ``f(a, b, key=c)``, binds to its signature today (the
  number of positional arguments and the keyword names; calls with ``*args`` or ``**kwargs`` are skipped).

A name the script binds again itself (an assignment, a parameter, a ``def``) is not followed. Prints one line
per problem and exits 1 if there is any::

    python research/check_imports.py
"""

from __future__ import annotations

import ast
import importlib
import inspect
import sys
import types
from pathlib import Path

RESEARCH = Path(__file__).resolve().parent
ROOTS = ("bpseg_pgm", "bpseg_bench")
MISSING = object()


def _ours(module: str | None) -> bool:
    return module is not None and module.split(".")[0] in ROOTS


def _load(module: str, name: str | None = None):
    """The module, or its attribute ``name`` (a submodule too); raises ImportError / AttributeError."""
    mod = importlib.import_module(module)
    if name is None:
        return mod
    if hasattr(mod, name):
        return getattr(mod, name)
    try:
        return importlib.import_module(f"{module}.{name}")
    except ModuleNotFoundError:
        raise AttributeError(f"{module} has no name {name}") from None


def _rebound(tree: ast.AST) -> set[str]:
    """Names the script binds other than by importing them: assignments, loop targets, parameters, defs."""
    names: set[str] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Name) and isinstance(node.ctx, (ast.Store, ast.Del)):
            names.add(node.id)
        elif isinstance(node, ast.arg):
            names.add(node.arg)
        elif isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
            names.add(node.name)
    return names


def _signature(obj):
    try:
        return inspect.signature(obj)
    except (TypeError, ValueError):
        return None


def check_file(path: Path, label: str) -> list[str]:
    """One line per problem in one script."""
    tree = ast.parse(path.read_text(encoding="utf-8"), filename=str(path))
    problems: list[str] = []
    bound: dict[str, list[tuple[str, object]]] = {}  # local name -> [(what it is, the object)]

    def bind(local: str, what: str, obj) -> None:
        bound.setdefault(local, []).append((what, obj))

    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            for alias in node.names:
                if not _ours(alias.name):
                    continue
                try:
                    mod = _load(alias.name)
                except Exception as exc:  # noqa: BLE001 - any failure to import is a problem to report
                    problems.append(f"{label}:{node.lineno}: module {alias.name} does not import ({exc!r})")
                    continue
                if alias.asname:
                    bind(alias.asname, alias.name, mod)
        elif isinstance(node, ast.ImportFrom) and node.level == 0 and _ours(node.module):
            try:
                _load(node.module)
            except Exception as exc:  # noqa: BLE001
                problems.append(f"{label}:{node.lineno}: module {node.module} does not import ({exc!r})")
                continue
            for alias in node.names:
                if alias.name == "*":
                    continue
                try:
                    obj = _load(node.module, alias.name)
                except AttributeError:
                    problems.append(f"{label}:{node.lineno}: {node.module} has no name {alias.name}")
                    continue
                bind(alias.asname or alias.name, f"{node.module}.{alias.name}", obj)

    rebound = _rebound(tree)
    known = {
        name: uses[0]
        for name, uses in bound.items()
        if name not in rebound and all(obj is uses[0][1] for _, obj in uses)
    }

    def resolve(expr: ast.expr):
        """(dotted name, object) for ``name`` or ``name.attr...`` on an imported name; None otherwise."""
        if isinstance(expr, ast.Name) and expr.id in known:
            return known[expr.id]
        if isinstance(expr, ast.Attribute):
            base = resolve(expr.value)
            if base is None or base[1] is MISSING:
                return None
            what, obj = base
            if isinstance(obj, types.ModuleType):
                try:
                    return f"{what}.{expr.attr}", _load(obj.__name__, expr.attr)
                except Exception:  # noqa: BLE001
                    return f"{what}.{expr.attr}", MISSING
            if isinstance(obj, type) or not callable(obj) or inspect.isclass(type(obj)):
                return f"{what}.{expr.attr}", getattr(obj, expr.attr, MISSING)
        return None

    reported: set[tuple[int, str]] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Attribute) and isinstance(node.ctx, ast.Load):
            found = resolve(node)
            if found is not None and found[1] is MISSING and (node.lineno, found[0]) not in reported:
                reported.add((node.lineno, found[0]))
                problems.append(f"{label}:{node.lineno}: {found[0]} does not exist")
        elif isinstance(node, ast.Call):
            found = resolve(node.func)
            if found is None or found[1] is MISSING or not callable(found[1]):
                continue
            if any(isinstance(a, ast.Starred) for a in node.args) or any(k.arg is None for k in node.keywords):
                continue
            sig = _signature(found[1])
            if sig is None:
                continue
            try:
                sig.bind(*[None] * len(node.args), **{k.arg: None for k in node.keywords})
            except TypeError as exc:
                problems.append(f"{label}:{node.lineno}: call {found[0]}{sig} does not bind: {exc}")
    return problems


def check(root: Path = RESEARCH) -> list[str]:
    """One line per problem in the scripts under ``root`` (``archive/`` skipped)."""
    problems: list[str] = []
    for path in sorted(root.rglob("*.py")):
        rel = path.relative_to(root)
        if rel.parts[0] == "archive":
            continue
        problems += check_file(path, f"research/{rel.as_posix()}")
    return problems


def main() -> int:
    problems = check()
    for problem in problems:
        print(problem)
    if problems:
        return 1
    print("ok: every bpseg_pgm / bpseg_bench import, attribute and call under research/ resolves (archive/ skipped)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
