"""Checks of a segmentation's dict before it is read back: one ValueError naming the field, nothing large made.

:meth:`~bpseg_pgm.types.segmentation.SegmentationResult.from_dict` reads a dict that may have been written by
hand, edited or damaged. :func:`check_segmentation_dict` checks it first, in plain Python over what the dict
already holds: the kinds of every field it reads, the labels as integers numbering the segments
0..m-1 in reading order with none empty, the segments as exactly the labels' sentences, the spans as ordered
offsets into the text, the beliefs' shape and values, and ``belief_columns`` between the segments and the
sentences (so the (n, k) beliefs rebuilt from it are never larger than the dict could be).
"""

from __future__ import annotations

import math
import numbers
from typing import Any

import numpy as np

__all__ = ["EVIDENCE", "STRUCTURES", "check_segmentation_dict"]

#: The values ``structure`` may hold (None too): what the estimator's structure decision can give.
STRUCTURES = ("runs", "topics", "run-topics")

#: The values ``evidence`` may hold (None too): what the runs can have been cut at.
EVIDENCE = ("headings", "paragraphs")

#: How far past [0, 1] a belief may lie (a marginal normalised in floating point).
_SLACK = 1e-9


def _is_int(x: Any) -> bool:
    return isinstance(x, numbers.Integral) and not isinstance(x, bool)


def _short(x: Any) -> str:
    text = repr(x)
    return text if len(text) <= 40 else text[:37] + "..."


def _items(d: dict, key: str, what: str) -> list:
    """``d[key]`` as a list (a list, tuple or 1-d array), or a ValueError naming ``key``."""
    value = d[key]
    if isinstance(value, np.ndarray):
        if value.ndim != 1:
            raise ValueError(f"{key} must be a list of {what}, got an array of shape {value.shape}")
        return value.tolist()
    if not isinstance(value, (list, tuple)):
        raise ValueError(f"{key} must be a list of {what}, got {type(value).__name__}")
    return list(value)


def _optional(d: dict, key: str, kinds: tuple, what: str) -> None:
    value = d.get(key)
    if value is not None and (not isinstance(value, kinds) or (bool not in kinds and isinstance(value, bool))):
        raise ValueError(f"{key} must be {what} or null, got {_short(value)}")


def _choice(d: dict, key: str, allowed: tuple) -> None:
    value = d.get(key)
    if value is not None and value not in allowed:
        raise ValueError(f"{key} must be one of {', '.join(allowed)} or null, got {_short(value)}")


def _numbers(d: dict, key: str, n: int, what: str, unit: bool) -> None:
    """``d[key]``: n finite numbers (in [0, 1] when ``unit``)."""
    values = _items(d, key, "numbers")
    if len(values) != n:
        raise ValueError(f"{len(values)} {what} for {n} sentences")
    for i, x in enumerate(values):
        if not isinstance(x, numbers.Real) or isinstance(x, bool) or not math.isfinite(x):
            raise ValueError(f"{key}[{i}] must be a finite number, got {_short(x)}")
        if unit and not -_SLACK <= x <= 1.0 + _SLACK:
            raise ValueError(f"{key}[{i}] must lie in [0, 1], got {x!r}")


def _labels(d: dict, n: int) -> int:
    """Check ``labels``: n integers numbering the segments 0..m-1 in reading order, none empty. Returns m."""
    labels = _items(d, "labels", "integers")
    if len(labels) != n:
        raise ValueError(f"{len(labels)} labels for {n} sentences")
    m = 0
    for i, x in enumerate(labels):
        if not _is_int(x):
            raise ValueError(f"labels[{i}] must be an integer, got {_short(x)}")
        if not 0 <= x <= m:  # a new segment takes the next number: segments are numbered in reading order
            if x < 0:
                raise ValueError(f"labels must be >= 0, got labels[{i}] = {x}")
            raise ValueError(
                f"labels must number the segments 0.. in order of their first sentence: labels[{i}] is {_short(x)} "
                f"where the next new segment is {m}"
            )
        m = max(m, int(x) + 1)
    return m


def _segments(d: dict, m: int) -> None:
    """Check ``segments`` (when given): segment j lists exactly the sentences labelled j, in reading order."""
    if d.get("segments") is None:
        return
    segments = _items(d, "segments", "lists of sentence indices")
    if len(segments) != m:
        raise ValueError(f"{len(segments)} segments for the labels' {m}")
    expected: list[list[int]] = [[] for _ in range(m)]
    for i, x in enumerate(d["labels"]):
        expected[int(x)].append(i)
    for j, (seg, want) in enumerate(zip(segments, expected)):
        if not isinstance(seg, (list, tuple)) or not all(_is_int(i) for i in seg):
            raise ValueError(f"segments[{j}] must be a list of sentence indices, got {_short(seg)}")
        if list(seg) != want:
            raise ValueError(f"segments[{j}] disagrees with the labels (the sentences labelled {j})")


