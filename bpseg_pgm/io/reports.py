"""Write a group of report files all-or-nothing (:func:`bpseg_pgm.io.output.write_outputs`): a benchmark that fails
must not leave a half-written table behind."""

from __future__ import annotations

import os
from collections.abc import Mapping
from pathlib import Path

from bpseg_pgm.io.output import write_outputs

__all__ = ["check_output_dir", "write_atomically"]


def check_output_dir(out_dir: str | os.PathLike) -> Path:
    """Return ``out_dir`` as a Path; ValueError if it exists but is not a directory."""
    path = Path(out_dir)
    if path.exists() and not path.is_dir():
        raise ValueError(f"output path {path} exists and is not a directory")
    return path


def write_atomically(files: Mapping[str | os.PathLike, bytes | str]) -> list[Path]:
    """Write every ``path -> content`` (str is UTF-8), creating parent folders; returns the paths."""
    for target in files:
        Path(target).parent.mkdir(parents=True, exist_ok=True)
    write_outputs(files)
    return [Path(target) for target in files]
