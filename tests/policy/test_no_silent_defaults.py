"""No silent defaults (issue 50): no function of the package defaults a parameter to one of the shipped Policy's
numbers (``def f(x, window: int = DEFAULT_POLICY.window)``).

A caller that forgot ``policy=`` silently got the shipped number ("the policy did not reach X"). Below the public
entry points a function takes the ``Policy`` (``policy: Policy``, required) or the plain number, required; a public
entry point may default the whole policy (``policy: Policy | None = None`` or ``policy=DEFAULT_POLICY``).
"""

import ast
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2] / "bpseg_pgm"


def _policy_number(node) -> bool:
    return isinstance(node, ast.Attribute) and isinstance(node.value, ast.Name) and node.value.id == "DEFAULT_POLICY"


def _silent_defaults():
    for file in sorted(ROOT.rglob("*.py")):
        for node in ast.walk(ast.parse(file.read_text(encoding="utf-8"))):
            if not isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.Lambda)):
                continue
            defaults = [d for d in [*node.args.defaults, *node.args.kw_defaults] if d is not None]
            hits = [ast.unparse(d) for d in defaults if _policy_number(d)]
            if hits:
                name = getattr(node, "name", "<lambda>")
                yield f"{file.relative_to(ROOT)}:{node.lineno} {name}({', '.join(hits)})"


def test_no_parameter_defaults_to_a_policy_number():
    found = list(_silent_defaults())
    assert not found, (
        f"{len(found)} parameter default(s) to a shipped Policy number: take `policy: Policy` or the number, "
        "required, and let the caller pass it through:\n" + "\n".join(found)
    )


def _exported() -> set[str]:
    """The names a package's ``__init__.py`` lists in ``__all__`` (the package's public entry points)."""
    names: set[str] = set()
    for init in ROOT.rglob("__init__.py"):
        for node in ast.walk(ast.parse(init.read_text(encoding="utf-8"))):
            if isinstance(node, ast.Assign) and any(getattr(t, "id", None) == "__all__" for t in node.targets):
                if isinstance(node.value, (ast.List, ast.Tuple)):
                    names |= {e.value for e in node.value.elts if isinstance(e, ast.Constant)}
    return names


def test_below_the_public_entry_points_the_policy_is_passed_not_defaulted():
    """A module-level function no package exports takes ``policy`` as given: ``policy=DEFAULT_POLICY`` there would
    let a caller that forgot it silently get the shipped numbers (fit_runs, prune, ... may default it)."""
    public = _exported()
    found = []
    for file in sorted(ROOT.rglob("*.py")):
        for node in ast.parse(file.read_text(encoding="utf-8")).body:
            if not isinstance(node, ast.FunctionDef) or node.name in public:
                continue
            args = [*node.args.posonlyargs, *node.args.args, *node.args.kwonlyargs]
            defaults = dict(zip([a.arg for a in node.args.args][::-1], node.args.defaults[::-1]))
            defaults |= {a.arg: d for a, d in zip(node.args.kwonlyargs, node.args.kw_defaults) if d is not None}
            if any(
                a.arg == "policy" and ast.unparse(defaults.get("policy", ast.Constant(0))) == "DEFAULT_POLICY"
                for a in args
            ):
                found.append(f"{file.relative_to(ROOT)}:{node.lineno} {node.name}")
    assert not found, "policy=DEFAULT_POLICY below the public entry points:\n" + "\n".join(found)
