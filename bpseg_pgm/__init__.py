"""bpseg_pgm: BP-Seg text segmentation by belief propagation on pgmpy Markov networks."""

__version__ = "0.1.0"
