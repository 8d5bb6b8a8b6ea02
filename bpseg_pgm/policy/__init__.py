"""The library's tuned numbers in one home: :class:`~bpseg_pgm.policy.policy.Policy`.

A package above only :mod:`bpseg_pgm.constraints` (each field's range): the model packages take their defaults from
:data:`DEFAULT_POLICY`, and the decision layer (:mod:`bpseg_pgm.decisions`) passes a user's ``Policy``
down explicitly.
"""

from .policy import DEFAULT_POLICY, STAGES, Policy

__all__ = ["DEFAULT_POLICY", "STAGES", "Policy"]
