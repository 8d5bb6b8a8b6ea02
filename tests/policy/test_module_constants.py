"""Tuned numbers live in the Policy: the model and text packages keep only measured facts as module constants.

Issue 35 found 48 module-level numeric constants in runs/, topics/, runtopics/, estimator.py, text/ and
pruning/; what remains are memory sizes and a block size (facts of the machine, not decisions).
"""

import ast
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2] / "bpseg_pgm"
PLACES = ["runs", "topics", "runtopics", "estimator.py", "text", "pruning", "decisions", "features"]
#: the facts allowed to stay (memory model sizes, a scan's block size)
FACTS = {"GiB", "MATRICES", "ROWS", "_BASE", "_SMALL", "_MARGIN", "_FLOAT", "_EDGE_BYTES", "_BLOCK"}


def _numeric(node) -> bool:
    if isinstance(node, ast.Constant):
        return isinstance(node.value, (int, float)) and not isinstance(node.value, bool)
    if isinstance(node, ast.UnaryOp):
        return _numeric(node.operand)
    if isinstance(node, ast.BinOp):
        return _numeric(node.left) and _numeric(node.right)
    return False


def _constants():
    for place in PLACES:
        path = ROOT / place
        for file in sorted(path.rglob("*.py")) if path.is_dir() else [path]:
            for node in ast.parse(file.read_text(encoding="utf-8")).body:
                if isinstance(node, ast.Assign) and len(node.targets) == 1 and isinstance(node.targets[0], ast.Name):
                    name, value = node.targets[0].id, node.value
                elif isinstance(node, ast.AnnAssign) and isinstance(node.target, ast.Name) and node.value is not None:
                    name, value = node.target.id, node.value
                else:
                    continue
                if _numeric(value):
                    yield f"{file.relative_to(ROOT)}:{name}", name


def test_no_tuned_number_outside_the_policy():
    found = list(_constants())
    tuned = [where for where, name in found if name not in FACTS]
    assert not tuned, f"put these in bpseg_pgm.policy.Policy with a reason: {tuned}"
    assert len(found) <= 15, found
