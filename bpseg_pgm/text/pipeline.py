"""Text in, segments out: split, embed, run BP-Seg, and present the result.

:func:`segment_text` and :func:`segment_sentences` glue the sentence splitter,
the cached :class:`~bpseg_pgm.text.embeddings.Embedder` and the core
:class:`~bpseg_pgm.BPSeg` estimator together, checking the input *before* the
slow embedding step so that bad input fails fast with one clear ``ValueError``.
The result is a :class:`Segmentation` whose labels are renumbered in reading
order (segment 0 is the one the first sentence belongs to), which makes outputs
comparable across runs and easy to read.
"""

from __future__ import annotations

import json
import numbers
import os
from dataclasses import dataclass, field
from typing import Any, Iterable

import numpy as np

from bpseg_pgm._validation import check_unicode
from bpseg_pgm.text.embeddings import Embedder
from bpseg_pgm.text.split import split_text

__all__ = ["Segmentation", "segment_text", "segment_sentences"]

DEFAULT_N_SEGMENTS = "auto"  # as in BPSeg: let the estimator choose k


@dataclass
class Segmentation:
    """A segmentation of ``sentences`` into possibly non-contiguous segments.

    ``labels[i]`` is the segment of sentence ``i``; segments are numbered
    0..m-1 in order of their first sentence.  ``segments[j]`` lists the sentence
    indices of segment ``j`` in reading order.  ``beliefs`` is the (n, k) matrix
    of BP beliefs with columns permuted to match the renumbered labels (columns
    of segments that ended up empty come last), so ``beliefs[i, labels[i]]`` is
    the belief of sentence ``i`` in its own segment.
    """

    sentences: list[str]
    labels: np.ndarray
    segments: list[list[int]]
    beliefs: np.ndarray
    params: dict[str, Any] = field(default_factory=dict)
    n_iter: int | None = None
    converged: bool | None = None
    model: str | None = None

    @property
    def n_segments(self) -> int:
        """Number of non-empty segments (may be fewer than the k asked for)."""
        return len(self.segments)

    def confidence(self) -> np.ndarray:
        """Belief of each sentence in its assigned segment, shape (n,)."""
        return self.beliefs[np.arange(len(self.sentences)), self.labels]

    def to_dict(self) -> dict[str, Any]:
        """Plain JSON-ready dict (lists, ints, floats, str)."""
        return {
            "sentences": list(self.sentences),
            "labels": [int(x) for x in self.labels],
            "segments": [[int(i) for i in seg] for seg in self.segments],
            "n_segments": self.n_segments,
            "beliefs": np.asarray(self.beliefs, dtype=float).tolist(),
            "params": {k: _jsonable(v) for k, v in self.params.items()},
            "n_iter": None if self.n_iter is None else int(self.n_iter),
            "converged": None if self.converged is None else bool(self.converged),
            "model": self.model,
        }

    def to_text(self) -> str:
        """Human-readable listing: each segment (numbered from 1) with its numbered sentences."""
        width = len(str(len(self.sentences)))
        blocks = []
        for j, idx in enumerate(self.segments):
            head = f"[Segment {j + 1}] sentences " + ", ".join(str(i + 1) for i in idx)
            body = [f"  {i + 1:>{width}}  {self.sentences[i]}" for i in idx]
            blocks.append("\n".join([head, *body]))
        return "\n\n".join(blocks) + "\n"

    def to_json(self, indent: int | None = 2) -> str:
        """The :meth:`to_dict` content as a JSON string (UTF-8 characters kept).

        NaN or inf anywhere is a ValueError: ``json.dumps`` would write them as bare
        ``NaN``/``Infinity``, which is not JSON and breaks every strict reader.
        """
        try:
            return json.dumps(self.to_dict(), indent=indent, ensure_ascii=False, allow_nan=False)
        except ValueError:
            raise ValueError("the segmentation holds NaN or inf values, which JSON cannot represent") from None


def _jsonable(value: Any) -> Any:
    if value is None or isinstance(value, (bool, str)):
        return value
    if isinstance(value, numbers.Integral):
        return int(value)
    if isinstance(value, numbers.Real):
        return float(value)
    return repr(value)


def _renumber(raw: np.ndarray, beliefs: np.ndarray) -> tuple[np.ndarray, list[list[int]], np.ndarray]:
    """Relabel segments by first appearance; permute belief columns to match."""
    raw = np.asarray(raw, dtype=np.int64)
    order = list(dict.fromkeys(raw.tolist()))
    n_cols = beliefs.shape[1]
    used = set(order)
    order += [c for c in range(n_cols) if c not in used]
    new_of_old = np.empty(n_cols, dtype=np.int64)
    new_of_old[order] = np.arange(n_cols)
    labels = new_of_old[raw]
    segments = [np.flatnonzero(labels == j).tolist() for j in range(len(used))]
    return labels, segments, beliefs[:, order]


