"""The inference algorithms, as functions over arrays: what the engines call (docs/model.md, "Inference").

Nothing here knows about engines or ``Problem``s (the plug-ins in :mod:`bpseg_pgm.inference.engines` turn a
problem into a kernel call). Importing this package imports none of its modules: pgmpy, numba and networkx load
only with the kernels that need them. :mod:`.reference` shares no code with the others: it is how we know they
are right. The package is public (the README shows ``potts_bp``, ``fast_bp_seg``, ``exact_marginals`` and
``reference_bp``) but it is not the plug-in API, and ``bpseg_pgm.inference`` does not re-export it.
"""
