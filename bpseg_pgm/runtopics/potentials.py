"""The potentials of the runs' Markov network: how much a run likes a topic, and how runs pull together.

Variables are runs, states topics. With ``M`` the runs' centred unit means and ``C`` the topics' centres:

* unary: log psi_r(t) = ``unary_scale`` * cos(M_r, C_t);
* pairwise, Potts-shaped: log w_rs = -``lam`` (cos(M_r, M_s) - ``threshold``) / (m - 1) - ``locality`` [s = r + 1]:
  runs more alike than the threshold attract, less alike repel, and reading-order neighbours pay ``locality`` to
  differ. A :class:`~bpseg_pgm.potentials.Potentials`, so every registered engine takes it.
"""

from __future__ import annotations

import numpy as np

from bpseg_pgm.policy import Policy
from bpseg_pgm.potentials.base import Potentials, edge_cosine
from bpseg_pgm.utils.validation import check_nonnegative

__all__ = ["RunTopicPotentials"]


class RunTopicPotentials(Potentials):
    """Unary and Potts potentials over runs (see the module docstring); the rows given are run means in order.

    Every number is given (``RunTopicPotentials(threshold, lam, locality, unary_scale)``); the shipped ones, or
    a :class:`~bpseg_pgm.policy.Policy`'s with some changed, come from :meth:`from_policy`
    (``RunTopicPotentials.from_policy(DEFAULT_POLICY, threshold=0.4)``)."""

    def __init__(self, threshold: float, lam: float, locality: float, unary_scale: float):
        if (
            isinstance(threshold, bool)
            or not isinstance(threshold, (int, float, np.integer, np.floating))
            or not -1.0 <= float(threshold) <= 1.0
        ):
            raise ValueError(f"threshold must be a number in [-1, 1], got {threshold!r}")
        self.threshold = float(threshold)
        self.lam = check_nonnegative(lam, "lam")
        self.locality = check_nonnegative(locality, "locality")
        self.unary_scale = check_nonnegative(unary_scale, "unary_scale")

    @classmethod
    def from_policy(cls, policy: Policy, **changes) -> RunTopicPotentials:
        """The potentials a :class:`~bpseg_pgm.policy.Policy` gives (``group_threshold``, ``group_lam``,
        ``group_locality``, ``group_unary_scale``), with ``changes`` to any of the four."""
        args = {
            "threshold": policy.group_threshold,
            "lam": policy.group_lam,
            "locality": policy.group_locality,
            "unary_scale": policy.group_unary_scale,
        }
        return cls(**{**args, **changes})

    def log_unary(self, X, C):
        return self.unary_scale * (np.asarray(X) @ np.asarray(C).T)

    def log_coupling(self, X, rows, cols):
        rows = np.asarray(rows, dtype=np.int64)
        cols = np.asarray(cols, dtype=np.int64)
        if rows.size == 0:
            return np.zeros(0)
        m = np.asarray(X).shape[0]
        cos = np.clip(edge_cosine(np.asarray(X), rows, cols), -1.0, 1.0)
        return -self.lam * (cos - self.threshold) / max(m - 1, 1) - self.locality * (np.abs(cols - rows) == 1)