def _spans(d: dict, n: int) -> None:
    """Check ``text`` and ``spans``: n pairs of offsets 0 <= start <= end <= len(text), the starts in order."""
    text = d["text"]
    if not isinstance(text, str):
        raise ValueError(f"text must be a string, got {type(text).__name__}")
    spans = _items(d, "spans", "[start, end] pairs")
    if len(spans) != n:
        raise ValueError(f"{len(spans)} spans for {n} sentences")
    previous = 0
    for i, span in enumerate(spans):
        if not isinstance(span, (list, tuple)) or len(span) != 2 or not all(_is_int(x) for x in span):
            raise ValueError(f"spans[{i}] must be a [start, end] pair of integers, got {_short(span)}")
        a, b = span
        if not previous <= a <= b <= len(text):
            raise ValueError(
                f"spans[{i}] = [{a}, {b}] must satisfy {previous} <= start <= end <= {len(text)} (the text's length; "
                "spans in reading order)"
            )
        previous = a


def _beliefs(d: dict, n: int, m: int) -> None:
    """Check the beliefs: the full (n, k) matrix, or the raw beliefs / confidences and ``belief_columns``."""
    columns = d.get("belief_columns")
    most = max(n, 1)  # no fit has more columns than sentences
    if columns is not None and (not _is_int(columns) or not max(m, 1) <= columns <= most):
        raise ValueError(
            f"belief_columns must be an integer from {max(m, 1)} (the segments) to {most} (the sentences), "
            f"got {_short(columns)}"
        )
    if d.get("beliefs") is not None:
        rows = _items(d, "beliefs", "rows")
        if len(rows) != n:
            raise ValueError(f"beliefs must have one row per sentence ({n}), got {len(rows)} rows")
        k = len(rows[0]) if rows and isinstance(rows[0], (list, tuple)) else None
        for i, row in enumerate(rows):
            if not isinstance(row, (list, tuple)) or len(row) != k:
                raise ValueError(f"beliefs[{i}] must be a row of {k} numbers like the first, got {_short(row)}")
        if rows and not max(m, 1) <= k <= most:
            raise ValueError(f"beliefs must have {max(m, 1)} (the segments) to {most} (the sentences) columns, got {k}")
        if columns is not None and rows and columns != k:
            raise ValueError(f"belief_columns ({columns}) disagrees with the beliefs' {k} columns")
        for i, row in enumerate(rows):
            for x in row:
                if not isinstance(x, numbers.Real) or isinstance(x, bool) or not -_SLACK <= x <= 1.0 + _SLACK:
                    raise ValueError(f"beliefs[{i}] must hold numbers in [0, 1], got {_short(x)}")
    for key, what in (("belief", "beliefs"), ("confidence", "confidences")):
        if d.get(key) is not None:
            _numbers(d, key, n, what, unit=True)


def check_segmentation_dict(d: Any) -> None:
    """Check the dict :meth:`~bpseg_pgm.types.segmentation.SegmentationResult.from_dict` reads, before it reads it.

    Parameters
    ----------
    d : dict
        What :meth:`~bpseg_pgm.types.segmentation.SegmentationResult.to_dict` wrote (or its JSON, parsed).

    Raises
    ------
    ValueError
        The first field that does not fit, named: a missing key, a value of the wrong kind (``lines`` not a
        boolean, a label that is not an integer), labels that do not number the segments 0..m-1 in order of
        their first sentence, segments that disagree with the labels, spans out of order or outside the text,
        beliefs of the wrong shape or outside [0, 1], ``belief_columns`` outside m..n.
    """
    if not isinstance(d, dict):
        raise ValueError(f"from_dict needs a dict, got {type(d).__name__}")
    missing = [key for key in ("sentences", "text", "spans", "labels") if key not in d]
    if missing:
        raise ValueError(f"not a segmentation's dict: no {', '.join(missing)}")
    sentences = _items(d, "sentences", "strings")
    for i, s in enumerate(sentences):
        if not isinstance(s, str):
            raise ValueError(f"sentences[{i}] must be a string, got {type(s).__name__}")
    n = len(sentences)
    m = _labels(d, n)
    _segments(d, m)
    _spans(d, n)
    _beliefs(d, n, m)
    _optional(d, "lines", (bool,), "true or false")
    _optional(d, "converged", (bool,), "true or false")
    _optional(d, "markdown", (bool,), "true or false")
    _optional(d, "n_iter", (numbers.Integral,), "an integer")
    _optional(d, "model", (str,), "a string")
    _optional(d, "params", (dict,), "an object")
    _optional(d, "granularity", (dict,), "an object")
    _choice(d, "structure", STRUCTURES)
    _choice(d, "evidence", EVIDENCE)
