"""pgmpy, imported quietly and only when needed: it imports torch and warns (FutureWarning) about its own
internals on import. Only the engines that build or read pgmpy objects import this module."""

import warnings

with warnings.catch_warnings():
    warnings.simplefilter("ignore", FutureWarning)
    from pgmpy import config  # noqa: F401
    from pgmpy.factors.discrete import DiscreteFactor  # noqa: F401
    from pgmpy.inference import BeliefPropagation, Inference, Mplp, VariableElimination  # noqa: F401
    from pgmpy.models import DiscreteMarkovNetwork  # noqa: F401
    from pgmpy.sampling import GibbsSampling  # noqa: F401
