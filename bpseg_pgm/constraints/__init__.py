"""What a parameter takes, declared as objects (in the manner of scikit-learn's ``_parameter_constraints``).

:class:`~.constraints.Interval`, :class:`~.constraints.StrOptions`, :class:`~.constraints.Options` and
:class:`~.constraints.Instance` say what a value may be; :func:`~.validate.validate` checks a value against
a list of them and raises one ValueError, worded the same way for every parameter
(``<owner><name> must be <what each constraint takes, joined by "or">, got <value>``). The
:class:`~bpseg_pgm.policy.Policy` declares each field's range with them, and BPSeg's parameter table
(:mod:`bpseg_pgm.params.table`) its parameters', from which the estimator's checks, the CLI's options and
the parameters page are made. A leaf package: it imports nothing of ``bpseg_pgm``.
"""

from .constraints import Callable, Instance, Interval, Options, StrOptions, resolve
from .validate import describe, satisfied, validate

__all__ = ["Callable", "Instance", "Interval", "Options", "StrOptions", "describe", "resolve", "satisfied", "validate"]
