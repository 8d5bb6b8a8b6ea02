"""What the JSONL dataset loaders share (:mod:`bpseg_bench.lessonlink`, :mod:`bpseg_bench.tinyrec`): finding
their folder and reading their records.

A dataset folder is ``data_dir``, else the folder named by an environment variable, else a
``shared/data/<name>`` folder above the working directory or the package; it holds one ``<split>.jsonl`` per
split, one record (a JSON object) a line. Nothing is ever fetched or rebuilt: a folder that is not there is a
one-line ValueError saying where the data can be had.
"""

from __future__ import annotations

import json
import os
from collections.abc import Callable, Sequence
from pathlib import Path

from bpseg_pgm.utils.validation import check_limit

__all__ = ["find_data_dir", "int_list", "read_records", "split_files"]


def _has_split(path: Path, splits: Sequence[str]) -> bool:
    return any((path / f"{split}.jsonl").is_file() for split in splits)


def find_data_dir(
    data_dir: str | os.PathLike | None, env_var: str, relative: Path, splits: Sequence[str], name: str, where: str
) -> Path:
    """The folder holding ``<split>.jsonl`` for one of ``splits`` (see the module docstring); ValueError naming
    ``where`` (where to get the data) when none is found."""
    files = " and ".join(f"{split}.jsonl" for split in splits)
    if data_dir is not None or os.environ.get(env_var):
        path = Path(data_dir if data_dir is not None else os.environ[env_var]).expanduser()
        if not _has_split(path, splits):
            raise ValueError(f"{str(path)!r} is not a {name} data folder (expected {files}): {where}")
        return path
    for start in (Path.cwd(), Path(__file__).parent):
        for parent in (start.resolve(), *start.resolve().parents):
            if _has_split(parent / relative, splits):
                return parent / relative
    raise ValueError(
        f"{name} data not found (no {relative} above the current folder or the package): {where}; then set "
        f"${env_var} to the folder holding {files} or pass it (data_dir=)"
    )


def read_records(path: Path, keys: Sequence[str]) -> list[dict]:
    """The JSON objects of a JSONL file, blank lines skipped; ValueError naming the line when one is not valid
    JSON or lacks a string ``id`` or a list under each of ``keys``."""
    records = []
    with path.open(encoding="utf-8") as fh:
        for line_no, line in enumerate(fh, 1):
            if not line.strip():
                continue
            try:
                obj = json.loads(line)
            except json.JSONDecodeError as exc:
                raise ValueError(f"{path} line {line_no}: not valid JSON ({exc.msg})") from None
            if not (
                isinstance(obj, dict)
                and isinstance(obj.get("id"), str)
                and all(isinstance(obj.get(k), list) for k in keys)
            ):
                names = ", ".join(repr(k) for k in ("id", *keys))
                raise ValueError(f"{path} line {line_no}: expected an object with {names} (lists but 'id')")
            records.append(obj)
    return records


def split_files(
    root: Callable[[], Path], splits, known: Sequence[str], level: str, levels: Sequence[str], limit, name: str
) -> list[tuple[str, Path]]:
    """(split, ``<folder>/<split>.jsonl``) for each of ``splits``, after the checks every loader makes, in this order:
    the splits among ``known`` (at least one), ``level`` among ``levels``, ``limit`` None or a positive count, then
    the folder (``root()``, which raises when there is none) and each file in it; one ValueError naming ``name``."""
    splits = tuple(splits)
    if not splits or any(s not in known for s in splits):
        raise ValueError(f"{name} splits must be among {tuple(known)}, got {list(splits)}")
    if level not in levels:
        raise ValueError(f"{name} level must be one of {tuple(levels)}, got {level!r}")
    check_limit(limit)
    folder = root()
    files = [(split, folder / f"{split}.jsonl") for split in splits]
    for _, path in files:
        if not path.is_file():
            raise ValueError(f"no {name} split file {path}")
    return files


def int_list(values: list, n: int, what: str, where: str) -> list[int]:
    """``values`` as a list of ``n`` integers (not bools); ValueError naming ``what`` and ``where`` otherwise."""
    if len(values) != n:
        raise ValueError(f"{where}: {what!r} has {len(values)} entries for {n} units")
    if any(isinstance(v, bool) or not isinstance(v, int) for v in values):
        raise ValueError(f"{where}: {what!r} must hold integers")
    return list(values)
