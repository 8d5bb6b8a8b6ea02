"""The c-TF-IDF weighting as a scikit-learn transformer (:class:`ClassTfidfTransformer`), as BERTopic has it.

Its own module so that :mod:`bpseg_pgm.keywords.ctfidf` imports without scikit-learn: this one loads it.
"""

from __future__ import annotations

import numpy as np
import scipy.sparse as sp
from sklearn.base import BaseEstimator, TransformerMixin
from sklearn.preprocessing import normalize

__all__ = ["ClassTfidfTransformer"]


def _float_csr(X) -> sp.csr_matrix:
    """A float copy of ``X`` with sorted indices, sharing no array with ``X``.

    Not ``csr_matrix(X, dtype=float)`` alone: that shares ``X``'s index arrays (not its data), and ``.sum()`` then
    sorts the indices in place, scrambling ``X`` (scipy 1.17, on CountVectorizer's unsorted output).
    """
    X = sp.csr_matrix(X, dtype=np.float64, copy=True)
    X.sort_indices()
    return X


class ClassTfidfTransformer(TransformerMixin, BaseEstimator):
    """c-TF-IDF weights from a (classes x words) count matrix.

    ``fit`` learns ``idf_[w] = log(1 + A / f_w)`` (``f_w`` the word's count over all classes, ``A`` the mean number of
    words per class); ``transform`` gives each class's word frequencies times ``idf_``, as a sparse matrix.
    """

    def fit(self, X, y=None):
        X = _float_csr(X)
        f = np.asarray(X.sum(axis=0)).ravel()
        mean_words = float(X.sum()) / max(X.shape[0], 1)
        with np.errstate(divide="ignore"):
            self.idf_ = np.where(f > 0, np.log1p(mean_words / np.where(f > 0, f, 1.0)), 0.0)
        return self

    def transform(self, X):
        X = normalize(_float_csr(X), norm="l1", axis=1)
        return X @ sp.diags(self.idf_)
