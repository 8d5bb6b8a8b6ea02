"""Plug-ins of other packages: engines, potentials, run costs and output formats registered through one
entry-point group, ``bpseg_pgm.plugins`` (:mod:`.loader`)."""

from .loader import GROUP, load_plugins, loaded_plugins

__all__ = ["GROUP", "load_plugins", "loaded_plugins"]
