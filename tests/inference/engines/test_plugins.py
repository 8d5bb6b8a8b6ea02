"""The engines are thin plug-ins: parameters, one kernel call, the result (issue 19).

Scanned from the source: an engine reads no private attribute of another object (the
kernels' state is reached through public accessors, as pgmpy's ``Inference`` engines do),
imports its algorithm from :mod:`bpseg_pgm.inference.kernels`, and defines no algorithm of its
own (no module-level function beyond small helpers of its parameters).
"""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

import bpseg_pgm.inference.engines as engines

FILES = sorted(p for p in Path(engines.__file__).parent.glob("*.py") if p.name != "__init__.py")
#: module-level functions an engine may define: turning its parameters into a kernel's arguments
PARAMETER_HELPERS = {"_seed"}


def test_one_file_per_registered_engine():
    from bpseg_pgm.inference import engine_names

    stems = {p.stem.replace("_", "-") for p in FILES}
    assert stems == set(engine_names(aliases=False))


@pytest.mark.parametrize("path", FILES, ids=lambda p: p.name)
def test_engine_reads_no_private_attribute_of_its_kernel(path):
    tree = ast.parse(path.read_text(encoding="utf-8"))
    bad = [
        f"line {node.lineno}: .{node.attr}"
        for node in ast.walk(tree)
        if isinstance(node, ast.Attribute)
        and node.attr.startswith("_")
        and not node.attr.startswith("__")
        and not (isinstance(node.value, ast.Name) and node.value.id == "self")
    ]
    assert not bad, bad


@pytest.mark.parametrize("path", FILES, ids=lambda p: p.name)
def test_engine_holds_no_algorithm(path):
    tree = ast.parse(path.read_text(encoding="utf-8"))
    functions = {node.name for node in tree.body if isinstance(node, ast.FunctionDef)}
    assert functions <= PARAMETER_HELPERS, functions - PARAMETER_HELPERS
    classes = [node for node in tree.body if isinstance(node, ast.ClassDef)]
    assert len(classes) == 1
