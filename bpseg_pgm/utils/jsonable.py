"""One value as plain JSON data: what the pipeline's and the corpus run's records store of parameters."""

from __future__ import annotations

import numbers
from typing import Any

__all__ = ["jsonable"]


def jsonable(value: Any) -> Any:
    """None, bool and str as they are; integers as int, other reals as float; anything else as its repr."""
    if value is None or isinstance(value, (bool, str)):
        return value
    if isinstance(value, numbers.Integral):
        return int(value)
    if isinstance(value, numbers.Real):
        return float(value)
    return repr(value)
