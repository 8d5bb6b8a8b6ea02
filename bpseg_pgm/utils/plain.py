"""Arrays whose single numbers are Python numbers, for results a user reads one value at a time.

With NumPy 2, an element of an array shows as ``np.float64(0.88)`` or ``np.int64(0)``: ``list(seg.confidence())``
printed a list of those. :class:`PlainArray` is an ndarray (every array operation is unchanged) whose elements,
indexed or iterated, are ``float``/``int``, and whose repr is the ndarray's.
"""

from __future__ import annotations

import numpy as np

__all__ = ["PlainArray", "plain_array"]


class PlainArray(np.ndarray):
    """An ndarray whose scalar elements come out as Python numbers (``a[0]``, ``list(a)``, ``for x in a``)."""

    def __getitem__(self, key):
        out = super().__getitem__(key)
        return out.item() if isinstance(out, np.generic) else out

    def __iter__(self):
        return iter(self.tolist()) if self.ndim == 1 else super().__iter__()

    def __repr__(self) -> str:
        return repr(self.view(np.ndarray))


def plain_array(values, dtype=None) -> PlainArray:
    """``values`` as a :class:`PlainArray` (a view, no copy when ``values`` is already an array of ``dtype``)."""
    return np.asarray(values, dtype=dtype).view(PlainArray)
