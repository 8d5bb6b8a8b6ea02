"""Turn raw text into the list of sentences that BP-Seg segments.

Sentence boundaries come from ``nupunkt``, a pure-Python Punkt tokenizer that
ships its trained English model inside the wheel.  We use it rather than
``nltk.sent_tokenize`` because nltk needs a separate ``punkt`` data download
that fails on machines without internet, while nupunkt works offline with no
dependencies, handles abbreviations ("Dr.", "U.S.", "p.m.") and quotes well,
and is fast (20k-250k sentences/s here, depending on its caches; embedding
manages about 250/s).

nupunkt's default model was trained on legal and government text and lists
several hundred ordinary words as abbreviations ("walk", "day", "free", ...), so
"I decided to go for a walk. Suddenly, dark clouds appeared." (from the BP-Seg
paper's example) came out as one sentence.  We drop from its abbreviation list
every lowercase word of three or more letters that is a whole word of the
embedding model's English vocabulary, plus a few two-letter words ("so", "at"),
keeping real abbreviations ("Corp.", "Gen.", "Mass.", ...).  On 300 Choi
documents (Brown corpus text, naively detokenised) this raised exact sentence
matches from 93.7% to 94.7%; most remaining misses are fragments in the corpus.

Blank lines are treated as hard boundaries (a heading is never glued to the
next sentence), and whitespace inside a sentence is collapsed to single spaces
so that a sentence wrapped over several lines is the same sentence (and the
same embedding-cache key) as its one-line form.
"""

from __future__ import annotations

import functools
import re

import nupunkt

__all__ = ["split_sentences", "split_lines", "split_text"]

_BLANK_LINE = re.compile(r"\n[ \t\r\f\v]*\n")

# Real abbreviations that are also English words; they stay abbreviations.
_KEEP_ABBREVIATIONS = frozenset(
    """mr mrs ms dr prof inc corp ltd co jr sr st vs etc dept govt gen col capt lt sgt cpl rev hon
    brig adm gov sen rep reps pres supt lieut cmdr messrs esq maj est approx fig figs vol vols no nos
    jan feb mar apr jun jul aug sep sept oct nov dec mon tue tues wed thu thur thurs fri sat sun
    ave blvd rd mt ft assn bros univ ed eds cf pp ch sec secs art arts op cit ibid viz
    ala cal calif colo conn del fla ill ind kan kans mass mich minn miss mont neb nev okla ore penn
    tenn tex wash wis wyo""".split()
)

# Two-letter words are mostly real abbreviations ("oz", "ft", "pa"); these few are not.
_SHORT_WORDS = frozenset("ah am an at in me ok or so".split())


@functools.cache
def _tokenizer() -> nupunkt.PunktSentenceTokenizer:
    """nupunkt's default model minus the ordinary words it mistakes for abbreviations."""
    from bpseg_pgm.text.embeddings import default_model_path

    vocab = (default_model_path() / "vocab.txt").read_text("utf-8").split()
    words = {w for w in vocab if w.isalpha() and w.islower() and len(w) >= 3} - _KEEP_ABBREVIATIONS
    words |= _SHORT_WORDS
    tokenizer = nupunkt.load_default_model()
    for abbrev in tokenizer.abbreviations & words:
        tokenizer.remove_abbreviation(abbrev)
    return tokenizer


def _check_text(text: object) -> str:
    if not isinstance(text, str):
        raise ValueError(f"text must be a str, got {type(text).__name__}")
    return text


def _squash(s: str) -> str:
    return " ".join(s.split())


def split_sentences(text: str) -> list[str]:
    """Split prose into sentences (nupunkt), paragraph breaks being hard boundaries."""
    text = _check_text(text)
    sentences: list[str] = []
    for paragraph in _BLANK_LINE.split(text.replace("\r\n", "\n")):
        if paragraph.strip():
            sentences.extend(s for s in map(_squash, _tokenizer().tokenize(paragraph)) if s)
    return sentences


def split_lines(text: str) -> list[str]:
    """Pre-split mode: one sentence per line, blank lines dropped."""
    text = _check_text(text)
    return [s for s in map(_squash, text.splitlines()) if s]


def split_text(text: str, *, lines: bool = False) -> list[str]:
    """Split ``text`` with :func:`split_lines` if ``lines`` else :func:`split_sentences`."""
    return split_lines(text) if lines else split_sentences(text)
