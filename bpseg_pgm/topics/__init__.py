"""The topic model: segments that may return, as in the paper (``BPSeg(structure="topics")``).

:func:`fit_topics` (:mod:`.fit`) is the fit loop (modules: docs/code-map.md); its potentials, graph and inference
come from :mod:`bpseg_pgm.potentials`, :mod:`bpseg_pgm.graph` and :mod:`bpseg_pgm.inference`.
"""

from .fit import TopicsFit, fit_topics
from .memory import check_fit_memory, estimate_fit_memory
from .representatives import INITS, choose_representatives

__all__ = ["INITS", "TopicsFit", "check_fit_memory", "choose_representatives", "estimate_fit_memory", "fit_topics"]
