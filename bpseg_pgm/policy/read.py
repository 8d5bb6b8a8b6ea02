"""A Policy from a file: a TOML or JSON table of the fields to change (``bpseg ... --policy FILE``)."""

from __future__ import annotations

import json
import sys
from pathlib import Path

from .policy import DEFAULT_POLICY, Policy

if sys.version_info >= (3, 11):
    import tomllib
else:  # pragma: no cover - Python 3.10
    import tomli as tomllib

__all__ = ["read_policy"]


def read_policy(path: str | Path) -> Policy:
    """The shipped Policy with the changes a file gives: a JSON object (a ``.json`` file) or a TOML table
    (any other name) of field names and values, e.g. ``run_scale = 2.0``.

    A file that cannot be read is an OSError; one that is not valid TOML or JSON, that is not one table of
    numbers, or that names an unknown field or a value out of its range, is one ValueError naming the file.
    """
    path = Path(path)
    text = path.read_text(encoding="utf-8")
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
