"""Load the plug-ins other installed packages declare, once, before a registry is listed or looked up.

A package registers its engines, potentials, run costs and output formats by declaring an entry point in
the group ``bpseg_pgm.plugins`` (in its ``pyproject.toml``)::

    [project.entry-points."bpseg_pgm.plugins"]
    mine = "my_package.bpseg_plugin"            # a module: importing it registers
    other = "my_package.plugin:register"        # or a function of no arguments that registers

The module (or the function) uses the library's own decorators (``register_engine``, ``register_potentials``,
``register_cost``, ``register_format``). :func:`load_plugins` loads every entry point of the group the first
time a registry is listed or looked up (``engine_names``, ``potentials_names``, ``cost_names``,
``format_names`` and the look-ups by name call it), so the names appear in ``BPSeg``'s checks and in the
``bpseg`` command's choices and help. A plug-in that fails to load (any exception, ``SystemExit`` included:
all but ``KeyboardInterrupt``, which still interrupts) is one warning naming it, and the rest of the library
works without it; one that tries to take a name already registered (a built-in's, or another plug-in's) is
refused by the registry, so it too is one warning and the name keeps what it named. Whatever a plug-in
prints while it loads goes to standard error, so that standard output keeps the result (``bpseg ... --format
json``).

This module imports nothing of the library: the registries below it call it.
"""

from __future__ import annotations

import contextlib
import importlib.metadata
import sys
import types
import warnings

__all__ = ["GROUP", "load_plugins", "loaded_plugins"]

#: The entry-point group plug-ins are declared in.
GROUP = "bpseg_pgm.plugins"

_LOADED: dict[str, str] = {}  # entry-point name -> its value ("module" or "module:function"), loaded
_STATE = {"done": False}


def load_plugins() -> None:
    """Load every entry point of :data:`GROUP`, once per process (later calls return at once). A module is
    imported; an object that is not a module is called with no arguments. One ``UserWarning`` per plug-in
    that fails (an ``Exception``, or ``SystemExit`` and any other ``BaseException`` but ``KeyboardInterrupt``
    and ``GeneratorExit``), naming it; the others load. Standard output is standard error while they load."""
    if _STATE["done"]:
        return
    _STATE["done"] = True  # first: a plug-in that lists a registry while it loads does not load them again
    with contextlib.redirect_stdout(sys.stderr):  # a plug-in's prints must not mix with a result on stdout
        for ep in importlib.metadata.entry_points(group=GROUP):
            _load(ep)


def _load(ep: importlib.metadata.EntryPoint) -> None:
    try:
        obj = ep.load()
        if not isinstance(obj, types.ModuleType):
            if not callable(obj):
                raise TypeError(f"{ep.value} is neither a module nor a function")
            obj()
    except (KeyboardInterrupt, GeneratorExit):  # the user's interrupt is not the plug-in's failure
        raise
    except BaseException as exc:  # a broken plug-in (sys.exit() included) must not end the library: say which
        warnings.warn(
            f"bpseg plug-in {ep.name!r} ({ep.value}) could not be loaded and is left out: {type(exc).__name__}: {exc}",
            UserWarning,
            stacklevel=3,
        )
        return
    _LOADED[ep.name] = ep.value


def loaded_plugins() -> dict[str, str]:
    """The plug-ins loaded: entry-point name -> its value (loading them first)."""
    load_plugins()
    return dict(_LOADED)
