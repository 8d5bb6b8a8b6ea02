"""The features step: what the model sees of a document (unit weights, word counts, :class:`~.units.Units`).

The text pipeline, pruning, the corpus runner and the benchmarks build their units here, so that
``BPSeg().fit(Units.from_sentences(s))`` is the model ``segment_sentences(s)`` fits.
"""

from .units import Units
from .weights import unit_weights
from .words import unit_word_counts, word_stems

__all__ = ["Units", "unit_weights", "unit_word_counts", "word_stems"]
