"""Speaker labels of a transcript, which are never keywords.

A unit that starts with one to three capitalised words (or ``Speaker 2``) and a colon (``Anna: we should ship.``)
has a label; a label that starts at least two units of the document is a speaker's, removed from the start of every
unit before the keywords are counted (a label used once, such as ``Note:``, is left alone).
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence

import regex

__all__ = ["SPEAKER_LABEL", "without_speakers"]

#: A speaker label at the start of a unit: one to three capitalised words, or "Speaker N", then a colon.
SPEAKER_LABEL = regex.compile(
    r"^\s*((?:\p{Lu}[\p{L}\p{M}.'’-]*)(?:[ \t]+\p{Lu}[\p{L}\p{M}.'’-]*){0,2}|Speaker[ \t]*\d+)[ \t]*:(?=\s)"
)


def without_speakers(units: Sequence[str]) -> list[str]:
    """``units`` with their speaker labels removed: each label that starts two or more units, wherever it
    starts one. Units without such a label are returned unchanged."""
    labels = [m.group(1) if (m := SPEAKER_LABEL.match(unit)) else None for unit in units]
    speakers = {label for label, count in Counter(x for x in labels if x is not None).items() if count >= 2}
    if not speakers:
        return list(units)
    return [
        unit[SPEAKER_LABEL.match(unit).end() :] if label in speakers else unit for unit, label in zip(units, labels)
    ]
