"""``Units``: a document as the model sees it, built in one step from its sentences: embeddings, unit weights
(:func:`~bpseg_pgm.features.weights.unit_weights`) and word counts (:func:`~bpseg_pgm.features.words.unit_word_counts`);
``BPSeg().fit(units)`` fits the model ``segment_sentences`` fits."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

import numpy as np

from bpseg_pgm.policy import DEFAULT_POLICY, Policy
from bpseg_pgm.utils.validation import check_str_list

from .weights import unit_weights
from .words import unit_word_counts

__all__ = ["Units"]


@dataclass(frozen=True, eq=False)
class Units:
    """A document's units: their embeddings and what the text adds to them.

    Build it with :meth:`from_sentences`; ``BPSeg().fit(units)`` uses all of it.

    Parameters
    ----------
    embeddings : array of shape (n, d)
        One row per unit (any scale: the estimator normalises the rows).
    weights : array of shape (n,), optional
        How much each unit counts (None: every unit counts 1).
    word_counts : array-like or sparse matrix of shape (n, V), optional
        Each unit's word counts (None: the model reads the embeddings alone); a list of rows is read as an array.
    sentences : list of str, optional
        The units' text, kept for reference.
    paragraphs : array of int of shape (n,), optional
        Each unit's paragraph number, non-decreasing in reading order (None: no paragraphs). A document of at least
        ``Policy.paragraph_min`` paragraphs has runs that start only where a paragraph does. A transcript's turns, a
        list's items or any grouping of consecutive units the caller knows can be given here.
    headings : array of int of shape (n,), optional
        Each unit's heading level (1 for ``#``, 2 for ``##``, ...; 0: not a heading). With
        ``n_segments="auto"`` the segments are the sections of the top heading level; given k, runs start at
        headings first. See :mod:`bpseg_pgm.decisions.layout`.
    """

    embeddings: np.ndarray
    weights: np.ndarray | None = None
    word_counts: Any = None
    sentences: list[str] | None = field(default=None, repr=False)
    paragraphs: np.ndarray | None = None
    headings: np.ndarray | None = None

    def __post_init__(self):
        X = np.asarray(self.embeddings)
        if X.ndim != 2:
            raise ValueError(f"embeddings must be a 2-d array (units x dimensions), got shape {X.shape}")
        n = X.shape[0]
        if self.weights is not None and np.shape(self.weights) != (n,):
            raise ValueError(f"weights must have one value per unit ({n}), got shape {np.shape(self.weights)}")
        counts = self.word_counts  # a sparse matrix, kept as it is, or any array-like of numbers
        if counts is not None:
            import scipy.sparse as sp

            if not sp.issparse(counts):
                try:
                    counts = np.asarray(counts)
                except ValueError:  # ragged rows
                    raise ValueError(
                        "word_counts must be a 2-d array of numbers (units x words): its rows differ in length"
                    )
                if counts.dtype == object or not (np.issubdtype(counts.dtype, np.number) or counts.dtype == bool):
                    raise ValueError(
                        f"word_counts must be a 2-d array of numbers (units x words), got {counts.dtype} values"
                    )
            if counts.ndim != 2 or counts.shape[0] != n:
                raise ValueError(f"word_counts must have one row per unit ({n}), got shape {counts.shape}")
            object.__setattr__(self, "word_counts", counts)
        if self.sentences is not None and len(self.sentences) != n:
            raise ValueError(f"sentences must have one entry per unit ({n}), got {len(self.sentences)}")
        if self.paragraphs is not None:
            p = _int_array(self.paragraphs, "paragraphs", n)
            if np.any(np.diff(p) < 0):
                raise ValueError("paragraphs must be non-decreasing (each unit's paragraph number in reading order)")
            object.__setattr__(self, "paragraphs", p)
        if self.headings is not None:
            h = _int_array(self.headings, "headings", n)
            if np.any(h < 0):
                raise ValueError("headings must be heading levels >= 0 (0: not a heading)")
            object.__setattr__(self, "headings", h)

    def __len__(self) -> int:
        return int(np.shape(self.embeddings)[0])

    @classmethod
    def from_sentences(
        cls,
        sentences: Sequence[str],
        embedder: Any = None,
        *,
        embeddings: Any = None,
        words: bool = True,
        paragraphs: Any = None,
        headings: Any = None,
        policy: Policy | None = None,
    ) -> Units:
        """Units built from their text: embeddings (``embedder.encode``; None: the default
        :class:`~bpseg_pgm.embeddings.Embedder`, or ``embeddings`` given), unit weights, and word counts
        (``words=False``: none, as for the topic model, which does not read them). ``paragraphs`` and
        ``headings`` (optional, one per unit) are the document's structure, as the class describes them
        (``segment_text`` finds them in the text: :func:`~bpseg_pgm.text.layout.unit_layout`). ``policy``: its
        ``word_scale`` sets the unit weights (None: the shipped :data:`~bpseg_pgm.policy.DEFAULT_POLICY`).

        Every unit given is a unit of the model, an empty one too (``segment_sentences`` instead keeps empty
        units outside the model and gives them their neighbour's segment; without empty units
        ``BPSeg().fit(Units.from_sentences(s))`` fits what ``segment_sentences(s)`` fits).
        """
        sentences = list(
            check_str_list(
                sentences,
                "sentences",
                "sentence",
                any_iterable=True,
                unicode=True,
                not_a_list="sentences must be a list of str",
                not_a_str="{name} is {type}, not str",
            )
        )
        if embeddings is None:
            if embedder is None:
                from bpseg_pgm.embeddings import Embedder

                embedder = Embedder()
            embeddings = embedder.encode(sentences)
        counts = unit_word_counts(sentences) if words else None
        weights = unit_weights(sentences, (DEFAULT_POLICY if policy is None else policy).word_scale)
        return cls(np.asarray(embeddings), weights, counts, sentences, paragraphs, headings)


def _int_array(values: Any, name: str, n: int) -> np.ndarray:
    """``values`` as a 1-d int64 array of n entries, or a ValueError naming ``name``."""
    a = np.asarray(values)
    if a.shape != (n,):
        raise ValueError(f"{name} must have one value per unit ({n}), got shape {a.shape}")
    if a.dtype == bool or not np.issubdtype(a.dtype, np.integer):
        raise ValueError(f"{name} must be integers, got {a.dtype}")
    return a.astype(np.int64)
