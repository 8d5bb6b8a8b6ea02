"""docs/code-map.md points at files that exist: every ``bpseg_pgm/...``, ``tests/...`` or ``docs/...`` path it names,
and every file of a package's bullet (``- `runs/`: ... (`search.py`) ...``) inside that package."""

from __future__ import annotations

import re
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
TEXT = (ROOT / "docs" / "code-map.md").read_text(encoding="utf-8")


def test_every_path_the_code_map_names_exists():
    paths = set(re.findall(r"`((?:bpseg_pgm|tests|docs|benchmarks)/[\w/.\-]+)`", TEXT))
    assert len(paths) >= 15, sorted(paths)
    missing = sorted(p for p in paths if not (ROOT / p).exists())
    assert not missing, missing


def test_every_file_of_a_package_bullet_is_in_that_package():
    section = TEXT.split("## Packages, bottom layer first", 1)[1].split("\n## ", 1)[0]
    bullets = re.split(r"\n(?=- `)", section)
    missing, checked = [], 0
    for bullet in bullets:
        m = re.match(r"- `(\w+)/`", bullet)
        if not m:
            continue
        package = ROOT / "bpseg_pgm" / m.group(1)
        assert package.is_dir(), package
        for name in re.findall(r"`([\w/]+\.py)`", bullet):
            checked += 1
            if "/" in name and (ROOT / "bpseg_pgm" / name).exists():
                continue  # a path from the package root (`types/fit.py`)
            if not any(package.rglob(name.split("/")[-1])):
                missing.append(f"{m.group(1)}/ {name}")
    assert checked > 50 and not missing, missing


def test_every_package_folder_is_in_the_code_map():
    folders = sorted(p.name for p in (ROOT / "bpseg_pgm").iterdir() if p.is_dir() and (p / "__init__.py").exists())
    listed = set(re.findall(r"^- `(\w+)/`", TEXT, re.M))
    assert not [f for f in folders if f not in listed], [f for f in folders if f not in listed]
