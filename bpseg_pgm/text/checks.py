"""The checks a text or a list of sentences passes before anything is embedded (one clear ValueError).

The pipeline (:mod:`bpseg_pgm.text.pipeline`) and ``bpseg corpus`` (:mod:`bpseg_pgm.corpus.tasks`) run
them first, so bad input fails fast, before the slow embedding step.

**Empty units.** In a list of units (sentences, meeting turns), an empty or whitespace-only unit is
kept as a unit: it is not embedded and not given to the model; it takes the segment (and the belief
row) of its nearest non-empty neighbour, the previous one, else the next (:func:`unit_sources`).
Labels, spans and sentences keep one entry per input unit.  A list needs at least 2 non-empty units.
"""

from __future__ import annotations

import difflib
import inspect
import warnings
from collections.abc import Mapping, Sequence
from typing import Any

import numpy as np

from bpseg_pgm.structure.detect import view_of
from bpseg_pgm.text.split import sentence_spans, squash
from bpseg_pgm.types.chunk import Span
from bpseg_pgm.utils.validation import check_str_list, check_unicode

__all__ = [
    "check_bpseg_params",
    "checked_estimator",
    "check_sentences",
    "nonempty_units",
    "split_for_segmentation",
    "unit_sources",
]


def nonempty_units(units: Sequence[str]) -> np.ndarray:
    """Indices (int64, increasing) of the units that are not empty or whitespace-only: those the model sees."""
    return np.array([i for i, u in enumerate(units) if u.strip()], dtype=np.int64)


def unit_sources(units: Sequence[str]) -> np.ndarray:
    """For each unit, the index of the non-empty unit whose segment and beliefs it takes: itself when it is
    not empty, else its nearest non-empty neighbour, the previous one, else the next (int64, shape (n,)).

    ``-1`` everywhere when no unit is non-empty.
    """
    live = nonempty_units(units)
    if live.size == 0:
        return np.full(len(units), -1, dtype=np.int64)
    prev = np.searchsorted(live, np.arange(len(units)), side="right") - 1  # the last live index <= i
    return live[np.maximum(prev, 0)]


def check_sentences(sentences: Any) -> list[str]:
    """``sentences`` as a list of str in valid Unicode, at least 2 of them non-empty, or a ValueError saying
    which is not.  Empty or whitespace-only sentences are allowed: they stay units, outside the model
    (see the module docstring)."""
    sentences = list(
        check_str_list(
            sentences,
            "sentences",
            "sentence",
            any_iterable=True,
            unicode=True,
            not_a_list="sentences must be a list of str (use segment_text for raw text)",
            not_a_str="{name} is {type}, not str",
        )
    )
    live = nonempty_units(sentences)
    if len(live) < 2:
        if len(live) == len(sentences):
            raise ValueError(f"need at least 2 sentences to segment, got {len(sentences)}")
        first = next(i for i, s in enumerate(sentences) if not s.strip())
        raise ValueError(
            f"need at least 2 non-empty sentences to segment, got {len(live)} of {len(sentences)} "
            f"(sentence {first} is empty)"
        )
    return sentences


def split_for_segmentation(
    text: Any, lines: bool, markdown: bool = False, format: str | None = None
) -> tuple[list[str], list[Span]]:
    """Sentences (whitespace collapsed) and their spans, or a ValueError saying why ``text`` cannot be segmented
    (``markdown``: read as Markdown; ``format``: read as "rst", "html" or "numbered", the sentences' words without
    their markup; see :func:`~bpseg_pgm.text.split.sentence_spans`)."""
    if not isinstance(text, str):
        raise ValueError(f"text must be a str, got {type(text).__name__}")
    if not text:
        raise ValueError("text is empty")
    if not text.strip():
        raise ValueError("text contains only whitespace")
    check_unicode(text)
    format = None if lines else format
    spans = sentence_spans(text, lines=lines, markdown=markdown, format=format)
    if len(spans) < 2:
        unit = "line" if lines else "sentence"
        raise ValueError(f"found {len(spans)} {unit}(s); need at least 2 to segment")
    view = view_of(text, format)
    return [squash(view[a:b]) for a, b in spans], spans


def checked_estimator(n_segments: Any, params: Mapping[str, Any], n_units: int | None = None) -> Any:
    """``BPSeg(n_segments=n_segments, **params)`` with every parameter checked now, before anything is embedded:
    ``check_params(n_units)``, which checks ``n_segments`` against the ``n_units`` units too (a ValueError
    naming the first bad one; a keyword BPSeg does not take is a ValueError naming it, and the closest parameter
    name, not the constructor's TypeError). The estimator the caller then fits.

    A deprecation warning (``contiguous=``) is left to the fit, so that it is given once.
    """
    from bpseg_pgm.estimator import BPSeg  # here: importing the text layer does not load scikit-learn

    if not isinstance(params, Mapping):
        raise ValueError(f"BPSeg's parameters must be a dict, got {type(params).__name__}")
    names = [name for name in inspect.signature(BPSeg.__init__).parameters if name != "self"]
    unknown = [key for key in params if key not in names or key == "n_segments"]
    if unknown:
        key = unknown[0]
        if key == "n_segments":
            raise ValueError("n_segments is given twice: as n_segments and among BPSeg's parameters")
        close = difflib.get_close_matches(str(key), names, n=1)
        hint = f"; did you mean {close[0]!r}?" if close else ""
        raise ValueError(f"unknown parameter {key!r}: not a parameter of BPSeg ({', '.join(names)}){hint}")
    estimator = BPSeg(n_segments=n_segments, **params)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", FutureWarning)
        estimator.check_params(n_units)
    return estimator


def check_bpseg_params(n_segments: Any, params: Mapping[str, Any], n_units: int | None = None) -> None:
    """:func:`checked_estimator` for a caller that fits later, elsewhere (``chunk_texts``, ``prune``, the
    integrations): the same checks, the estimator dropped."""
    checked_estimator(n_segments, params, n_units)
