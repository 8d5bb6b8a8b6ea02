"""The inference algorithms, as functions over arrays: what the engines call.

Every algorithm lives here, and nothing here knows about engines or ``Problem``s (the
plug-ins in :mod:`bpseg_pgm.inference.engines` turn a problem into a kernel call). Importing
this package imports none of its modules: pgmpy, numba and networkx load only with the
kernels that need them.

* :mod:`.layouts`: where messages live (:class:`~.layouts.EdgeLayout`: one row per directed
  message) and pre-faulted message buffers;
* :mod:`.flooding`: the flooding schedule every vectorised sum-product kernel shares
  (:func:`~.flooding.flooding_bp`, :func:`~.flooding.unit_sweeps`, :class:`~.flooding.BPResult`);
* :mod:`.potts`: the Potts kernel (:func:`~.potts.potts_bp`: NumPy, dense tiled and sparse
  compiled sweeps) and the Bethe log Z at its messages;
* :mod:`.tables`: sum-product for arbitrary pairwise log tables (:func:`~.tables.table_bp`);
* :mod:`.loopy`: :class:`~.loopy.LoopyBeliefPropagation`, the table kernel in pgmpy's
  ``Inference`` API (loads pgmpy);
* :mod:`.potts_network`: :class:`~.potts_network.PottsBeliefPropagation`, the Potts kernel in pgmpy's
  ``Inference`` API, reading a network's Potts factors (how the default grouping of runs is solved);
* :mod:`.max_product`, :mod:`.mean_field`, :mod:`.gibbs` (vectorised chains and pgmpy's
  sampler), :mod:`.mplp` (pgmpy's ``Mplp`` with leaves folded), :mod:`.incidence` (slots by
  sender, for the one-sentence-at-a-time kernels);
* :mod:`.exact`: pgmpy's junction tree with a size guard; :mod:`.bethe`: the Bethe estimate of
  log Z from messages; :mod:`.fast_bp_seg`: the paper's appendix Algorithm 2;
* :mod:`.reference`: the hand-written solver (plain Python, shares no code with the others:
  it is how we know they are right).

The package is public (``kernels``, not ``_kernels``): the README shows some kernels to users
(``potts_bp``, ``fast_bp_seg``, ``exact_marginals``, ``reference_bp``), and the contiguous-runs
model reuses :class:`~.flooding.BPResult`; but it is not the plug-in API, and
``bpseg_pgm.inference`` does not re-export it.
"""
