"""bpseg_pgm: BP-Seg text segmentation by belief propagation on pgmpy Markov networks."""

import warnings

# pgmpy 1.1.2 warns on import that its own `estimators` module is deprecated (a FutureWarning
# about pgmpy internals, not about anything we call). Import it once here, quietly, so that
# user code and the `bpseg` command do not print it.
with warnings.catch_warnings():
    warnings.simplefilter("ignore", FutureWarning)
    import pgmpy.factors.discrete  # noqa: F401
    import pgmpy.inference  # noqa: F401
    import pgmpy.models  # noqa: F401

from .estimator import BPSeg  # noqa: E402
from .graph import build_markov_network  # noqa: E402
from .inference import LoopyBeliefPropagation  # noqa: E402

__version__ = "0.1.0"

__all__ = ["BPSeg", "build_markov_network", "LoopyBeliefPropagation", "__version__"]
