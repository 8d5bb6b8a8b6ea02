"""Keywords of groups of sentences: class-based TF-IDF (c-TF-IDF, as BERTopic labels its topics).

:func:`class_keywords` gives the top words of each class (one segment, or one run: all its sentences as one
document), leaving out stop words, fillers and transcription markers (:mod:`.stopwords`) and speaker labels
(:mod:`.speakers`). ``Segmentation.segment_keywords()`` and ``Segmentation.run_keywords()`` use them.
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
