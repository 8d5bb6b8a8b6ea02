"""The inference plug-in interface: :class:`Engine`, :class:`EngineResult` and the name registry.

An engine is an object with one method, ``infer(problem) -> EngineResult``, where ``problem`` is a
:class:`~bpseg_pgm.inference.problem.Problem` (log unaries, edges, potentials, budget). Parameters of the
algorithm are the engine's constructor arguments; the estimator does not know them. ``@register_engine(name)``
makes it available by name (an example: docs/howto/plugins.md, "A custom inference engine").
"""

from __future__ import annotations

import inspect
from dataclasses import dataclass, field
from typing import Callable

import numpy as np

#: name -> Engine subclass, aliases included; built-ins register themselves in
#: :mod:`bpseg_pgm.inference.engines`.
REGISTRY: dict[str, type] = {}

#: alias -> the name it stands for (``"fast"`` -> ``"appendix"``).
ALIASES: dict[str, str] = {}


@dataclass
class EngineResult:
    """What an engine returns: (n, k) beliefs with rows summing to 1, and how the run went.

    ``log_partition`` is the engine's estimate of log Z (None when it has none), or a
    function of no arguments computing it, called only for the run a fit ends with (the Bethe
    estimate costs about a sweep, and the estimator's earlier rounds do not need it); ``extra``
    holds anything else the engine reports (e.g. the pgmpy ``Inference`` object it used).
    """

    beliefs: np.ndarray
    n_iter: int = 1
    converged: bool = True
    deltas: list = field(default_factory=list)
    log_partition: float | Callable[[], float] | None = None
    extra: dict = field(default_factory=dict)


class Engine:
    """Base class of inference engines (see the module docstring).

    Class attributes an engine may set:

    * ``name``: the name it is registered under (None for an unregistered engine; an engine
      made from an alias by ``make_engine`` carries the alias);
    * ``uses_potentials`` (True): False for an engine with a model of its own (Fast BP-Seg);
    * ``supports_em`` (True): False when representative re-estimation does not apply;
    * ``default_max_iter`` (100): sweeps when the estimator's ``max_iter`` is left at None;

    and a class method, :meth:`memory`, its memory estimate.
    """

    name: str | None = None
    uses_potentials: bool = True
    supports_em: bool = True
    default_max_iter: int = 100

    @classmethod
    def memory(cls, n: int, k: int, m: int, dense: bool, couplings: int) -> tuple[int, int]:
        """Peak bytes of this engine's messages, and of the couplings (``couplings``: the estimator's own, for the
        edge list's weights and cosine matrix), for n units, k labels and m edges (``dense``: all pairs); read by
        :func:`~bpseg_pgm.topics.memory.estimate_fit_memory` before a fit.  Default: two messages of k floats per
        edge."""
        return 2 * m * k * 8, couplings

    def infer(self, problem) -> EngineResult:  # pragma: no cover - abstract
        raise NotImplementedError(f"{type(self).__name__} must implement infer(problem)")

    def result(self, beliefs, n_iter=1, converged=True, deltas=(), log_partition=None, **extra) -> EngineResult:
        """Wrap an answer: beliefs (n, k) >= 0 are checked finite and normalised per row."""
        b = np.array(beliefs, dtype=np.float64)
        if b.ndim != 2:
            raise ValueError(f"{type(self).__name__}: beliefs must be an (n, k) array, got shape {b.shape}")
        if not np.all(np.isfinite(b)) or np.any(b < 0):
            raise ValueError(f"{type(self).__name__}: beliefs must be finite and >= 0")
        total = b.sum(axis=1, keepdims=True)
        if np.any(total <= 0):
            raise ValueError(f"{type(self).__name__}: a row of beliefs is zero everywhere")
        b /= total
        lz = log_partition if log_partition is None or callable(log_partition) else float(log_partition)
        return EngineResult(b, int(n_iter), bool(converged), list(deltas), lz, dict(extra))

    # -- parameters, for repr and clone ----------------------------------------------------
    def get_params(self, deep: bool = True) -> dict:
        """The constructor's arguments (scikit-learn style)."""
        sig = inspect.signature(type(self).__init__)
        return {p: getattr(self, p) for p in sig.parameters if p != "self" and hasattr(self, p)}

    def set_params(self, **params):
        for key, value in params.items():
            setattr(self, key, value)
        return self

    def __repr__(self) -> str:
        params = ", ".join(f"{k}={v!r}" for k, v in self.get_params().items())
        return f"{type(self).__name__}({params})"

    def __eq__(self, other) -> bool:
        return type(self) is type(other) and self.get_params() == other.get_params()

    __hash__ = object.__hash__


def register_engine(name: str, *, aliases: tuple[str, ...] = ()):
    """Class decorator: make an :class:`Engine` subclass available as ``BPSeg(engine=name)``.

    ``aliases`` are further names for the same engine (kept for old spellings); the class's
    ``name`` is ``name``, and :func:`~bpseg_pgm.inference.engines.make_engine` gives an engine
    made from an alias the alias as its name, so that messages echo what the user wrote.
    """

    def wrap(cls):
        if not (isinstance(cls, type) and issubclass(cls, Engine)):
            raise ValueError(f"register_engine({name!r}) needs an Engine subclass, got {cls!r}")
        for key in (name, *aliases):
            if key in REGISTRY and REGISTRY[key] is not cls:
                raise ValueError(f"an engine is already registered as {key!r}: {REGISTRY[key].__name__}")
        cls.name = name
        REGISTRY[name] = cls
        for alias in aliases:
            REGISTRY[alias] = cls
            ALIASES[alias] = name
        return cls

    return wrap
