"""One document to segment or to score: the input of ``bpseg corpus`` and of every benchmark.

A :class:`Document` holds an ``id`` and its content, either ``text`` (raw text, split into
sentences later) or ``units`` (sentences or meeting turns, taken as they are), or the ``error``
that makes it unusable (a binary file, a record whose text is not a string). A document to score
also carries gold ``labels``: one per unit, ``None`` for a unit that belongs to no gold segment.
``meta`` keeps where it came from (a Choi set and range, a QMSum meeting's speakers); it takes
no part in equality.

The readers (:mod:`bpseg_pgm.io.documents`) and the dataset loaders
(the benchmarks, :mod:`bpseg_bench`) build documents; the names ``CorpusDocument`` (the corpus input),
``LabelledDocument``, ``ChoiDocument`` and ``InterleavedDocument`` (the benchmarks') are this one
class or thin subclasses that keep their old constructors.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

import numpy as np

__all__ = ["Document"]


@dataclass(frozen=True)
class Document:
    """One document: ``id`` and ``text`` or ``units`` (or the ``error`` that stops it), gold ``labels``
    (one per unit, None: unlabelled) when it is scored, and ``meta`` (kept, never compared)."""

    id: str
    text: str | None = None
    units: tuple[str, ...] | None = None
    error: str | None = None
    labels: Sequence[Any] | None = None
    meta: dict = field(default_factory=dict, compare=False)

    def __post_init__(self):
        if self.labels is not None and self.units is not None and len(self.units) != len(self.labels):
            raise ValueError(f"{self.id}: {len(self.units)} units but {len(self.labels)} labels")

    def __bool__(self) -> bool:  # a document is never "empty" as a value, whatever __len__ says
        return True

    def __len__(self) -> int:
        """Number of units (0 for a text or an error document)."""
        return len(self.units) if self.units is not None else 0

    @property
    def doc_id(self) -> str:
        """The ``id`` (the benchmarks' name for it)."""
        return self.id

    @property
    def sentences(self) -> tuple[str, ...] | None:
        """The ``units`` (the Choi loader's name for them)."""
        return self.units

    @property
    def size(self) -> int:
        """Characters to embed (0 for a document in error): what the corpus run balances its tasks on."""
        if self.text is not None:
            return len(self.text)
        return sum(len(u) for u in self.units) if self.units is not None else 0

    @property
    def labelled(self) -> np.ndarray:
        """Boolean mask of the units that carry a gold label."""
        return np.array([lab is not None for lab in self._labels()], dtype=bool)

    @property
    def gold(self) -> np.ndarray:
        """Integer gold labels of the labelled units (codes in order of first appearance, from 0)."""
        codes: dict[Any, int] = {}
        codes_of_labelled = [codes.setdefault(lab, len(codes)) for lab in self._labels() if lab is not None]
        return np.array(codes_of_labelled, dtype=np.int64)

    @property
    def n_segments(self) -> int:
        """Number of distinct gold labels (topics; a returning topic counts once)."""
        return len({lab for lab in self._labels() if lab is not None})

    def _labels(self) -> Sequence[Any]:
        if self.labels is None:
            raise ValueError(f"{self.id}: the document has no gold labels")
        return self.labels
