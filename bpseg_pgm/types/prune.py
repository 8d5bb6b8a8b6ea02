"""What :func:`bpseg_pgm.pruning.prune` keeps of a text for a query: the units, their offsets, the pruned text."""

from __future__ import annotations

import json
from dataclasses import dataclass
from typing import Any

import numpy as np

from bpseg_pgm.types.chunk import Span

__all__ = ["PruneResult"]


@dataclass(frozen=True, eq=False)
class PruneResult:
    """What :func:`~bpseg_pgm.pruning.prune` kept.

    * ``kept``: indices of the kept units (sentences, or the units given), reading order;
    * ``spans``: ``(start, end)`` of each kept unit in ``source``, so ``source[start:end]`` is
      the unit as written; ``source`` is the text given, or the units joined by newlines;
    * ``runs``: ``(start, end)`` in ``source`` of each run of consecutive kept units (empty
      units given in a list do not interrupt a run: they are skipped, never kept);
    * ``text``: the pruned text: each run as written in ``source`` (whitespace between its
      units included), runs joined by ``separator``;
    * ``units``: every unit (sentences with their whitespace collapsed, or the units given);
    * ``scores``: relevance of every unit to the query (NaN for an empty unit); ``segments``:
      ``(start, end)`` unit ranges of the contiguous segments (they tile the units), with
      ``segment_scores``;
    * ``cost_unit`` ("words" or "tokens"), ``limit`` (the most the kept units may cost) and
      ``used`` (what they cost).
    """

    query: str
    kept: tuple[int, ...]
    spans: tuple[Span, ...]
    runs: tuple[Span, ...]
    text: str
    source: str
    units: tuple[str, ...]
    scores: np.ndarray
    segments: tuple[Span, ...]
    segment_scores: np.ndarray
    cost_unit: str
    limit: float
    used: int
    total: int

    def to_dict(self) -> dict[str, Any]:
        """Plain JSON-ready dict (0-based unit indices, character offsets into ``source``)."""
        return {
            "query": self.query,
            "kept": list(self.kept),
            "spans": [list(s) for s in self.spans],
            "runs": [list(s) for s in self.runs],
            "text": self.text,
            "n_units": len(self.units),
            "budget": {"unit": self.cost_unit, "limit": self.limit, "used": self.used, "total": self.total},
            "scores": [None if np.isnan(s) else round(float(s), 6) for s in self.scores],
            "segments": [list(s) for s in self.segments],
            "segment_scores": [round(float(s), 6) for s in self.segment_scores],
        }

    def to_json(self, indent: int | None = 2) -> str:
        return json.dumps(self.to_dict(), ensure_ascii=False, indent=indent, allow_nan=False)
