"""The topic model: segments that may return, as in the paper (``BPSeg(structure="topics")``).

* :mod:`.defaults`: its fixed settings (labels "auto" starts from, Algorithm 2's values);
* :mod:`.representatives`: the k initial representatives;
* :mod:`.reestimate`: re-estimating them from the beliefs (the M-step);
* :mod:`.memory`: the memory a fit will need, estimated before anything large is allocated;
* :mod:`.fit`: :func:`fit_topics`, the whole fit loop.

Its potentials are in :mod:`bpseg_pgm.potentials`, its graph in :mod:`bpseg_pgm.graph`, its inference
in :mod:`bpseg_pgm.inference`: this package only puts them together.
"""

from .fit import TopicsFit, fit_topics
from .memory import check_fit_memory, estimate_fit_memory
from .representatives import INITS, choose_representatives

__all__ = ["INITS", "TopicsFit", "check_fit_memory", "choose_representatives", "estimate_fit_memory", "fit_topics"]
