"""The topic model's fixed settings: how many labels "auto" starts from, Algorithm 2's values.

The tuned numbers (the labels' cap, sweeps per round) are fields of :class:`~bpseg_pgm.policy.Policy`."""

from __future__ import annotations

import math

__all__ = ["APPENDIX_DEFAULTS", "auto_labels"]

#: What ``lam=None``, ``sigma="auto"``, ``em_rounds=None`` and ``context="auto"`` mean for an engine
#: with its own potentials (``engine="fast"``: the appendix's Algorithm 2 in its Choi setting).
#: The named potentials carry theirs in :mod:`bpseg_pgm.potentials.registry`.
APPENDIX_DEFAULTS = {"lam": 300.0, "sigma": 10.0, "em_rounds": 0, "context": 0.0}


def auto_labels(n: int, cap: int, per_root: float) -> int:
    """The number of labels ``n_segments="auto"`` starts from for n sentences: min(n, ceil(``per_root`` sqrt(n)),
    ``cap``) (``Policy.auto_segments_per_root``, 2, and ``Policy.auto_max_segments``), at least 1."""
    return max(1, min(n, int(cap), math.ceil(per_root * math.sqrt(n))))
