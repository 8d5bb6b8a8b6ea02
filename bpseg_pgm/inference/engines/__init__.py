"""The built-in engines, one thin plug-in a file, registered by name, and :func:`make_engine`.

Each engine reads its parameters, calls a kernel of :mod:`bpseg_pgm.inference.kernels` and packages the answer;
the engines and what each returns: docs/model.md, "Inference engines".
"""

from __future__ import annotations

import inspect

from bpseg_pgm.plugins.loader import load_plugins

from ..engine import ALIASES, REGISTRY, Engine
from .appendix import FastEngine
from .exact import ExactEngine
from .gibbs import GibbsEngine
from .loopy import LoopyEngine
from .max_product import MaxProductEngine
from .mean_field import MeanFieldEngine
from .mplp import MplpEngine
from .potts import PottsEngine
from .reference import ReferenceEngine

#: The built-in names, one per engine, in the order the documentation lists them.
BUILTIN_ENGINES = ("potts", "loopy", "appendix", "exact", "reference", "max-product", "mean-field", "gibbs", "mplp")


def engine_names(aliases: bool = True) -> tuple[str, ...]:
    """Every registered name: the built-ins, then any registered by the user.

    With ``aliases`` (the default: what ``BPSeg(engine=...)`` and ``--engine`` accept) each
    alias follows the name it stands for (``"appendix", "fast"``); without, one name per engine. Installed
    plug-ins (:mod:`bpseg_pgm.plugins`) are loaded first.
    """
    load_plugins()
    names = BUILTIN_ENGINES + tuple(name for name in REGISTRY if name not in BUILTIN_ENGINES and name not in ALIASES)
    if not aliases:
        return names
    return tuple(key for name in names for key in (name, *(a for a, target in ALIASES.items() if target == name)))


def make_engine(spec, damping: float = 0.0) -> Engine:
    """An :class:`Engine` from a registered name (``damping`` passed on where the engine has
    one) or an Engine instance (used as it is; set its damping on it). An engine made from an
    alias (``"fast"``) carries the alias as its ``name``."""
    if isinstance(spec, Engine):
        if damping:
            raise ValueError(
                f"damping= applies to engines given by name; set it on the engine object, e.g. "
                f"{type(spec).__name__}(damping={damping!r})"
            )
        return spec
    load_plugins()
    if not isinstance(spec, str) or spec not in REGISTRY:
        raise ValueError(f"engine must be one of {engine_names()} or a bpseg_pgm.inference.Engine, got {spec!r}")
    cls = REGISTRY[spec]
    if "damping" in inspect.signature(cls.__init__).parameters:
        engine = cls(damping=damping)
    elif damping:
        raise ValueError(f"engine {spec!r} has no damping")
    else:
        engine = cls()
    if spec in ALIASES:
        engine.name = spec
    return engine


__all__ = [
    "BUILTIN_ENGINES",
    "ExactEngine",
    "FastEngine",
    "GibbsEngine",
    "LoopyEngine",
    "MaxProductEngine",
    "MeanFieldEngine",
    "MplpEngine",
    "PottsEngine",
    "ReferenceEngine",
    "engine_names",
    "make_engine",
]
