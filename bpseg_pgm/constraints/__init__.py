"""What a parameter takes, declared as objects (in the manner of scikit-learn's ``_parameter_constraints``).

:func:`~.validate.validate` checks a value against a list of them and raises one ValueError, worded the same way
for every parameter (``<owner><name> must be <what each constraint takes, joined by "or">, got <value>``). A leaf
package: it imports nothing of ``bpseg_pgm``.
"""

from .constraints import Callable, Instance, Interval, Options, StrOptions, resolve
from .validate import describe, satisfied, validate

__all__ = ["Callable", "Instance", "Interval", "Options", "StrOptions", "describe", "resolve", "satisfied", "validate"]
