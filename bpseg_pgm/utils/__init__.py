"""Shared low-level helpers (the bottom layer: imports nothing else of bpseg_pgm)."""
