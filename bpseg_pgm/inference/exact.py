"""Deprecated: the exact-inference kernel moved to :mod:`bpseg_pgm.inference.kernels.exact`.

Kept because notebook 03 showed ``from bpseg_pgm.inference.exact import MAX_CLIQUE_ENTRIES``;
every name warns (FutureWarning) with its new path.
"""

import importlib
import warnings

_NEW = "bpseg_pgm.inference.kernels.exact"
_NAMES = ("MAX_CLIQUE_ENTRIES", "exact_inference", "exact_marginals", "largest_clique_entries")


def __getattr__(name):
    if name in _NAMES:
        warnings.warn(f"bpseg_pgm.inference.exact is deprecated: import {name} from {_NEW}", FutureWarning, stacklevel=2)
        return getattr(importlib.import_module(_NEW), name)
    raise AttributeError(f"module 'bpseg_pgm.inference.exact' has no attribute {name!r}")
