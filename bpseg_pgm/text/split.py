"""Turn raw text into the list of sentences that BP-Seg segments, with their character spans.

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

nupunkt (0.7 and later) never ends a sentence at a prenominal title before a
capitalised word ("Mr. Smith", "Gen. Lee"); we add the titles and the like that
its list lacks ("St. John", "Lt. Smith", "Fr. Brown", "Mt. Everest", "Roe vs.
Wade", "cf. Rapoport"), which it cut when the name that follows is a frequent
sentence starter ("John") or when it did not know the abbreviation at all ("Lt.").
The price: a street at the end of a sentence ("down Main St. The shops") no longer
ends it; on Choi's four sets "St." ends no sentence and 16 documents had a
"St. John" or "St. Mary" cut in two.

Punkt only knows the Latin sentence ends ``. ! ?``.  Text of other scripts is
handed, inside each of Punkt's sentences, to a library that knows them; each is
imported only when a sentence has such text, so importing this module costs nothing more:

* the CJK full stop, exclamation and question marks ``。 ｡ ！ ？`` and the
  Devanagari danda ``। ॥`` (Chinese, Japanese, Hindi...): `sentencex
  <https://pypi.org/project/sentencex/>`_ (Wikimedia's segmenter, compiled,
  no dependencies), which does not end a sentence inside a quotation
  (``“什么清白？我前天亲眼见你偷了何家的书，吊着打。”`` and
  ``「仕方の無いやつじゃ。おまえには、わしの孤独がわからぬ。」`` are one sentence each).
  We keep only its cuts at those marks, moved past the closing quotes and
  brackets that follow (Latin ``. ! ?`` stay Punkt's decision), show it the
  quote pairs it does not know (``『』 ｢｣ 【】 〈〉 〔〕 ［］``) as ones it knows,
  and give it at most about a thousand characters at a time, because it is
  quadratic on text without spaces.
* Thai, which ends a sentence with a space (and uses spaces inside sentences
  too): `PyThaiNLP <https://pypi.org/project/pythainlp/>`_'s CRFCut model
  (``sent_tokenize(engine="crfcut")``, shipped in its wheel, run by
  python-crfsuite); we keep its cuts at spaces next to Thai letters.  A
  period after Thai letters marks an abbreviation ("ดร. ป๋วย", "พ.ศ. 2477"),
  so Punkt's sentence that ends at one is joined to the next.

Other scripts whose sentence ends are none of these need one sentence per line
(``lines=True``, ``--lines``).

Blank lines are treated as hard boundaries (a heading is never glued to the
next sentence).  Every sentence is found as a span ``(start, end)`` of the
original text, trimmed of surrounding whitespace (:func:`sentence_spans`), so
``text[start:end]`` is the sentence exactly as written; the sentence *strings*
(:func:`split_sentences`) collapse the whitespace inside to single spaces, so that
a sentence wrapped over several lines is the same sentence (and the same
embedding-cache key) as its one-line form.
"""

from __future__ import annotations

import bisect
import functools
import re

import nupunkt

from bpseg_pgm.chunks.markdown import front_matter_end, image_spans, inline_code_spans, markdown_blocks
from bpseg_pgm.structure.detect import STRUCTURED, read_structure
from bpseg_pgm.structure.spans import block_spans
from bpseg_pgm.types.chunk import Span
from bpseg_pgm.utils.spans import join_sentences, paragraph_spans
from bpseg_pgm.utils.spans import trim_span as _trim

__all__ = ["join_sentences", "sentence_spans", "split_sentences", "split_lines", "split_text", "squash"]

_LINE = re.compile("[^\n\r\x0b\x0c\x1c\x1d\x1e\x85\u2028\u2029]+")  # what str.splitlines splits at
_NON_SPACE = re.compile(r"\S")

# Sentence ends Punkt does not know: CJK (ideographic and full-width) and Devanagari; then closing marks.
_END_MARK = re.compile(r"[。｡！？।॥]+[\"'”’」』）)\]】》〉｣〕］]*")
# Which library a sentence needs (and which language sentencex is told: its terminators are the same for all).
_KANA = re.compile(r"[\u3040-\u30ff\u31f0-\u31ff\uff66-\uff9d]")
_HAN = re.compile(r"[\u3400-\u4dbf\u4e00-\u9fff\uf900-\ufaff]")
_THAI = re.compile(r"[\u0e00-\u0e7f]")
# Quote pairs sentencex does not know, as pairs it knows (one character for one: its offsets stay ours).
_QUOTES = str.maketrans("『』｢｣【】〈〉〔〕［］", "“”「」《》《》（）（）")
# sentencex looks back to the last space at every sentence end: text without spaces goes in blocks this long (a
# fact of its speed, not a tuned choice: a quotation longer than this may be cut at a block end).
_BLOCK = 1000

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

