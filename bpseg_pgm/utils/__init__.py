"""Shared low-level helpers (the bottom layer: imports nothing else of bpseg_pgm).

* :mod:`.validation`: input checks shared by the estimator, the graph builder, the engines and the text layer;
* :mod:`.pgmpy_loader`: pgmpy, imported quietly and only when needed;
* :mod:`.labels`: runs of equal labels in reading order.
"""
