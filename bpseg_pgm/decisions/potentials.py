"""What the estimator's potentials mean for the runs model and the grouping: a potential reaches every model
that has a place for it.

The runs model cuts by the potentials' run cost (:attr:`~bpseg_pgm.potentials.Potentials.run_cost`: a cost
name, "embeddings" for the centred potentials, or None: the energy of their couplings within a run,
:class:`~bpseg_pgm.runs.potentialcost.PotentialsCost`), unless the user gave a cost other than the embeddings'. The grouping
of runs into topics takes the potentials' :meth:`~bpseg_pgm.potentials.Potentials.group_potentials` (None:
its own).
"""

from __future__ import annotations

from typing import Any

from bpseg_pgm.policy import Policy
from bpseg_pgm.potentials import Potentials
from bpseg_pgm.runs.costs import EmbeddingsCost
from bpseg_pgm.runs.potentialcost import PotentialsCost

__all__ = ["grouping_potentials", "runs_cost", "runs_can_take"]


def runs_can_take(potentials: Potentials | None) -> bool:
    """Whether the runs model has a place for ``potentials``: Potts couplings (a run's energy) or a run cost named
    by the class. None (an engine with potentials of its own) has none."""
    return potentials is not None and (potentials.potts or type(potentials).run_cost is not None)


def runs_cost(cost: Any, potentials: Potentials | None) -> Any:
    """The cost the runs model cuts by: ``cost`` when the user gave one (anything but the default, the
    embeddings' scatter) or the potentials have no place in the runs; else the potentials' run cost."""
    default = (isinstance(cost, str) and cost == "embeddings") or type(cost) is EmbeddingsCost
    if not default or not runs_can_take(potentials):
        return cost
    named = type(potentials).run_cost
    return named if named is not None else PotentialsCost(potentials)


def grouping_potentials(potentials: Potentials | None, policy: Policy) -> Potentials | None:
    """The potentials that group runs into topics: the estimator's potentials' choice, None for the default."""
    if potentials is None:
        return None
    chosen = potentials.group_potentials(policy)
    if chosen is not None and not isinstance(chosen, Potentials):
        raise ValueError(
            f"{type(potentials).__name__}.group_potentials must return a bpseg_pgm.potentials.Potentials or None, "
            f"got {type(chosen).__name__}"
        )
    return chosen