# Abbreviations that never end a sentence before a capitalised word, besides nupunkt's own prenominal titles
# ("mr", "dr", "gen", ...): "St. John", "Lt. Smith", "Roe vs. Wade", "cf. Rapoport".
_TITLES = frozenset("st lt pres adm maj cpl brig cmdr supt insp det fr mt vs cf".split())


@functools.cache
def _tokenizer() -> nupunkt.PunktSentenceTokenizer:
    """nupunkt's default model minus the ordinary words it mistakes for abbreviations, plus :data:`_TITLES`."""
    from bpseg_pgm.embeddings.embedder import default_model_path

    vocab = (default_model_path() / "vocab.txt").read_text("utf-8").split()
    words = {w for w in vocab if w.isalpha() and w.islower() and len(w) >= 3} - _KEEP_ABBREVIATIONS
    words |= _SHORT_WORDS
    tokenizer = nupunkt.load_default_model()
    for abbrev in tokenizer.abbreviations & words:
        tokenizer.remove_abbreviation(abbrev)
    for abbrev in _TITLES - tokenizer.abbreviations:
        tokenizer.add_abbreviation(abbrev)
    tokenizer._TITLE_ABBREVS = tokenizer._TITLE_ABBREVS | _TITLES  # its class attribute; this instance's own
    return tokenizer


def _check_text(text: object) -> str:
    if not isinstance(text, str):
        raise ValueError(f"text must be a str, got {type(text).__name__}")
    return text


def squash(s: str) -> str:
    """``s`` with every run of whitespace made one space, and none at either end."""
    return " ".join(s.split())


def _mark_cuts(text: str, start: int, end: int) -> list[int]:
    """Where sentencex ends a sentence at a CJK or Devanagari mark in ``text[start:end]`` (after the closing marks)."""
    import sentencex

    marks = list(_END_MARK.finditer(text, start, end))
    after = {i: m.end() for m in marks for i in range(m.start() + 1, m.end() + 1)}  # a cut in a mark -> its end
    bounds = [start]  # blocks of at most _BLOCK characters where marks allow, cut at a mark
    for prev, m in zip(marks, marks[1:]):
        if m.end() - bounds[-1] > _BLOCK:
            bounds.append(prev.end())
    bounds.append(end)
    lang = "ja" if _KANA.search(text, start, end) else "zh" if _HAN.search(text, start, end) else "hi"
    cuts = set(bounds[1:-1])
    for lo, hi in zip(bounds, bounds[1:]):
        for sentence in sentencex.get_sentence_boundaries(lang, text[lo:hi].translate(_QUOTES)):
            cut = lo + sentence["end_index"]
            while cut > lo and text[cut - 1].isspace():
                cut -= 1
            if cut in after:
                cuts.add(after[cut])
    return sorted(c for c in cuts if start < c < end)


def _thai_cuts(text: str, start: int, end: int) -> list[int]:
    """Where PyThaiNLP's CRFCut ends a Thai sentence in ``text[start:end]``: at a space next to a Thai letter."""
    from pythainlp.tokenize import sent_tokenize

    pieces = sent_tokenize(text[start:end], engine="crfcut")
    if "".join(pieces) != text[start:end]:  # its pieces are the text cut up; if ever not, no cut
        return []
    cuts, pos = [], start
    for piece, following in zip(pieces, pieces[1:]):
        pos += len(piece)
        last, first = piece.rstrip()[-1:], following.lstrip()[:1]
        if piece[-1:].isspace() and last and first and (_THAI.match(last) or _THAI.match(first)):
            cuts.append(pos)
    return cuts


def _punkt_spans(paragraph: str) -> list[Span]:
    """Punkt's sentences of ``paragraph``, one that ends in a period after a Thai letter joined to the next: Thai
    ends a sentence with a space, its periods mark abbreviations ("ดร. สมชาย", "พ.ศ. 2310")."""
    spans: list[Span] = []
    for a, b in _tokenizer().span_tokenize(paragraph):
        last = spans[-1][1] if spans else 0
        if last >= 2 and paragraph[last - 1] == "." and _THAI.match(paragraph, last - 2):
            spans[-1] = (spans[-1][0], b)
        else:
            spans.append((a, b))
    return spans


def _script_ends(text: str, start: int, end: int) -> list[Span]:
    """``text[start:end]`` (one of Punkt's sentences) cut where its CJK, Devanagari or Thai sentences end."""
    cuts = _mark_cuts(text, start, end) if _END_MARK.search(text, start, end) else []
    if _THAI.search(text, start, end):
        bounds = [start, *cuts, end]
        cuts = sorted({*cuts, *(c for a, b in zip(bounds, bounds[1:]) for c in _thai_cuts(text, a, b))})
    pieces = zip([start, *cuts], [*cuts, end])
    return [span for a, b in pieces if (span := _trim(text, a, b)) is not None]


