"""Each unit's words, counted: what the runs model's lexical evidence reads (:mod:`bpseg_pgm.runs.evidence`).

A word is a lower-cased run of ASCII letters, digits and underscores that starts with a letter at a word boundary
and has at least two characters, reduced to its Porter stem (nltk), as BayesSeg and TextTiling count them;
transcription markers in braces are not words, and scikit-learn's English stop words are dropped. The fillers of
speech ("um", "yeah") are kept on purpose, unlike in keywords: spread evenly through a meeting they temper the
evidence the content words' bursts give.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from functools import lru_cache
from typing import TYPE_CHECKING

from bpseg_pgm.keywords.stopwords import MARKER

if TYPE_CHECKING:
    import scipy.sparse as sp

__all__ = ["unit_word_counts", "word_stems"]

_WORD = re.compile(r"\b[a-z][a-z0-9_]+")


@lru_cache(maxsize=1)
def _stemmer():
    from nltk.stem import PorterStemmer

    return PorterStemmer()


@lru_cache(maxsize=1)
def _stop_words() -> frozenset[str]:
    from sklearn.feature_extraction.text import ENGLISH_STOP_WORDS  # here: importing this module loads no sklearn

    return ENGLISH_STOP_WORDS


@lru_cache(maxsize=200_000)
def _stem(word: str) -> str:
    return _stemmer().stem(word)


def word_stems(text: str) -> list[str]:
    """The stems of ``text``'s words (stop words and transcription markers left out), in order."""
    text = MARKER.sub(" ", text.lower())
    stop_words = _stop_words()
    return [_stem(t) for t in _WORD.findall(text) if t not in stop_words]


def unit_word_counts(units: Sequence[str]) -> sp.csr_matrix:
    """Sparse (n units, n stems) counts; a matrix with no column when no unit has a word left."""
    import scipy.sparse as sp
    from sklearn.feature_extraction.text import CountVectorizer

    units = list(units)
    try:
        return CountVectorizer(analyzer=word_stems).fit_transform(units).tocsr()
    except ValueError:  # scikit-learn: "empty vocabulary"
        return sp.csr_matrix((len(units), 0))
