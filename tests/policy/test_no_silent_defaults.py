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
