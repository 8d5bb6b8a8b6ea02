"""One validator for every constraint list: one ValueError, worded the same way for every parameter."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

__all__ = ["describe", "satisfied", "validate"]


def describe(constraints: Sequence) -> str:
    """What ``constraints`` take, in words: each constraint's ``str`` joined by "or" (``None`` reads "None")."""
    return " or ".join("None" if c is None else str(c) for c in constraints)


def satisfied(value: Any, constraints: Sequence):
    """The first constraint ``value`` satisfies (``None`` in ``constraints`` takes the value None), else None."""
    for c in constraints:
        if c is None:
            if value is None:
                return c
        elif c.is_satisfied_by(value):
            return c
    return None


def validate(name: str, value: Any, constraints: Sequence, owner: str = "", takes: str = "") -> Any:
    """``value`` if it satisfies one of ``constraints``, converted where an interval says so (NumPy's numbers
    to Python's); else ``ValueError("<owner><name> must be <takes>, got <value!r>")``, ``takes`` being
    :func:`describe` of the constraints unless given."""
    if value is None and None in constraints:
        return None
    c = satisfied(value, constraints)
    if c is None:
        raise ValueError(f"{owner}{name} must be {takes or describe(constraints)}, got {value!r}")
    convert = getattr(c, "convert", None)
    return value if convert is None else convert(value)
