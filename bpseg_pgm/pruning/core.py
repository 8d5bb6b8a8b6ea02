"""Query-focused pruning: keep what a question needs from a long text, within a budget.

:func:`prune` takes a text (split into sentences) or a list of units (meeting turns, paragraphs), and a query, and
keeps the parts most relevant to the query until a budget is filled: a fraction of the words (``budget=0.2``), or a
number of tokens (``max_tokens=``). What is kept comes back in reading order, with exact offsets into the input. How
(each choice measured in docs/research/query-pruning.md; the tuned numbers are the ``prune_*`` fields of ``Policy``):

1. **Segments.** ``BPSeg(structure="runs")`` cuts the units into runs of consecutive units on one topic: a
   question's evidence is a stretch of the text, which the default's returning topics scatter.
2. **Unit relevance** = cosine(unit, query) + ``bm25_weight`` x BM25(unit, query), the BM25 score (Okapi, on
   lower-cased word tokens without stop words and question words) divided by its maximum over the units.
3. **Segment score** = mean relevance of its ``top_m`` most relevant units.
4. **Filling.** Segments are taken in order of score, whole when they fit in what is left of the budget; a
   segment that does not fit gives its best pieces of ``part_units`` units first, a piece that does not fit
   giving way to its single units. Nothing is ever cut inside a unit.

Long inputs are segmented in blocks of ``Policy.prune_block`` units.
"""

from __future__ import annotations

import difflib
import heapq
import inspect
import logging
import math
import numbers
import re
import warnings
from collections.abc import Callable, Sequence
from typing import Any

import numpy as np

from bpseg_pgm.policy import DEFAULT_POLICY, Policy
from bpseg_pgm.text.checks import check_bpseg_params
from bpseg_pgm.types.chunk import Span
from bpseg_pgm.types.prune import PruneResult
from bpseg_pgm.utils.labels import index_runs, run_starts
from bpseg_pgm.utils.validation import check_n_segments, check_str_list, check_unicode
from bpseg_pgm.utils.words import plural

__all__ = ["bm25_relevance", "prune", "query_terms", "relevance", "segment_runs", "segment_scores", "select_runs"]

_WORD = re.compile(r"\w+")
_log = logging.getLogger(__name__)

#: Words that carry no topic: English function words and the words questions are framed with.
STOP_WORDS = frozenset(
    """a about above after again against all also am an and any are as at be because been before being below
    between both but by can could did do does doing down during each few for from further had has have having he
    her here hers herself him himself his how i if in into is it its itself just me more most my myself no nor not
    now of off on once only or other our ours ourselves out over own same she should so some such than that the
    their theirs them themselves then there these they this those through to too under until up very was we were
    what when where which while who whom whose why will with would you your yours yourself yourselves
    discuss discussed discussion discussions summarize summarise summary think thought thinks say said says talk
    talked talking tell told opinion opinions view views""".split()
)


def query_terms(text: str) -> list[str]:
    """Lower-cased word tokens of ``text`` without :data:`STOP_WORDS` (what BM25 matches)."""
    return [t for t in _WORD.findall(text.lower()) if t not in STOP_WORDS]


def bm25_relevance(units: Sequence[str], query: str) -> np.ndarray:
    """BM25 (Okapi) score of each unit for the query, divided by the largest (all zeros if no term matches)."""
    docs = [query_terms(u) for u in units]
    terms = query_terms(query)
    if not terms or not any(docs):
        return np.zeros(len(docs))
    from rank_bm25 import BM25Okapi

    scores = np.maximum(np.asarray(BM25Okapi(docs).get_scores(terms), dtype=np.float64), 0.0)
    top = scores.max()
    return scores / top if top > 0 else scores


def relevance(X: np.ndarray, q: np.ndarray, bm25: np.ndarray | None, bm25_weight: float) -> np.ndarray:
    """Relevance of each unit: cosine of its (unit-norm) embedding row with ``q``, plus ``bm25_weight``
    (``Policy.prune_bm25_weight``) x ``bm25`` (None: the cosine alone)."""
    X = np.asarray(X, dtype=np.float64)
    q = np.asarray(q, dtype=np.float64)
    q = q / max(float(np.linalg.norm(q)), 1e-12)
    r = X @ q
    if bm25 is not None and bm25_weight:
        r = r + bm25_weight * np.asarray(bm25, dtype=np.float64)
    return r


