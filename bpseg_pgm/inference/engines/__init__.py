"""The built-in engines, registered by name, and :func:`make_engine` (a name or an Engine -> an Engine).

=============== ==================================================================
``potts``       sum-product with the Potts kernel (default); Bethe log Z
``loopy``       sum-product on the pgmpy network (any tables); Bethe log Z
``fast``        the appendix's Fast BP-Seg (its own potentials)
``exact``       pgmpy's junction tree: exact marginals and log Z (tiny inputs)
``reference``   the hand-written solver (tiny inputs)
``max-product`` loopy max-product: normalised max-marginals
``mean-field``  naive mean-field by coordinate ascent; log Z estimate = ELBO
``gibbs``       Gibbs sampling: label frequencies after burn-in
``mplp``        pgmpy's Mplp: the MAP labelling, one-hot
=============== ==================================================================
"""

from __future__ import annotations

import inspect

from ..engine import REGISTRY, Engine
from .exact import ExactEngine
from .fast import FastEngine
from .gibbs import GibbsEngine
from .loopy import LoopyEngine
from .max_product import MaxProductEngine
from .mean_field import MeanFieldEngine
from .mplp import MplpEngine
from .potts import PottsEngine
from .reference import ReferenceEngine

#: The built-in names, in the order the documentation lists them.
BUILTIN_ENGINES = ("potts", "loopy", "fast", "exact", "reference", "max-product", "mean-field", "gibbs", "mplp")


def engine_names() -> tuple[str, ...]:
    """Every registered name: the built-ins, then any registered by the user."""
    return BUILTIN_ENGINES + tuple(name for name in REGISTRY if name not in BUILTIN_ENGINES)


def make_engine(spec, damping: float = 0.0) -> Engine:
    """An :class:`Engine` from a registered name (``damping`` passed on where the engine has
    one) or an Engine instance (used as it is; set its damping on it)."""
    if isinstance(spec, Engine):
        if damping:
            raise ValueError(
                f"damping= applies to engines given by name; set it on the engine object, e.g. "
                f"{type(spec).__name__}(damping={damping!r})"
            )
        return spec
    if not isinstance(spec, str) or spec not in REGISTRY:
        raise ValueError(f"engine must be one of {engine_names()} or a bpseg_pgm.inference.Engine, got {spec!r}")
    cls = REGISTRY[spec]
    if "damping" in inspect.signature(cls.__init__).parameters:
        return cls(damping=damping)
    if damping:
        raise ValueError(f"engine {spec!r} has no damping")
    return cls()


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
