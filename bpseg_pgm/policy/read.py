"""A Policy from a file: a TOML or JSON table of the fields to change (``bpseg ... --policy FILE``)."""

from __future__ import annotations

import json
import sys
from pathlib import Path

from bpseg_pgm.utils.files import not_valid_text, read_regular

from .policy import DEFAULT_POLICY, Policy

if sys.version_info >= (3, 11):
    import tomllib
else:  # pragma: no cover - Python 3.10
    import tomli as tomllib

__all__ = ["MAX_POLICY_BYTES", "read_policy"]

#: The largest Policy file read: every field with a long comment fits in a few kilobytes.
MAX_POLICY_BYTES = 2**20


def read_policy(path: str | Path) -> Policy:
    """The shipped Policy with the changes a file gives: a JSON object (a ``.json`` file) or a TOML table
    (any other name) of field names and values, e.g. ``run_scale = 2.0``.

    Only a regular file of at most :data:`MAX_POLICY_BYTES` is read (a FIFO, a device such as ``/dev/zero`` or a
    folder is never opened). A file that cannot be read is an OSError; one that is not a regular file, is too
    large, is not UTF-8, is not valid TOML or JSON, is not one table of numbers, or names an unknown field or a
    value out of its range, is one ValueError naming the file.
    """
    path = Path(path)
    try:
        data = read_regular(path, MAX_POLICY_BYTES)
    except ValueError as exc:
        raise ValueError(f"policy file {path} {exc}") from None
    try:
        text = data.decode("utf-8-sig")
    except UnicodeDecodeError as exc:
        raise not_valid_text(data, exc.start, source=f"policy file {path}") from None
    is_json = path.suffix.lower() == ".json"
    try:
        changes = json.loads(text) if is_json else tomllib.loads(text)
    except (json.JSONDecodeError, tomllib.TOMLDecodeError) as exc:
        raise ValueError(f"{path}: not valid {'JSON' if is_json else 'TOML'}: {exc}") from None
    if not isinstance(changes, dict):
        raise ValueError(f"{path}: expected a table of Policy fields, got {type(changes).__name__}")
    try:
        return DEFAULT_POLICY.replace(**changes)
    except (ValueError, TypeError) as exc:
        raise ValueError(f"{path}: {exc}") from None
