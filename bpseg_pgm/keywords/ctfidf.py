"""Class-based TF-IDF (c-TF-IDF, as BERTopic labels its topics): the words that set one class of sentences apart.

All the sentences of a class are joined into one document, the candidate words counted per class, each class's
counts turned into frequencies, and each word weighted by ``log(1 + A / f)`` (``f`` its count over all classes,
``A`` the mean number of words per class). The top words of each class, best first, are its keywords; ties are
broken alphabetically.
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np

from bpseg_pgm.keywords.stopwords import keyword_tokens

__all__ = ["DEFAULT_TOP_N", "check_top_n", "class_keywords"]

#: Keywords per class unless asked otherwise.
DEFAULT_TOP_N = 5


def __getattr__(name: str):
    # ClassTfidfTransformer is a scikit-learn estimator: its module (and scikit-learn) loads on first use
    if name == "ClassTfidfTransformer":
        from bpseg_pgm.keywords.transformer import ClassTfidfTransformer

        return ClassTfidfTransformer
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


def check_top_n(top_n: object) -> int:
    """``top_n`` as an int, or a ValueError unless it is an int >= 0 (not a bool)."""
    if isinstance(top_n, bool) or not isinstance(top_n, (int, np.integer)) or top_n < 0:
        raise ValueError(f"top_n must be an int >= 0, got {top_n!r}")
    return int(top_n)


def class_keywords(documents: Sequence[str], top_n: int = DEFAULT_TOP_N) -> list[list[str]]:
    """The ``top_n`` keywords of each class document, best first (fewer when a class has fewer words).

    ``documents[c]`` is the text of class ``c`` (its sentences joined).  A class with no candidate word
    (only stop words, numbers, markers, or text without spaces) gets ``[]``; so does every class when
    no document has any.  ``top_n`` is an int >= 0 (a ValueError otherwise).
    """
    top_n = check_top_n(top_n)
    documents = list(documents)
    if top_n == 0 or not documents:
        return [[] for _ in documents]
    from sklearn.feature_extraction.text import CountVectorizer

    from bpseg_pgm.keywords.transformer import ClassTfidfTransformer

    vectorizer = CountVectorizer(analyzer=keyword_tokens)
    try:
        counts = vectorizer.fit_transform(documents)
    except ValueError:  # no candidate word in any document: sklearn's "empty vocabulary"
        return [[] for _ in documents]
    words = vectorizer.get_feature_names_out()  # sorted: ties below fall back to alphabetical order
    scores = ClassTfidfTransformer().fit_transform(counts).tocsr()
    out = []
    for c in range(scores.shape[0]):
        row = scores.getrow(c)
        cols, vals = row.indices, row.data
        keep = vals > 0
        cols, vals = cols[keep], vals[keep]
        order = np.lexsort((cols, -vals))[:top_n]  # by score, then by word (columns are alphabetical)
        out.append([str(words[i]) for i in cols[order]])
    return out
