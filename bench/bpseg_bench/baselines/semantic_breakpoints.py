"""LangChain's SemanticChunker rule on given sentence embeddings: cut at the largest neighbour distances.

``langchain_experimental.text_splitter.SemanticChunker`` (its default ``breakpoint_threshold_type=
"percentile"``, ``breakpoint_threshold_amount=95``) splits a text into sentences, embeds each
sentence *together with a buffer of one neighbour on each side* (``buffer_size=1``: the text of
sentences i-1, i, i+1 joined), takes the cosine distance ``1 - cos`` between the embeddings of
consecutive sentences, and starts a new chunk after sentence i wherever distance i is strictly
above the 95th percentile of all the distances (``numpy.percentile``, linear interpolation).

Here the sentence embeddings are given and no text is embedded again, so the distances are taken
between the sentences' own embeddings, without the buffer (the buffer would need one more encoder
pass per sentence over three sentences' text). Everything after the embeddings follows LangChain:
the same distance, percentile and strict comparison. A zero embedding has similarity 0 to
everything (distance 1), as sklearn's ``cosine_similarity`` gives. With the percentile at 95 about
one gap in twenty becomes a boundary whatever the document, so the number of segments grows with
its length (about n / 20 + 1).
"""

from __future__ import annotations

import numpy as np

from bpseg_bench.baselines._validation import check_embeddings

__all__ = ["DEFAULT_PERCENTILE", "SemanticBreakpoints", "neighbour_distances"]

#: LangChain's default ``breakpoint_threshold_amount`` for the "percentile" threshold.
DEFAULT_PERCENTILE = 95.0


def neighbour_distances(X: np.ndarray) -> np.ndarray:
    """Cosine distance ``1 - cos(x_i, x_{i+1})`` for each of the n-1 gaps (a zero row: distance 1)."""
    norms = np.linalg.norm(X, axis=1, keepdims=True)
    unit = np.divide(X, norms, out=np.zeros_like(X), where=norms > 0)
    similarity = np.clip(np.einsum("ij,ij->i", unit[:-1], unit[1:]), -1.0, 1.0)
    return 1.0 - similarity


class SemanticBreakpoints:
    """Cut where the cosine distance between neighbouring sentences exceeds a percentile of those distances.

    Parameters
    ----------
    percentile : float, default 95
        The threshold is this percentile (0 < p <= 100) of the n-1 neighbour distances; a gap
        whose distance is strictly above it is a boundary (LangChain's "percentile" rule).

    Attributes
    ----------
    labels_ : ndarray of int64, shape (n,)
        Contiguous segment labels 0, 0, ..., 1, 1, ...
    distances_ : ndarray, shape (n-1,)
        The cosine distance across each gap.
    threshold_ : float
        The percentile of the distances (nan for a one-sentence document).
    boundaries_ : ndarray of bool, shape (n-1,)
        True where a new segment starts after the gap's left sentence.
    """

    def __init__(self, percentile: float = DEFAULT_PERCENTILE):
        self.percentile = percentile

    def fit(self, X, y=None) -> SemanticBreakpoints:
        """Segment the rows of ``X`` (sentence embeddings in document order); returns self."""
        X = check_embeddings(X)
        p = self.percentile
        if (
            isinstance(p, bool)
            or not isinstance(p, (int, float, np.integer, np.floating))
            or not np.isfinite(p)
            or not 0 < p <= 100
        ):
            raise ValueError(f"percentile must be a number in (0, 100], got {p!r}")
        self.distances_ = neighbour_distances(X)
        if self.distances_.size:
            self.threshold_ = float(np.percentile(self.distances_, float(p)))
            self.boundaries_ = self.distances_ > self.threshold_
        else:
            self.threshold_ = float("nan")
            self.boundaries_ = np.zeros(0, dtype=bool)
        self.labels_ = np.concatenate([[0], np.cumsum(self.boundaries_)]).astype(np.int64)
        return self

    def fit_predict(self, X, y=None) -> np.ndarray:
        """``fit(X)`` and return ``labels_``."""
        return self.fit(X).labels_
