"""Write a group of report files all-or-nothing: temporaries first, then ``os.replace`` each.

A benchmark that fails (bad option, plotting error, interrupt) must not leave a
half-written table behind, so nothing is moved into place until every file is written.
"""

from __future__ import annotations

import contextlib
import os
import tempfile
from collections.abc import Mapping
from pathlib import Path

__all__ = ["check_output_dir", "write_atomically"]


def check_output_dir(out_dir: str | os.PathLike) -> Path:
    """Return ``out_dir`` as a Path; ValueError if it exists but is not a directory."""
    path = Path(out_dir)
    if path.exists() and not path.is_dir():
        raise ValueError(f"output path {path} exists and is not a directory")
    return path


def write_atomically(files: Mapping[str | os.PathLike, bytes | str]) -> list[Path]:
    """Write every ``path -> content`` (str is UTF-8), creating parent folders; returns the paths."""
    staged: list[tuple[str, Path]] = []
    try:
        for target, content in files.items():
            path = Path(target)
            path.parent.mkdir(parents=True, exist_ok=True)
            fd, tmp = tempfile.mkstemp(dir=path.parent, prefix=f".{path.name}.", suffix=".tmp")
            staged.append((tmp, path))
            data = content.encode("utf-8") if isinstance(content, str) else content
            with os.fdopen(fd, "wb") as f:
                f.write(data)
            umask = os.umask(0)
            os.umask(umask)
            os.chmod(tmp, 0o666 & ~umask)  # mkstemp makes 0600
        for tmp, path in staged:
            os.replace(tmp, path)
    except BaseException:
        for tmp, _ in staged:
            with contextlib.suppress(OSError):
                os.unlink(tmp)
        raise
    return [path for _, path in staged]
