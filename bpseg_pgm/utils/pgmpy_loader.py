"""pgmpy, imported quietly and only when needed.

pgmpy 1.1.2 imports torch (about 4 s here) and warns on import that its own ``estimators``
module is deprecated (a FutureWarning about pgmpy internals, not about anything we call).
Only the engines that really build or read pgmpy objects import this module, so the Potts
engine and the command line start without paying for it, and nobody sees the warning.
"""

import warnings

with warnings.catch_warnings():
    warnings.simplefilter("ignore", FutureWarning)
    from pgmpy import config  # noqa: F401
    from pgmpy.factors.discrete import DiscreteFactor  # noqa: F401
    from pgmpy.inference import BeliefPropagation, Inference, Mplp, VariableElimination  # noqa: F401
    from pgmpy.models import DiscreteMarkovNetwork  # noqa: F401
    from pgmpy.sampling import GibbsSampling  # noqa: F401
