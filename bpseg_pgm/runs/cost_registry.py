"""The cost of a run as a plug-in: :class:`RunCost`, and the costs by name (``fit_runs(cost="embeddings")``).

As ruptures' ``BaseCost`` names its cost on its class and ``cost_factory(model)`` finds it, a :class:`RunCost`
subclass names itself with its class attribute ``name`` and registers with :func:`register_cost`; :func:`cost_factory`
builds one by name and :func:`cost_names` lists them (an example: docs/howto/plugins.md, "A custom run cost"). A
subclass writes :meth:`~RunCost.error` (the cost of one run, O(m^2) calls) or, faster, :meth:`~RunCost.matrix` itself.

A cost drives the levels and the noise-calibrated number of runs (each null document fitted with the same
cost). It does not drive binary segmentation's candidates on a document longer than ``Policy.max_candidates``
units, the chain beliefs, the runs' means, or ``structure="auto"``'s boundary effect: those read the embeddings.

The built-ins: ``"embeddings"`` (:class:`~bpseg_pgm.runs.costs.EmbeddingsCost`, the default) and ``"words"``
(:class:`~bpseg_pgm.runs.wordcost.WordsCost`, not ``standalone``: added beside the run cost once k is chosen).
"""

from __future__ import annotations

import copy
from typing import Any, ClassVar

import numpy as np

from bpseg_pgm.plugins.loader import load_plugins

from .memory import check_runs_memory

__all__ = [
    "COSTS",
    "RunCost",
    "check_cost",
    "checked_matrix",
    "cost_factory",
    "cost_names",
    "register_cost",
    "run_cost_matrix",
]

#: The names of the costs that ship with the library: another class cannot take them.
BUILT_IN = ("embeddings", "words")


class RunCost:
    """The cost of a run of consecutive units, for the runs model's segmental programme.

    ``name`` (class attribute): the name :func:`register_cost` files it under. ``standalone`` (class attribute):
    whether :func:`~bpseg_pgm.runs.model.fit_runs` may cut runs by it alone. :meth:`fit` keeps one document's
    ``features`` (n, d) and ``weights`` (n,); :meth:`matrix` gives the cost of every run between candidate
    positions. Lower is better, and a run's cost should not be negative (the windows and the noise-calibrated k
    assume the best total cost falls as runs are added). Each document gets a copy (:func:`run_cost_matrix`).
    """

    name: ClassVar[str] = ""
    standalone: ClassVar[bool] = True

    features: np.ndarray
    weights: np.ndarray

    def fit(self, features: np.ndarray, weights: np.ndarray) -> RunCost:
        """Keep the document: ``features`` (n, d) float64, ``weights`` (n,) >= 0. Returns self."""
        self.features = np.asarray(features, dtype=np.float64)
        self.weights = np.asarray(weights, dtype=np.float64)
        return self

    def error(self, start: int, end: int) -> float:
        """The cost of the run of units ``start``..``end``-1 (0 <= start < end <= n)."""
        raise NotImplementedError(f"{type(self).__name__} must define error(start, end) or matrix(positions)")

    def matrix(self, positions: np.ndarray | None = None) -> np.ndarray:
        """(m+1, m+1) matrix C[i, j] = cost of the run positions[i]..positions[j]-1, inf where j <= i.
        ``positions``: sorted candidate boundaries 0 = p_0 < ... < p_m = n; None is every position (m = n).
        This default fills it from :meth:`error`, one run at a time."""
        n = self.features.shape[0]
        positions = np.arange(n + 1) if positions is None else np.asarray(positions, dtype=np.int64)
        m = positions.shape[0] - 1
        check_runs_memory(m, programme_only=True)
        C = np.full((m + 1, m + 1), np.inf)
        for i in range(m):
            a = int(positions[i])
            for j in range(i + 1, m + 1):
                C[i, j] = float(self.error(a, int(positions[j])))
        return C

    def __repr__(self) -> str:
        return f"{type(self).__name__}()"


#: name -> RunCost subclass, in registration order
COSTS: dict[str, type[RunCost]] = {}