def segment_runs(
    X: np.ndarray, units: Sequence[str], n_segments: Any = "auto", policy: Policy = DEFAULT_POLICY
) -> np.ndarray:
    """Start index of each segment of ``BPSeg(structure="runs", policy=policy)`` over the unit embeddings ``X``.

    Units are weighted by :func:`~bpseg_pgm.features.weights.unit_weights`, without the words; inputs of fewer than
    three units give one segment per unit, and inputs longer than ``Policy.prune_block`` are segmented block by
    block (``n_segments`` then applies to each block).
    """
    from bpseg_pgm.estimator import BPSeg
    from bpseg_pgm.features.units import Units

    n = len(units)
    if n < 3:
        return np.arange(n)
    starts = []
    n_blocks = math.ceil(n / policy.prune_block)
    bounds = np.linspace(0, n, n_blocks + 1).round().astype(int)
    for a, b in zip(bounds[:-1], bounds[1:]):
        k = n_segments if isinstance(n_segments, str) else min(int(n_segments), b - a)
        # the features step, without the words: pruning's segments were chosen on the weighted embeddings alone
        block = Units.from_sentences(list(units[a:b]), embeddings=X[a:b], words=False, policy=policy)
        labels = BPSeg(structure="runs", n_segments=k, policy=policy).fit(block).labels_
        starts.append(a + run_starts(labels))
    return np.concatenate(starts).astype(np.int64)


def segment_scores(r: np.ndarray, starts: np.ndarray, top_m: int) -> np.ndarray:
    """Score of each run ``starts[i]..starts[i+1]-1``: the mean of its ``top_m`` (``Policy.prune_top_m``) largest
    values of ``r``."""
    r = np.asarray(r, dtype=np.float64)
    ends = np.append(starts[1:], len(r))
    return np.array([np.sort(r[a:b])[-top_m:].mean() for a, b in zip(starts, ends)])


def select_runs(
    r: np.ndarray, starts: np.ndarray, costs: np.ndarray, capacity: float, *, top_m: int, part_units: int
) -> np.ndarray:
    """Boolean mask of the units kept: runs by score, whole when they fit, else their best parts.

    ``r`` (n,) unit relevance, ``starts`` the runs' first units, ``costs`` (n,) what each unit costs (words or
    tokens), ``capacity`` the most the kept units may cost in all. A run that does not fit in what is left is
    filled best-first before the next run: its pieces of ``part_units`` units, then a piece's single units (the
    module docstring, step 4; ties in reading order).
    """
    r = np.asarray(r, dtype=np.float64)
    costs = np.asarray(costs, dtype=np.float64)
    n = len(r)
    kept = np.zeros(n, dtype=bool)
    ends = np.append(starts[1:], n)
    left = float(capacity)

    def score(a: int, b: int) -> float:
        return float(np.sort(r[a:b])[-top_m:].mean())

    run_scores = np.array([score(a, b) for a, b in zip(starts, ends)])
    for i in np.argsort(-run_scores, kind="stable"):
        if left <= 0:
            break
        a, b = int(starts[i]), int(ends[i])
        heap = [(-run_scores[i], a, b)]
        while heap and left > 0:
            _, c, d = heapq.heappop(heap)
            cost = float(costs[c:d].sum())
            if cost <= left:
                kept[c:d] = True
                left -= cost
            elif d - c > part_units:  # the run: its pieces
                pieces = [(e, min(e + part_units, d)) for e in range(c, d, part_units)]
                heap.extend((-score(e, f), e, f) for e, f in pieces)
                heapq.heapify(heap)
            elif d - c > 1:  # a piece: its units
                heap.extend((-float(r[e]), e, e + 1) for e in range(c, d))
                heapq.heapify(heap)
    return kept


def _run_spans(positions: Sequence[int], spans: Sequence[Span]) -> list[Span]:
    """Merge the spans of kept units at consecutive ``positions`` (increasing): one ``(start, end)`` per run."""
    span_of = dict(zip((int(i) for i in positions), spans))
    return [(span_of[run[0]][0], span_of[run[-1]][1]) for run in index_runs(positions)]


def _check_query(query: Any) -> str:
    if not isinstance(query, str):
        raise ValueError(f"query must be a str, got {type(query).__name__}")
    if not query.strip():
        raise ValueError("query is empty")
    return check_unicode(query, "query")