def _check_sentences(sentences: Any) -> list[str]:
    if isinstance(sentences, (str, bytes)) or not isinstance(sentences, Iterable):
        raise ValueError("sentences must be a list of str (use segment_text for raw text)")
    sentences = list(sentences)
    for i, s in enumerate(sentences):
        if not isinstance(s, str):
            raise ValueError(f"sentence {i} is {type(s).__name__}, not str")
        check_unicode(s, f"sentence {i}")
        if not s.strip():
            raise ValueError(f"sentence {i} is empty")
    if len(sentences) < 2:
        raise ValueError(f"need at least 2 sentences to segment, got {len(sentences)}")
    return sentences


def _check_n_segments(n_segments: Any, n: int, init: Any) -> None:
    if init == "all" or (isinstance(n_segments, str) and n_segments == "auto"):
        return  # k = n, or chosen by the estimator
    if isinstance(n_segments, bool) or not isinstance(n_segments, numbers.Integral) or n_segments < 1:
        raise ValueError(f"n_segments must be a positive int or 'auto', got {n_segments!r}")
    if n_segments > n:
        raise ValueError(f"n_segments={n_segments} is larger than the number of sentences ({n})")


def segment_sentences(
    sentences: Iterable[str],
    n_segments: int | str = DEFAULT_N_SEGMENTS,
    *,
    model: str | os.PathLike | None = None,
    embedder: Embedder | None = None,
    cache_dir: str | os.PathLike | None = None,
    show_progress: bool | None = None,
    **bpseg_params: Any,
) -> Segmentation:
    """Segment already-split sentences with BP-Seg.

    ``model``/``cache_dir``/``show_progress`` configure a new :class:`Embedder`;
    pass ``embedder`` instead to reuse one (and its loaded model) across calls.
    ``n_segments`` is k, or "auto" to let BP-Seg choose.  Remaining keyword
    arguments (``potentials``, ``lam``, ``sigma``, ``engine``, ``init``, ``em_rounds``,
    ``max_iter``, ``tol``, ``damping``, ``random_state``, ...) go to :class:`~bpseg_pgm.BPSeg`.
    """
    from bpseg_pgm import BPSeg

    sentences = _check_sentences(sentences)
    _check_n_segments(n_segments, len(sentences), bpseg_params.get("init"))
    if embedder is not None and (model is not None or cache_dir is not None):
        raise ValueError("pass either an embedder or model/cache_dir, not both")
    if embedder is None:
        embedder = Embedder(model, cache_dir=cache_dir, show_progress=show_progress)
    estimator = BPSeg(n_segments=n_segments, **bpseg_params).fit(embedder.encode(sentences))
    if not np.all(np.isfinite(estimator.beliefs_)):  # every engine should refuse first; never pass NaN on
        raise ValueError(
            f"belief propagation (engine {estimator.engine!r}) gave NaN or inf beliefs: the potentials over- or "
            "underflowed; use a smaller lam or another engine"
        )
    labels, segments, beliefs = _renumber(estimator.labels_, np.asarray(estimator.beliefs_, dtype=float))
    return Segmentation(
        sentences=sentences,
        labels=labels,
        segments=segments,
        beliefs=beliefs,
        params=estimator.get_params(),
        n_iter=estimator.n_iter_,
        converged=estimator.converged_,
        model=embedder.model_name,
    )


def segment_text(
    text: str,
    n_segments: int | str = DEFAULT_N_SEGMENTS,
    *,
    model: str | os.PathLike | None = None,
    lines: bool = False,
    embedder: Embedder | None = None,
    cache_dir: str | os.PathLike | None = None,
    show_progress: bool | None = None,
    **bpseg_params: Any,
) -> Segmentation:
    """Split ``text`` into sentences (or lines, if ``lines``) and segment them with BP-Seg."""
    if not isinstance(text, str):
        raise ValueError(f"text must be a str, got {type(text).__name__}")
    if not text:
        raise ValueError("text is empty")
    if not text.strip():
        raise ValueError("text contains only whitespace")
    check_unicode(text)
    sentences = split_text(text, lines=lines)
    if len(sentences) < 2:
        unit = "line" if lines else "sentence"
        raise ValueError(f"found {len(sentences)} {unit}(s); need at least 2 to segment")
    return segment_sentences(
        sentences, n_segments, model=model, embedder=embedder, cache_dir=cache_dir,
        show_progress=show_progress, **bpseg_params,
    )
