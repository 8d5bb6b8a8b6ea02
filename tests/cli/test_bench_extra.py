"""``bpseg bench`` without the benchmarks' dependencies: one line saying how to install them, exit 2, before any work."""

from __future__ import annotations

import subprocess
import sys

import pytest

# ``import name`` raises ImportError when ``sys.modules[name]`` is None, as it would with the package absent.
_RUN = """
import sys
for name in {hidden!r}:
    sys.modules[name] = None
from bpseg_pgm.cli.main import main
sys.exit(main({argv!r}))
"""


def _bpseg_without(hidden, argv, cwd):
    code = _RUN.format(hidden=tuple(hidden), argv=list(argv))
    return subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, cwd=cwd, timeout=300)


@pytest.mark.parametrize(
    "hidden, missing",
    [(("matplotlib", "ruptures"), "matplotlib"), (("ruptures",), "ruptures"), (("matplotlib",), "matplotlib")],
)
@pytest.mark.parametrize(
    "argv",
    [
        ["bench", "example", "--out", "out"],
        ["bench", "corpus", "missing.jsonl", "--out", "out"],
        ["bench", "export", "missing", "-o", "x.jsonl"],
    ],
    ids=["example", "corpus", "export"],
)
def test_bench_without_the_extra_is_one_line_naming_it(hidden, missing, argv, tmp_path):
    proc = _bpseg_without(hidden, argv, tmp_path)
    assert proc.returncode == 2, proc.stderr
    assert proc.stdout == ""
    lines = proc.stderr.splitlines()
    assert len(lines) == 1, proc.stderr
    assert lines[0].startswith(f"bpseg: error: bpseg bench needs {missing}, a dependency of the benchmarks: ")
    assert "pip install -e ./bench" in lines[0]
    assert not (tmp_path / "out").exists()  # refused before any work


def test_bench_help_names_the_extra(tmp_path):
    proc = _bpseg_without((), ["bench", "--help"], tmp_path)
    assert proc.returncode == 0, proc.stderr
    assert "pip install -e ./bench" in " ".join(proc.stdout.split())