def _check_budget(budget: Any, max_tokens: Any, policy: Policy) -> tuple[float | None, int | None]:
    if budget is not None and max_tokens is not None:
        raise ValueError("give either budget (a fraction of the words) or max_tokens, not both")
    if max_tokens is not None:
        if isinstance(max_tokens, bool) or not isinstance(max_tokens, numbers.Integral) or max_tokens < 1:
            raise ValueError(f"max_tokens must be a positive int, got {max_tokens!r}")
        return None, int(max_tokens)
    if budget is None:
        return policy.prune_budget, None
    if isinstance(budget, bool) or not isinstance(budget, numbers.Real) or not 0 < budget <= 1:
        raise ValueError(f"budget must be a fraction of the words in (0, 1], got {budget!r}")
    return float(budget), None


def _check_options(n_segments: Any, separator: Any) -> None:
    check_n_segments(n_segments)
    if not isinstance(separator, str):
        raise ValueError(f"separator must be a str, got {type(separator).__name__}")


#: prune's former keywords for its tuned numbers, now fields of the Policy
_MOVED = {"bm25_weight": "prune_bm25_weight", "top_m": "prune_top_m", "part_units": "prune_part_units"}


def _units_of(text_or_units: Any, lines: bool) -> tuple[list[str], list[Span], str]:
    """The units to rank, their spans in the source, and the source text."""
    from bpseg_pgm.text.split import sentence_spans, squash

    if isinstance(text_or_units, str):
        text = text_or_units
        if not text.strip():
            raise ValueError("text is empty" if not text else "text contains only whitespace")
        check_unicode(text)
        spans = sentence_spans(text, lines=lines)
        return [squash(text[a:b]) for a, b in spans], spans, text
    if lines:
        raise ValueError("lines=True splits a text into lines; it does not apply to a list of units")
    not_a_list = "text_or_units must be a str or a list of str, got {type}"
    if isinstance(text_or_units, bytearray) or not isinstance(text_or_units, Sequence):  # bytes: refused below
        raise ValueError(not_a_list.format(type=type(text_or_units).__name__))
    units = list(
        check_str_list(
            text_or_units,
            "text_or_units",
            "units[{i}]",
            any_iterable=True,
            unicode=True,
            not_a_list=not_a_list,
            not_a_str="{name} is {type}, not str",
        )
    )
    if not units:
        raise ValueError("the list of units is empty")
    spans = []
    pos = 0
    for u in units:
        spans.append((pos, pos + len(u)))
        pos += len(u) + 1
    if not any(u.strip() for u in units):
        raise ValueError("every unit is empty")
    return units, spans, "\n".join(units)


def _token_costs(units: list[str], embedder: Any, count_tokens: Callable | None) -> np.ndarray:
    """Tokens of each unit: ``count_tokens`` if given, else the model's tokenizer without its special tokens."""
    if count_tokens is not None:
        from bpseg_pgm.chunks.options import checked_token_counter

        return np.array(checked_token_counter(count_tokens)(units), dtype=np.int64)
    special = embedder.count_tokens([""])[0]
    return np.maximum(np.array(embedder.count_tokens(units), dtype=np.int64) - special, 0)


