"""bpseg_pgm: BP-Seg text segmentation by belief propagation on pgmpy Markov networks."""

from .estimator import BPSeg
from .corpus import segment_corpus
from .pruning import prune

__version__ = "0.1.0"

__all__ = ["BPSeg", "prune", "segment_corpus", "build_markov_network", "LoopyBeliefPropagation", "__version__"]


def __getattr__(name):
    # pgmpy (and the torch it imports) load only when a pgmpy-based piece is first used
    if name == "build_markov_network":
        from .graph import build_markov_network

        return build_markov_network
    if name == "LoopyBeliefPropagation":
        from .inference.loopy import LoopyBeliefPropagation

        return LoopyBeliefPropagation
    raise AttributeError(f"module 'bpseg_pgm' has no attribute {name!r}")
