"""bpseg_pgm: BP-Seg text segmentation by belief propagation on pgmpy Markov networks.

The names below load on first use (nothing is imported with the package itself, so that
``import bpseg_pgm`` is instant and no sub-package ever needs to import through the root).
"""

__version__ = "0.1.0"

#: name -> (module, attribute): the package's top-level API
_EXPORTS = {
    "BPSeg": ("bpseg_pgm.estimator", "BPSeg"),
    "Policy": ("bpseg_pgm.policy", "Policy"),
    "Units": ("bpseg_pgm.features", "Units"),
    "segment_text": ("bpseg_pgm.text", "segment_text"),
    "segment_texts": ("bpseg_pgm.text", "segment_texts"),
    "segment_sentences": ("bpseg_pgm.text", "segment_sentences"),
    "Segmentation": ("bpseg_pgm.text", "Segmentation"),
    "Embedder": ("bpseg_pgm.text", "Embedder"),
    "prune": ("bpseg_pgm.pruning", "prune"),
    "segment_corpus": ("bpseg_pgm.corpus", "segment_corpus"),
    "build_markov_network": ("bpseg_pgm.graph", "build_markov_network"),
    "LoopyBeliefPropagation": ("bpseg_pgm.inference", "LoopyBeliefPropagation"),
}

__all__ = [*_EXPORTS, "__version__"]


def __getattr__(name):
    if name in _EXPORTS:
        import importlib

        module, attr = _EXPORTS[name]
        value = getattr(importlib.import_module(module), attr)
        globals()[name] = value
        return value
    raise AttributeError(f"module 'bpseg_pgm' has no attribute {name!r}")


def __dir__():
    return sorted([*globals(), *_EXPORTS])
