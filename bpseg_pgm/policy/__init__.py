"""The library's tuned numbers in one home: :class:`~bpseg_pgm.policy.policy.Policy`.

A package above only :mod:`bpseg_pgm.constraints` (each field's range): the model packages take their defaults from
:data:`DEFAULT_POLICY`, and the decision layer (:mod:`bpseg_pgm.decisions`) passes a user's ``Policy``
down explicitly.
"""

from .policy import DEFAULT_POLICY, KNOBS, STAGES, Policy
from .read import read_policy

__all__ = ["DEFAULT_POLICY", "KNOBS", "STAGES", "Policy", "read_policy"]