def _mask_images(paragraph: str) -> str:
    """``paragraph`` with each inline image replaced by one word of the same length (the offsets unchanged)."""
    spans = image_spans(paragraph)
    if not spans:
        return paragraph
    pieces, pos = [], 0
    for a, b in spans:
        pieces += [paragraph[pos:a], "I" * (b - a)]
        pos = b
    return "".join(pieces) + paragraph[pos:]


def _prose_spans(text: str, start: int, end: int, code: bool = False) -> list[Span]:
    """Sentence spans of ``text[start:end]``: paragraphs, then Punkt and the CJK/Devanagari/Thai ends; with ``code``
    (Markdown), no sentence ends inside inline code (the sentences on both sides of such a cut are joined) and
    an inline image ``![alt](url)`` is read as one word (Punkt would end a sentence at its "!")."""
    spans: list[Span] = []
    for p_start, p_end in paragraph_spans(text, start, end):
        paragraph = text[p_start:p_end]
        if not _NON_SPACE.search(paragraph):
            continue
        if code:
            paragraph = _mask_images(paragraph)
        found: list[Span] = []
        for a, b in _punkt_spans(paragraph):
            found.extend((p_start + c, p_start + d) for c, d in _script_ends(paragraph, a, b))
        if code and len(found) > 1:
            inline = inline_code_spans(text, p_start, p_end)
            joined = [found[0]]
            for a, b in found[1:]:
                cut = joined[-1][1], a
                if any(c0 < cut[1] and cut[0] < c1 for c0, c1 in inline):
                    joined[-1] = (joined[-1][0], b)
                else:
                    joined.append((a, b))
            found = joined
        spans.extend(found)
    return spans


def _markdown_spans(text: str) -> list[Span]:
    """Sentences of Markdown: each code block, table, HTML block and heading is one unit; no sentence crosses
    the start of a list item or ends inside inline code; the rest is prose.  YAML front matter at the top is
    metadata, not text: no unit."""
    blocks = markdown_blocks(text)
    item_starts = sorted(a for a, _ in blocks.atomic)
    spans: list[Span] = []
    pos = front_matter_end(text)
    for a, b in [*blocks.units, (len(text), len(text))]:
        # the item starts c with pos < c < a, found by bisection: a scan of them all for every unit was quadratic
        inside = item_starts[bisect.bisect_right(item_starts, pos) : bisect.bisect_left(item_starts, a)]
        cuts = [pos, *inside, a]
        for lo, hi in zip(cuts, cuts[1:]):
            spans.extend(_prose_spans(text, lo, hi, code=True))
        if a < b:
            spans.append((a, b))
        pos = max(pos, b)
    return spans


def sentence_spans(text: str, *, lines: bool = False, markdown: bool = False, format: str | None = None) -> list[Span]:
    """Character spans ``(start, end)`` of the sentences of ``text`` (or of its lines, if ``lines``).

    ``text[start:end]`` is a sentence exactly as written (inner whitespace and line breaks
    included, none at either end); spans are in reading order and do not overlap.  With ``markdown``
    (ignored with ``lines``) the text is read as Markdown: a code block (fenced or indented), a table,
    an HTML block or a heading is one unit each (code lines are not sentences), no sentence runs from
    one list item into the next, no sentence ends inside inline code or an image, and YAML front matter at
    the top is skipped (metadata, not text). With ``format`` "rst", "html" or "numbered" (ignored with ``lines``)
    the text is read in that format (:mod:`bpseg_pgm.structure`): its headings, literal blocks, directives and
    tables are one unit each, and markup is not part of any sentence.
    """
    text = _check_text(text)
    if lines:
        return [span for m in _LINE.finditer(text) if (span := _trim(text, m.start(), m.end())) is not None]
    if markdown:
        return _markdown_spans(text)
    if format in STRUCTURED:
        return block_spans(read_structure(text, format), _prose_spans)
    return _prose_spans(text, 0, len(text))


def split_sentences(text: str) -> list[str]:
    """Split prose into sentences (nupunkt; sentencex for CJK and Devanagari, PyThaiNLP for Thai), paragraph breaks being
    hard boundaries; whitespace inside a sentence is collapsed to single spaces."""
    text = _check_text(text)
    return [squash(text[a:b]) for a, b in sentence_spans(text)]


def split_lines(text: str) -> list[str]:
    """Pre-split mode: one sentence per line, blank lines dropped."""
    text = _check_text(text)
    return [squash(text[a:b]) for a, b in sentence_spans(text, lines=True)]


def split_text(text: str, *, lines: bool = False) -> list[str]:
    """Split ``text`` with :func:`split_lines` if ``lines`` else :func:`split_sentences`."""
    return split_lines(text) if lines else split_sentences(text)