def prune(
    text_or_units: str | Sequence[str],
    query: str,
    *,
    budget: float | None = None,
    max_tokens: int | None = None,
    lines: bool = False,
    n_segments: int | str = "auto",
    separator: str = "\n\n",
    model: str | None = None,
    embedder: Any = None,
    count_tokens: Callable[[list[str]], list[int]] | None = None,
    policy: Policy | None = None,
    **unknown: Any,
) -> PruneResult:
    """Keep the parts of ``text_or_units`` most relevant to ``query`` until the budget is filled.

    ``text_or_units``: a text (split into sentences, or into lines with ``lines=True``) or a list of units (str
    each). ``budget``: the kept units hold at most this fraction of the words (default 0.2); or ``max_tokens``: at
    most this many tokens (the embedding model's tokenizer without special tokens, or
    ``count_tokens(list_of_str) -> list_of_int``). Not both. ``policy``: the tuned numbers (None: the shipped).

    The units are embedded (``embedder``, or an :class:`~bpseg_pgm.embeddings.Embedder` for ``model``), cut into
    contiguous BP-Seg segments (``n_segments``), and the segments most relevant to the query kept whole, or their
    best parts when they do not fit (the module docstring; docs/howto/prune.md). Bad input, an unknown keyword
    among it, raises ``ValueError`` before anything is embedded; when not even one unit fits the budget, nothing
    is kept and a ``UserWarning`` says so. An empty unit of a list stays a unit (one entry in ``units``,
    ``scores`` and ``segments``) outside the model, in its nearest non-empty neighbour's segment, scored NaN and
    never kept; one non-empty unit is enough.
    """
    if unknown:  # a ValueError naming it, as for every other bad option, not Python's TypeError
        name = sorted(unknown)[0]
        if name in _MOVED:
            raise ValueError(
                f"prune() takes no keyword {name!r}: it is Policy.{_MOVED[name]}, given as "
                f"policy=Policy({_MOVED[name]}=...)"
            )
        close = difflib.get_close_matches(name, list(inspect.signature(prune).parameters)[2:-1], n=1)
        raise ValueError(f"prune() takes no keyword {name!r}" + (f": did you mean {close[0]!r}?" if close else ""))
    query = _check_query(query)
    given = DEFAULT_POLICY if policy is None else policy
    if isinstance(given, Policy):  # the cheap checks first; a policy that is not one is named by the segmenter's
        budget, max_tokens = _check_budget(budget, max_tokens, given)
    _check_options(n_segments, separator)
    if embedder is not None and model is not None:
        raise ValueError("pass either an embedder or a model, not both")
    if embedder is None:
        from bpseg_pgm.embeddings import Embedder

        embedder = Embedder(model)  # checks the model folder; the model loads on first encode
    check_bpseg_params(n_segments, {"structure": "runs", "policy": policy})  # the segmenter's, before any embedding
    policy = given
    if count_tokens is not None and max_tokens is None:
        raise ValueError("count_tokens counts tokens for max_tokens; give max_tokens too")
    units, spans, source = _units_of(text_or_units, lines)
    live = np.flatnonzero([bool(u.strip()) for u in units])  # empty units (a list may have them) are skipped
    texts = [units[i] for i in live]
    vectors = np.asarray(embedder.encode([*texts, query]), dtype=np.float64)
    # a phase line (bpseg_pgm.cli.progress); "quick" for a short text: shown only after a slow phase (a model load)
    _log.info(
        "segmenting %s and keeping the most relevant",
        plural(len(texts), "sentence"),
        extra={"quick": len(texts) < policy.progress_units},
    )
    X, q = vectors[:-1], vectors[-1]
    costs = np.zeros(len(units), dtype=np.int64)
    if max_tokens is None:
        costs[live] = [len(u.split()) for u in texts]
        cost_unit, limit = "words", budget * float(costs.sum())
    else:
        costs[live] = _token_costs(texts, embedder, count_tokens)
        cost_unit, limit = "tokens", float(max_tokens)
    r = relevance(X, q, bm25_relevance(texts, query), policy.prune_bm25_weight)
    starts = segment_runs(X, texts, n_segments, policy)
    top_m = policy.prune_top_m
    positions = np.flatnonzero(
        select_runs(r, starts, costs[live], limit, top_m=top_m, part_units=policy.prune_part_units)
    )
    kept = live[positions]
    if kept.size == 0:
        warnings.warn(
            f"nothing fits the budget: it allows {limit:g} {cost_unit} and the smallest unit has "
            f"{int(costs[live].min())}",
            UserWarning,
            stacklevel=2,
        )
    kept_spans = tuple((int(spans[i][0]), int(spans[i][1])) for i in kept)
    runs = tuple(_run_spans(positions, kept_spans))
    scores = np.full(len(units), np.nan)
    scores[live] = r
    bounds = [0, *live[starts[1:]].tolist(), len(units)]
    return PruneResult(
        query=query,
        kept=tuple(int(i) for i in kept),
        spans=kept_spans,
        runs=runs,
        text=separator.join(source[a:b] for a, b in runs),
        source=source,
        units=tuple(units),
        scores=scores,
        segments=tuple((int(a), int(b)) for a, b in zip(bounds[:-1], bounds[1:])),
        segment_scores=segment_scores(r, starts, top_m),
        cost_unit=cost_unit,
        limit=limit,
        used=int(costs[kept].sum()),
        total=int(costs.sum()),
    )
