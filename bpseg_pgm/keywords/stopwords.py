"""What is never a keyword, and how a text is cut into candidate keywords.

A candidate is a word of 2 to 25 characters with at least one letter, lower-cased, the text in NFC first and each
word keeping its combining marks. Transcription markers in braces (``{vocalsound}``) are removed first, and
acronyms spelled letter by letter ("L_C_D_") joined; then scikit-learn's English stop words, the fragments that
contractions leave and the fillers of speech (:data:`FILLER_WORDS`) are dropped. A run that holds characters of a
script written without spaces (Chinese, Japanese, Thai) is not a candidate, so such text gives no keywords rather
than a clause as one keyword.
"""

from __future__ import annotations

import functools
import re
import unicodedata

import regex

__all__ = ["FILLER_WORDS", "STOP_WORDS", "MARKER", "keyword_tokens"]  # noqa: F822 (STOP_WORDS: module __getattr__)

#: A transcription marker: a lower-case word in braces, as QMSum writes ``{vocalsound}``.
MARKER = re.compile(r"\{[a-z_]+\}")

#: Letters spelled out one by one, as QMSum transcribes them: "L_C_D_", "T_V_", "F_" (joined: "lcd", "tv", "f").
_SPELLED = re.compile(r"\b(?:[^\W\d_]_)+")

#: Candidate words: runs of 2 to 25 word characters, at least one of them a letter. Combining marks (category M)
#: belong to their word, which Python's ``re`` would cut ("भारत" into "भ" and "रत"): the ``regex`` module's pattern.
_TOKEN = regex.compile(r"(?<![\w\p{M}])(?=[\w\p{M}]*\p{L})[\w\p{M}]{2,25}(?![\w\p{M}])")

#: Characters of scripts written without spaces: Thai, Hiragana, Katakana, CJK ideographs.
_UNSPACED = re.compile("[\u0e00-\u0e7f\u3040-\u30ff\u3400-\u4dbf\u4e00-\u9fff\uf900-\ufaff]")

#: What contractions leave once split at the apostrophe: "don't" -> "don", "we'll" -> "ll".
_CONTRACTION_PARTS = frozenset(
    "don doesn didn isn aren wasn weren haven hasn hadn won wouldn couldn shouldn mustn needn ain ll ve re "
    "let im ive id youre theyre thats whats dont cant wont didnt doesnt isnt".split()
)

#: Fillers, back-channels and hedges of transcribed speech, which c-TF-IDF would otherwise rank high in
#: any topic where people talk a lot.
FILLER_WORDS = frozenset(
    "um umm uh uhh uhm uh huh hm hmm mm mmm mhm mm hmm ah oh eh er erm huh yeah yep yup yes ya nope okay ok "
    "alright right gonna wanna gotta kinda sorta like know think just mean actually really basically "
    "guess maybe sort kind thing things stuff lot lots got get getting going go say said says "
    "well yeah yes sure probably pretty little bit good great want need let look cause blah nuh does did doing "
    "done thought exactly certainly definitely absolutely true course sorry th".split()
)


@functools.lru_cache(maxsize=1)
def _stop_words() -> frozenset[str]:
    """Every word that is never a keyword: English stop words (scikit-learn's), contraction parts, fillers."""
    from sklearn.feature_extraction.text import ENGLISH_STOP_WORDS  # here: importing this module loads no sklearn

    return frozenset(ENGLISH_STOP_WORDS) | _CONTRACTION_PARTS | FILLER_WORDS


def __getattr__(name: str):
    # STOP_WORDS (every word that is never a keyword) is built on first use, with scikit-learn's stop words
    if name == "STOP_WORDS":
        return _stop_words()
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


def keyword_tokens(text: str) -> list[str]:
    """The candidate keywords of ``text`` in order, repeats kept: markers out, lower-cased, stop words out.

    The text is put in Unicode normal form NFC first, so a word typed with combining accents (NFD "café")
    and the same word precomposed are one keyword, and whole words are kept whatever their marks."""
    text = unicodedata.normalize("NFC", text)
    text = _SPELLED.sub(lambda m: m.group(0).replace("_", ""), MARKER.sub(" ", text)).lower()
    stop_words = _stop_words()
    return [w for w in _TOKEN.findall(text) if w not in stop_words and not _UNSPACED.search(w)]
