"""research/ holds frozen studies apart from the product (issue 37): small, documented, never importing each other.

Reads the files git tracks (a study being written and not yet added is not judged); skips outside a git checkout.
"""

from __future__ import annotations

import ast
import re
import shutil
import subprocess
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
LIMIT = 3 * 1024 * 1024  # bytes tracked under benchmarks/ and research/ together


def tracked(*paths: str) -> list[Path]:
    if shutil.which("git") is None or not (ROOT / ".git").exists():
        pytest.skip("not a git checkout")
    out = subprocess.run(["git", "ls-files", "-z", *paths], cwd=ROOT, capture_output=True, check=True).stdout
    return [ROOT / p for p in out.decode().split("\0") if p and (ROOT / p).is_file()]


def studies() -> dict[str, list[Path]]:
    """Tracked files by study folder (research/<folder>/...)."""
    out: dict[str, list[Path]] = {}
    for p in tracked("research"):
        parts = p.relative_to(ROOT / "research").parts
        if len(parts) > 1:
            out.setdefault(parts[0], []).append(p)
    return out


def test_tracked_results_stay_small():
    size = sum(p.stat().st_size for p in tracked("benchmarks", "research"))
    assert size <= LIMIT, f"benchmarks/ and research/ track {size / 2**20:.1f} MiB (at most 3 MiB: summaries only)"


def test_every_study_folder_is_dated():
    for folder in studies():
        assert re.fullmatch(r"\d{4}-\d{2}-\d{2}-[a-z0-9-]+", folder), f"research/{folder}/: name it YYYY-MM-DD-topic"


def test_no_study_imports_another():
    by_folder = studies()
    scripts = {folder: {p.stem for p in files if p.suffix == ".py"} for folder, files in by_folder.items()}
    bad = []
    for folder, files in by_folder.items():
        others = set().union(*(s for f, s in scripts.items() if f != folder)) - scripts[folder]
        for p in (p for p in files if p.suffix == ".py"):
            for node in ast.walk(ast.parse(p.read_text(encoding="utf-8"))):
                if isinstance(node, ast.Import):
                    names = [a.name for a in node.names]
                elif isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
                    names = [node.module]
                else:
                    continue
                bad += [f"{p.relative_to(ROOT)} imports {n}" for n in names if n.split(".")[0] in others]
    assert not bad, bad


def test_the_research_index_lists_every_page():
    pages = ROOT / "docs" / "research"
    index = (pages / "index.md").read_text(encoding="utf-8")
    missing = [p.name for p in pages.glob("*.md") if p.name != "index.md" and f"]({p.name})" not in index]
    assert not missing, f"docs/research/index.md does not link {missing}"


def test_every_study_script_resolves_against_todays_package():
    """research/check_imports.py: each bpseg_pgm / bpseg_bench import, attribute and call of a study script exists
    in today's package (issue 50: 21 broken imports had piled up in 9 scripts); archived studies are skipped."""
    import sys

    proc = subprocess.run(
        [sys.executable, str(ROOT / "research" / "check_imports.py")], capture_output=True, text=True, timeout=300
    )
    assert proc.returncode == 0, proc.stdout + proc.stderr
