"""Keywords of groups of sentences: class-based TF-IDF (c-TF-IDF, as BERTopic labels its topics).

* :mod:`.stopwords`: the words and transcription markers that are never keywords (English stop words,
  speech fillers such as "um" and "yeah", QMSum markers such as ``{vocalsound}``) and the tokenizer;
* :mod:`.speakers`: the speaker labels of a transcript ("Anna: ..."), removed before the words are counted;
* :mod:`.ctfidf`: :func:`class_keywords`, the top words of each class (a class is one topic, or one
  contiguous segment: all its sentences as one document);
* :mod:`.transformer`: :class:`ClassTfidfTransformer`, the c-TF-IDF weights as a scikit-learn transformer.

``Segmentation.topic_keywords()`` and ``Segmentation.contiguous_keywords()`` use them.
"""

from bpseg_pgm.keywords.ctfidf import DEFAULT_TOP_N, check_top_n, class_keywords
from bpseg_pgm.keywords.speakers import SPEAKER_LABEL, without_speakers
from bpseg_pgm.keywords.stopwords import FILLER_WORDS, keyword_tokens

__all__ = [
    "DEFAULT_TOP_N",
    "ClassTfidfTransformer",
    "check_top_n",
    "class_keywords",
    "FILLER_WORDS",
    "STOP_WORDS",
    "keyword_tokens",
    "SPEAKER_LABEL",
    "without_speakers",
]


def __getattr__(name: str):
    # loaded on first use, with scikit-learn: importing the keywords does not load it
    if name == "ClassTfidfTransformer":
        from bpseg_pgm.keywords.transformer import ClassTfidfTransformer

        return ClassTfidfTransformer
    if name == "STOP_WORDS":
        from bpseg_pgm.keywords import stopwords

        return stopwords.STOP_WORDS
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