def register_cost(cls: type[RunCost]) -> type[RunCost]:
    """Class decorator: make ``cls`` (a :class:`RunCost` subclass) available as ``cost=cls.name``. ValueError
    for a name already registered to another class (a built-in's or another plug-in's)."""
    if not (isinstance(cls, type) and issubclass(cls, RunCost)):
        raise ValueError(f"register_cost needs a RunCost subclass, got {cls!r}")
    name = cls.__dict__.get("name", "")
    if not isinstance(name, str) or not name or any(c.isspace() for c in name):
        raise ValueError(
            f"a RunCost names itself with a class attribute `name`, a non-empty str without spaces; "
            f"{cls.__name__} has {name!r}"
        )
    taken = COSTS.get(name)
    if taken is not None and taken is not cls:  # a name is taken once, a built-in's or a plug-in's
        kind = "a built-in one" if name in BUILT_IN else "already registered"
        raise ValueError(f"cost name {name!r} is {kind} ({taken.__name__}); choose another name")
    COSTS[name] = cls
    return cls


def cost_names() -> tuple[str, ...]:
    """The registered names, in registration order (installed plug-ins loaded first)."""
    load_plugins()
    return tuple(COSTS)


def _unknown(cost: Any) -> ValueError:
    return ValueError(f"cost must be one of {cost_names()} or a bpseg_pgm.runs.cost_registry.RunCost, got {cost!r}")


def cost_factory(name: str, **params: Any) -> RunCost:
    """A cost object by name: ``cost_factory("embeddings")``; ValueError naming the choices for another name."""
    load_plugins()
    if not isinstance(name, str) or name not in COSTS:
        raise _unknown(name)
    return COSTS[name](**params)


def check_cost(cost: Any) -> RunCost:
    """The run cost to cut by: a registered name (built with no parameters) or a :class:`RunCost` object (used
    as given). ValueError for anything else, naming the choices, and for a cost that is not ``standalone``."""
    load_plugins()
    if isinstance(cost, str):
        if cost not in COSTS:
            raise _unknown(cost)
        cls = COSTS[cost]
        if not cls.standalone:  # say why before trying to build it
            raise ValueError(_not_standalone(cost))
        return cls()
    if not isinstance(cost, RunCost):
        raise _unknown(cost)
    if not cost.standalone:
        raise ValueError(_not_standalone(cost.name or type(cost).__name__))
    return cost


def _not_standalone(name: str) -> str:
    return (
        f"cost {name!r} is not a cost to cut runs by alone: the runs model adds the words' cost beside the "
        f"run cost once the number of runs is chosen (scaled against that cost's gain, its alpha fitted on "
        f"those runs), whenever word counts are given (BPSeg.fit(word_counts=...), a Units, or the text "
        f"pipeline); keep cost='embeddings' (or your own) and give the word counts"
    )


def checked_matrix(C: Any, m: int, cost: RunCost) -> np.ndarray:
    """A cost's matrix over m + 1 candidate positions, checked: (m+1, m+1) float64, no NaN, inf where j <= i."""
    C = np.asarray(C, dtype=np.float64)
    if C.shape != (m + 1, m + 1):
        raise ValueError(
            f"cost {cost.name or type(cost).__name__!r}: matrix(positions) must be ({m + 1}, {m + 1}) "
            f"for {m + 1} positions, got {C.shape}"
        )
    lower = np.tri(m + 1, dtype=bool)
    if not np.isposinf(C[lower]).all():
        C = C.copy()
        C[lower] = np.inf
    if np.isnan(C).any() or np.isneginf(C).any():
        raise ValueError(
            f"cost {cost.name or type(cost).__name__!r}: a run's cost must be a number or +inf "
            "(impossible), got NaN or -inf"
        )
    return C


def run_cost_matrix(
    cost: RunCost, features: np.ndarray, weights: np.ndarray, positions: np.ndarray | None = None
) -> np.ndarray:
    """``cost`` fitted on the document (a copy: the object given is left as it was) and its checked matrix over
    ``positions`` (None: every position), as the segmental programme takes it."""
    C = copy.copy(cost).fit(features, weights).matrix(positions)
    if cost.name in BUILT_IN and COSTS.get(cost.name) is type(cost):
        return C  # the built-ins' matrices, as the programme has always taken them
    m = np.asarray(features).shape[0] if positions is None else int(np.asarray(positions).shape[0]) - 1
    return checked_matrix(C, m, cost)
