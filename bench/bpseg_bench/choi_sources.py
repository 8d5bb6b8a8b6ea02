"""Choi's segments as passages, and the source text each passage comes from.

Every Choi segment is the first 3-15 sentences of one Brown corpus document, so one Brown document
appears as several passages (its first 3, 6, 9, ... sentences), within a set and across sets. A passage's
*source* is therefore its first sentence (the Brown document it opens). Sets 1, 2 and 3 draw on the same
124 sources, so every sentence of set 1 (the tuning set) also occurs in sets 2 and 3; set 4 draws on 399,
275 of them in no other set. :func:`choi_passages` with ``exclude`` keeps only the passages whose source
is not in the given (development) documents: from sets 2-4 less set 1's sources, that leaves set 4's 275
new sources, the only Choi text that is truly held out.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np

from bpseg_pgm.types.document import Document

__all__ = ["ChoiPassage", "choi_passages", "group_by_source", "source_segments"]


@dataclass(frozen=True)
class ChoiPassage:
    """One distinct Choi segment: its ``sentences``, ``where`` it was first found (``"<doc id>#<segment>"``,
    e.g. ``"2/3-5/12#4"``) and that document's Choi ``set`` (None for a document without one)."""

    sentences: tuple[str, ...]
    where: str
    set: int | None = None

    @property
    def source(self) -> str:
        """The passage's source: its first sentence, which opens one Brown corpus document."""
        return self.sentences[0]


def choi_passages(docs: Sequence[Document], exclude: Sequence[Document] = ()) -> list[ChoiPassage]:
    """The distinct gold segments of ``docs`` in order of first appearance, less those whose source (first
    sentence) is the source of a segment of ``exclude`` (the development documents, e.g. Choi set 1)."""
    held = {p.source for p in _segments(exclude)}
    return [p for p in _segments(docs) if p.source not in held]


def group_by_source(passages: Sequence[ChoiPassage]) -> list[list[ChoiPassage]]:
    """The passages grouped by source, groups and passages in order of first appearance."""
    groups: dict[str, list[ChoiPassage]] = {}
    for p in passages:
        groups.setdefault(p.source, []).append(p)
    return list(groups.values())


def source_segments(docs: Sequence[Document]) -> list[tuple[str, ...]]:
    """Every gold segment of the given documents, as a tuple of sentences, deduplicated."""
    return [p.sentences for p in _segments(docs)]


def _segments(docs: Sequence[Document]) -> list[ChoiPassage]:
    seen: dict[tuple[str, ...], ChoiPassage] = {}
    for d in docs:
        labels = np.asarray(d.labels)
        for lab in np.unique(labels):
            seg = tuple(s for s, x in zip(d.units, labels) if x == lab)
            seen.setdefault(seg, ChoiPassage(seg, f"{d.doc_id}#{lab}", d.meta.get("set")))
    return list(seen.values())
