"""bpseg_pgm: BP-Seg text segmentation by belief propagation on pgmpy Markov networks."""

from .estimator import BPSeg
from .graph import build_markov_network
from .inference import LoopyBeliefPropagation

__version__ = "0.1.0"

__all__ = ["BPSeg", "build_markov_network", "LoopyBeliefPropagation", "__version__"]
