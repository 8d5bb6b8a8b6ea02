"""Moved to :mod:`bpseg_pgm.io.reports` (writing belongs to the io layer); kept as an alias."""

from bpseg_pgm.io.reports import check_output_dir, write_atomically

__all__ = ["check_output_dir", "write_atomically"]
