"""The constraint objects: a range of numbers, a set of words, a set of values, a type.

Modelled on scikit-learn's ``sklearn.utils._param_validation`` (a private module there, so not imported):
each object answers ``is_satisfied_by(value)`` and says in words what it takes (``str``), so that one
validator (:func:`~bpseg_pgm.constraints.validate.validate`) words every message the same way.
"""

from __future__ import annotations

import importlib
import math
import numbers
from dataclasses import dataclass
from typing import Any

__all__ = ["Callable", "Instance", "Interval", "Options", "StrOptions", "resolve"]

_CLOSED = ("both", "left", "right", "neither")


def _is_bool(value) -> bool:
    # numpy.bool_ (named "bool" since NumPy 2) without importing numpy
    return isinstance(value, bool) or (type(value).__module__ == "numpy" and type(value).__name__ in ("bool", "bool_"))


def resolve(reference):
    """What a ``"module:attribute"`` string names, imported on first use (anything else as it is): a table low
    in the layers names a registry or a class above it (``"bpseg_pgm.inference.engines:engine_names"``) without
    importing it, as entry points do."""
    if not isinstance(reference, str):
        return reference
    module, _, attribute = reference.partition(":")
    return getattr(importlib.import_module(module), attribute)


def _number(bound: float | None, infinite: str) -> str:
    if bound is None:
        return infinite
    return f"{bound:g}" if isinstance(bound, float) else str(bound)


@dataclass(frozen=True)
class Interval:
    """Finite numbers of a ``type`` (:class:`numbers.Integral` or :class:`numbers.Real`) between ``left`` and
    ``right`` (None: unbounded on that side), ``closed`` on "both" sides, the "left", the "right" or "neither".

    Booleans are refused (``True`` is not a count); NumPy's integers and floats are taken (``numpy.int64``
    is an ``Integral``, ``numpy.float32`` a ``Real``), and :meth:`convert` makes them Python's int or float.
    An ``Integral`` interval refuses ``2.0``: a float where a count is meant is a mistake worth naming.
    """

    type: type
    left: float | None
    right: float | None
    closed: str = "both"

    def __post_init__(self):
        if self.type not in (numbers.Integral, numbers.Real):
            raise ValueError(f"Interval type must be numbers.Integral or numbers.Real, got {self.type!r}")
        if self.closed not in _CLOSED:
            raise ValueError(f"Interval closed must be one of {_CLOSED}, got {self.closed!r}")
        if self.left is not None and self.right is not None and self.left > self.right:
            raise ValueError(f"Interval left ({self.left}) is above its right ({self.right})")

    def is_satisfied_by(self, value: Any) -> bool:
        if _is_bool(value) or not isinstance(value, self.type):
            return False
        if not math.isfinite(value):
            return False
        if self.left is not None:
            if value < self.left or (value == self.left and self.closed in ("right", "neither")):
                return False
        if self.right is not None:
            if value > self.right or (value == self.right and self.closed in ("left", "neither")):
                return False
        return True

    def convert(self, value: Any) -> int | float:
        """``value`` (satisfying the interval) as Python's int or float."""
        return int(value) if self.type is numbers.Integral else float(value)

    @property
    def kind(self) -> type:
        """The Python type of the values: int or float (the CLI's option type)."""
        return int if self.type is numbers.Integral else float

    def __str__(self) -> str:
        what = "an integer" if self.type is numbers.Integral else "a number"
        if self.left is not None and self.right is None:
            return f"{what} {'>=' if self.closed in ('both', 'left') else '>'} {_number(self.left, '')}"
        if self.right is not None and self.left is None:
            return f"{what} {'<=' if self.closed in ('both', 'right') else '<'} {_number(self.right, '')}"
        if self.left is None and self.right is None:
            return f"a finite {'integer' if self.type is numbers.Integral else 'number'}"
        opening = "[" if self.closed in ("both", "left") else "("
        closing = "]" if self.closed in ("both", "right") else ")"
        return f"{what} in {opening}{_number(self.left, '-inf')}, {_number(self.right, 'inf')}{closing}"


@dataclass(frozen=True)
class StrOptions:
    """One of a set of words: ``options``, a tuple, or a ``"module:function"`` reference to a function that
    returns them (a registry's names, read when checked: names registered later count)."""

    options: tuple[str, ...] | str

    def __post_init__(self):
        if not isinstance(self.options, str):
            object.__setattr__(self, "options", tuple(self.options))

    @property
    def words(self) -> tuple[str, ...]:
        """The words, now (a registry's, read at this moment)."""
        return tuple(resolve(self.options)()) if isinstance(self.options, str) else self.options

    def is_satisfied_by(self, value: Any) -> bool:
        return isinstance(value, str) and value in self.words

    def __str__(self) -> str:
        words = self.words
        return repr(words[0]) if len(words) == 1 else f"one of {words!r}"


@dataclass(frozen=True)
class Options:
    """One of a set of values other than words, compared by identity for None and the booleans
    (``Options((True, False))``: ``1`` is not ``True``)."""

    options: tuple

    def __post_init__(self):
        object.__setattr__(self, "options", tuple(self.options))

    def is_satisfied_by(self, value: Any) -> bool:
        if _is_bool(value):
            return any(o is bool(value) for o in self.options)
        return any(o is value or (o is not None and not _is_bool(o) and o == value) for o in self.options)

    def __str__(self) -> str:
        return " or ".join(map(repr, self.options))


@dataclass(frozen=True)
class Instance:
    """An instance of a ``type`` (a type, a tuple of types, or a ``"module:Class"`` reference imported when
    checked), described by ``name`` (e.g. "a bpseg_pgm.Policy")."""

    type: type | tuple | str
    name: str

    def is_satisfied_by(self, value: Any) -> bool:
        types = tuple(map(resolve, self.type)) if isinstance(self.type, tuple) else resolve(self.type)
        return isinstance(value, types)

    def __str__(self) -> str:
        return self.name


@dataclass(frozen=True)
class Callable:
    """Anything callable, described by ``name``."""

    name: str = "a callable"

    def is_satisfied_by(self, value: Any) -> bool:
        return callable(value)

    def __str__(self) -> str:
        return self.name
