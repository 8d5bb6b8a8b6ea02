"""Potentials by name: ``BPSeg(potentials="centered")`` and ``--potentials`` find them here.

A potential class registers itself under a name with :func:`register_potentials`, together with what ``lam=None``,
``sigma="auto"``, ``em_rounds=None`` and ``context="auto"`` mean for it (docs/howto/plugins.md, "A custom
potential"); it is then built as ``cls(lam=..., sigma=...)``. A name is registered once (a plug-in cannot change
what ``"centered"``, the default, means). A :class:`Potentials` *object* given to the estimator keeps its own
parameters and takes :data:`CUSTOM_DEFAULTS`.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from bpseg_pgm.plugins.loader import load_plugins

from .base import Potentials

__all__ = [
    "CUSTOM_DEFAULTS",
    "POTENTIALS",
    "RegisteredPotentials",
    "potentials_factory",
    "potentials_names",
    "register_potentials",
]

#: The defaults for a Potentials object of the user's own (it carries its own lam and sigma).
CUSTOM_DEFAULTS = {"lam": 0.0, "sigma": None, "em_rounds": 0, "context": 0.0}
_KEYS = frozenset(CUSTOM_DEFAULTS)


@dataclass(frozen=True)
class RegisteredPotentials:
    """A named potential: its class and its defaults (``lam``, ``sigma``, ``em_rounds``, ``context``)."""

    name: str
    cls: type
    defaults: dict[str, Any]


#: name -> :class:`RegisteredPotentials`
POTENTIALS: dict[str, RegisteredPotentials] = {}


def register_potentials(name: str, *, defaults: dict[str, Any]):
    """Class decorator: make ``cls`` available as ``potentials=name`` with these defaults. ValueError for a name
    already registered to another class or with other defaults (the same registration again is a no-op)."""
    if not isinstance(name, str) or not name or any(c.isspace() for c in name):
        raise ValueError(f"a potentials name must be a non-empty str without spaces, got {name!r}")
    if set(defaults) != _KEYS:
        raise ValueError(f"defaults must give exactly {sorted(_KEYS)}, got {sorted(defaults)}")

    def register(cls):
        if not (isinstance(cls, type) and issubclass(cls, Potentials)):
            raise ValueError(f"register_potentials needs a Potentials subclass, got {cls!r}")
        taken = POTENTIALS.get(name)
        if taken is not None and (taken.cls is not cls or taken.defaults != dict(defaults)):
            # a name is taken once: a plug-in must not change what "centered" (the default fit) means
            raise ValueError(
                f"potentials are already registered as {name!r}: {taken.cls.__name__} with defaults "
                f"{taken.defaults}; choose another name"
            )
        cls.name = name
        POTENTIALS[name] = RegisteredPotentials(name, cls, dict(defaults))
        return cls

    return register


def potentials_names() -> tuple[str, ...]:
    """The registered names, in registration order (installed plug-ins loaded first)."""
    load_plugins()
    return tuple(POTENTIALS)


def lookup(name: Any) -> RegisteredPotentials:
    """The registered potential of this name; ValueError naming the choices otherwise."""
    load_plugins()
    if not isinstance(name, str) or name not in POTENTIALS:
        raise ValueError(
            f"potentials must be one of {potentials_names()} or a bpseg_pgm.potentials.Potentials, got {name!r}"
        )
    return POTENTIALS[name]


def potentials_factory(name: str, **params: Any) -> Potentials:
    """A potential object by name: ``potentials_factory("paper", lam=0.12, sigma=None)``."""
    return lookup(name).cls(**params)
