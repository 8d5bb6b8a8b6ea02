"""``Policy``: every tuned number of the library in one place, each with its reason.

The decision layer (:mod:`bpseg_pgm.decisions`) reads a ``Policy`` top to bottom: the features a unit
gets, runs or topics (the structure), how many segments, and whether runs are grouped into topics.
``BPSeg(policy=Policy(run_scale=2.0))`` changes one decision without touching the code; every field
has a one-line ``reason`` and, where it was measured, the measurement (``Policy.explain(name)``, and the
docs page ``docs/policy.md``, generated from this class).

This module imports only :mod:`bpseg_pgm.constraints` (the fields' ranges): the model packages below the
decision layer take their defaults from :data:`DEFAULT_POLICY`, so a number is written once, here.
"""

from __future__ import annotations

import dataclasses
import functools
from dataclasses import dataclass, field, fields
from numbers import Integral, Real

from bpseg_pgm.constraints import Interval, validate

__all__ = ["DEFAULT_POLICY", "KNOBS", "STAGES", "Policy"]

#: The stages of the decision procedure, in the order it takes them; each field belongs to one.
STAGES = (
    "features",
    "layout",
    "runs",
    "structure",
    "granularity",
    "topics",
    "grouping",
    "pruning",
    "chunks",
    "display",
    "confidence",
)


def _real(low: float, high: float) -> Interval:
    """Finite numbers in [low, high]."""
    return Interval(Real, low, high)


def _positive(high: float) -> Interval:
    """Finite numbers in (0, high]."""
    return Interval(Real, 0, high, closed="right")


def _count(low: int) -> Interval:
    """Integers >= low."""
    return Interval(Integral, low, None)


#: A probability strictly between 0 and 1 (its logit is taken).
_PROBABILITY = Interval(Real, 0, 1, closed="neither")

#: What a field that decides no output is a knob of (``Policy`` metadata ``knob``): its time, its memory, or
#: what is shown while it runs. Every other field changes some output when set (tests/policy).
KNOBS = ("speed", "memory", "display")


def _decision(stage: str, default, reason: str, measured: str = "", *, within: Interval, knob: str = ""):
    """A Policy field: its stage, its default, a one-line reason, what was measured (if anything), the values
    it takes (``within``: checked when a Policy is made) and, for a field that changes no output, the ``knob``
    it is (one of :data:`KNOBS`)."""
    if not within.is_satisfied_by(default) or (knob and knob not in KNOBS):
        raise ValueError(f"the default {default!r} is not {within}, or the knob {knob!r} is not one of {KNOBS}")
    metadata = {"stage": stage, "reason": reason, "measured": measured, "within": within, "knob": knob}
    return field(default=default, metadata=metadata)


#: The field maker of each stage, in the order of :data:`STAGES`: ``_runs(default, reason, measured, within=...)``.
_features, _layout, _runs, _structure, _granularity, _topics, _grouping, _pruning, _chunks, _display, _confidence = (
    functools.partial(_decision, stage) for stage in STAGES
)


@dataclass(frozen=True)
class Policy:
    """The library's tuned decisions (chosen on the development sets only: Choi set 1 and its interleaved
    documents, QMSum train, PEPs train).

    Every field has a default equal to the shipped behaviour; give any of them to change one decision::

        from bpseg_pgm import BPSeg, Policy
        BPSeg(policy=Policy(run_scale=2.0)).fit(units)   # finer runs on gradual text

    ``Policy.explain(name)`` gives a field's reason and measurement; ``Policy.table()`` all of them.
    """

    # -- features: how much each unit counts ------------------------------------------------------------
    word_scale: float = _features(
        5.0,
        "unit weight 1 - exp(-words / word_scale): backchannels ('Yeah .') count less",
        "chosen on QMSum train: turns of 1-3 words are mostly backchannels",
        within=_positive(1e4),
    )

    # -- layout: the document's own structure (headings, paragraphs) as evidence ---------------------------
    paragraph_min: int = _layout(
        3,
        "runs start only at paragraph breaks when a text has at least this many paragraphs",
        "not tuned (no development set has few paragraphs); PEPs as paragraphs: ARI 0.408 -> 0.408 train, "
        "0.444 -> 0.443 val; given k 0.445 -> 0.454 train, 0.466 -> 0.484 val",
        within=_count(1),
    )

    # -- the runs model (segments are runs of consecutive units) -------------------------------------------
    smoothing: float = _runs(
        0.3,
        "features smoothed along reading order over this fraction of the persistence half-life",
        "0 / 0.3 / 0.5 half-lives: ARI 0.958 / 0.953 / 0.914 on Choi set 1, 0.475 / 0.514 / 0.536 on QMSum train "
        "(KernelCPD given the true k)",
        within=_real(0, 1e6),
    )
    null_block: float = _runs(
        1.0,
        "the null document shuffles blocks of this many half-lives (keeps local persistence)",
        "QMSum train / Choi set 1 / interleaved ARI: single units 0.267 / 0.937 / 0.485, 1 half-life "
        "0.338 / 0.928 / 0.483, 2 half-lives 0.408 / 0.875 / 0.414; coarser nulls trade Choi for meetings",
        within=_real(0, 1e6),
    )
    null_units: int = _runs(
        2000,
        "null documents averaged: ceil(null_units / n), between 1 and 8",
        "one shuffle of an 18-sentence note chose 1, 5, 6, 5 or 1 runs over five seeds",
        within=_count(0),
    )
    auto_max_runs: int = _runs(
        30,
        "the most runs the noise-calibrated count considers, unless the text has more correlation lengths",
        "a long text of many short passages capped at 30 averaged several passages per run",
        within=_count(1),
    )
    max_candidates: int = _runs(
        1000,
        "longer documents are solved over binary segmentation's boundaries, not every position",
        "keeps the exact programme's O(n^2) memory bounded",
        within=_count(2),
    )
    window: int = _runs(
        500,
        "more runs than candidates: the programme is solved in windows of about this many units",
        "500 against 1,000: ARI within 0.003 on Choi set 1 concatenated, at a fifth of the time or less",
        within=_count(2),
    )
    window_share: int = _runs(
        2,
        "each window is solved up to this many times its share of the runs",
        "the sharing gave a window at most 1.23 times its share (Choi set 1 concatenated, 20k-50k units)",
        within=_count(1),
    )
    correlation_window: int = _runs(
        4000,
        "the correlation length of a longer text is measured in windows of this many units",
        "no development document is that long (the longest QMSum train meeting has 1,832 units)",
        within=_count(16),
    )
    correlation_min_weight: float = _runs(
        0.6,
        "the correlation length is read on the substantive units only: weight at least this fraction of the largest",
        "with unit weights 1 - exp(-words / 5) it keeps units of 5 words or more: backchannels resemble each other "
        "wherever they are and hid the slow decay of meetings",
        within=_real(0, 1),
    )
    correlation_min_units: int = _runs(
        8,
        "with fewer substantive units than this the correlation length is the document's length",
        "below it the autocorrelation has too few lags to fall to 0",
        within=_count(2),
    )
    null_max_shuffles: int = _runs(
        8,
        "null documents averaged at most (ceil(null_units / n) of them, at least 1)",
        "bounds the null's cost on short documents, where eight shuffles already steady the count",
        within=_count(1),
    )
    smoothing_min_width: float = _runs(
        0.3,
        "a smoothing width below this many units leaves the features unsmoothed",
        "a Gaussian of standard deviation under 0.3 units gives its neighbours less than 0.4% of a unit's weight",
        within=_real(0, 1e6),
    )
    word_weight: float = _runs(
        1.0,
        "weight of the words' cost beside the embeddings' where the runs' boundaries go",
        "every weight from 0.5 to 4 beats the embeddings alone on Choi set 1, QMSum train and PEPs train; left "
        "out one genre at a time the genre left out gains (Choi +0.002, PEPs +0.006, QMSum +0.030)",
        within=_real(0, 1e6),
    )

    # -- structure: runs, or topics that may return -----------------------------------------------------------
    gradual_effect: float = _structure(
        0.5,
        "a text whose runs differ by a median per-unit effect below this shifts gradually: runs",
        "median effect per document (5% / 50% / 95%): Choi set 1 0.65 / 0.99 / 1.65, interleaved "
        "0.64 / 1.26 / 3.04, QMSum train 0.06 / 0.12 / 0.39",
        within=_positive(1e6),
    )
    topic_silhouette: float = _structure(
        0.08,
        "abrupt text keeps the topic model only if its topics are clusters (mean silhouette)",
        "98-99% of Choi set 1, interleaved and choi-1-rr documents reach it, 6-9% of PEPs train; 0.06 and 0.10 "
        "give means within 0.001",
        within=_real(-1, 1),
    )
    topic_runs_ratio: float = _structure(
        3.0,
        "... and only if its labels form at most this many times the noise-calibrated runs",
        "more means single sentences were scattered (a meeting labelled turn by turn: 215 runs against 12); "
        "2, 3 and 5 give the same development figures within 0.007",
        within=_real(0, 1e6),
    )
    silhouette_max_units: int = _structure(
        2000,
        "the silhouette is scored on a seeded sample of at most this many units",
        "keeps the O(n^2) silhouette fast on long texts",
        within=_count(2),
    )

    # -- granularity: how many segments ------------------------------------------------------------------------
    run_scale: float = _granularity(
        3.0,
        "on gradual text a segment spans this many correlation lengths",
        "QMSum train: 3 gave ARI 0.504 / Pk 0.371 against 0.514 / 0.380 for 2.5, 0.429 / 0.359 for 4, "
        "0.528 / 0.365 with the gold number of runs",
        within=_real(1, 1e6),
    )
    gradual_full: float = _granularity(
        0.2,
        "at or below this effect the span is run_scale; up to gradual_effect it falls to 1",
        "documents judged gradual, ARI before -> after: QMSum train 0.505 -> 0.522, Choi set 1 0.157 -> 0.439, "
        "interleaved 0.364 -> 0.548",
        within=_real(0, 1e6),
    )
    evidence_penalty: float = _granularity(
        3.0,
        "b in the words' evidence less b log C(n-1, k-1): how readily the words add runs",
        "chosen on Choi set 1, QMSum train and PEPs train; left out, each genre picks 2 or 3 and none loses "
        "to the span rule",
        within=_real(0, 1e6),
    )
    max_evidence_levels: int = _granularity(
        100,
        "at most this many levels are weighed by the words' evidence (evenly spaced)",
        "a text of tens of thousands of units may have hundreds of candidate levels",
        within=_count(2),
    )
    auto_max_segments: int = _granularity(
        40,
        "the topic model's n_segments='auto' starts from min(n, ceil(2 sqrt(n)), this) labels",
        "labels that hold less than half a sentence of belief are dropped during re-estimation",
        within=_count(1),
    )

    auto_segments_per_root: float = _granularity(
        2.0,
        "the topic model's n_segments='auto' starts from ceil(this x sqrt(n)) labels (at most auto_max_segments)",
        "more labels than topics, so that re-estimation empties the unneeded ones rather than merging topics",
        within=_positive(1e6),
    )
    # -- the topic model --------------------------------------------------------------------------------------
    em_round_sweeps: int = _topics(
        15,
        "BP sweeps per re-estimation round before the last",
        "set 1 Choi / interleaved: 10 -> 0.870 / 0.830, 15 -> 0.869 / 0.834, 30 -> 0.868 / 0.834; 15 is "
        "1.4-1.6x faster than 30",
        within=_count(1),
    )

    topic_min_mass: float = _topics(
        0.5,
        "during re-estimation a label holding less than this many sentences of belief has emptied out: dropped",
        "half a sentence: a label no sentence mostly believes in",
        within=_real(0, 1e6),
    )
    context_persistence_full: float = _topics(
        0.05,
        "context='auto' mixes in the full context weight from this topic persistence on (0 at none)",
        "topic persistence: Choi set 1 0.16 or more, set-1 interleaved 0.055 or more, the paper's example -0.006, "
        "the README's alternating prompt -0.08",
        within=_positive(1),
    )
    topic_dense_units: int = _topics(
        400,
        "up to this many sentences the topic model's graph has every pair as an edge (neighbors='auto')",
        "the complete graph's messages grow as n^2 x labels",
        within=_count(0),
    )
    topic_sparse_neighbors: int = _topics(
        10,
        "beyond, each sentence keeps a reading-order window and this many most similar sentences",
        "far-apart sentences of one topic still exchange messages",
        within=_count(0),
    )
    # -- grouping runs into topics ---------------------------------------------------------------------------
    group_threshold: float = _grouping(
        0.4,
        "runs whose centred cosine exceeds this attract (one topic), below it they repel",
        "0.3 gained on round-robin PEPs (0.459 / 0.424) and interleaved but cost PEPs train 0.014 and QMSum "
        "0.006; 0.4 costs no set",
        within=_real(-1, 1),
    )
    group_lam: float = _grouping(
        30.0, "strength of the run-to-run pairwise term (divided by the number of other runs)", within=_real(0, 1e6)
    )
    group_locality: float = _grouping(
        4.0,
        "giving neighbouring runs different topics costs this much (log scale)",
        "4 against 2: PEPs train 0.391 / 0.384, QMSum 0.522 / 0.519, round-robin PEPs 0.425 / 0.425",
        within=_real(0, 1e6),
    )
    group_unary_scale: float = _grouping(
        1.0, "scale of the unary term: centred cosine of a run's mean to a topic's centre", within=_real(0, 1e6)
    )
    group_max_rounds: int = _grouping(
        3, "re-estimation rounds at most (centres from the labels, then BP again)", within=_count(1)
    )
    group_max_dense_runs: int = _grouping(
        200,
        "up to this many runs every pair is an edge; beyond, a sparse graph",
        "the dense graph's messages grow as runs^2 x topics",
        within=_count(0),
    )
    group_sparse_neighbors: int = _grouping(
        10,
        "in the sparse graph each run keeps its reading-order neighbours and this many most similar",
        within=_count(0),
    )
    group_max_iter: int = _grouping(100, "BP sweeps at most when grouping the runs", within=_count(1))
    group_tol: float = _grouping(1e-6, "the grouping's BP stops when no message changes by more", within=_real(0, 1e6))
    group_retry_damping: float = _grouping(
        0.5,
        "an unconverged grouping is run again with this damping",
        "a round-robin PEPs train document oscillated undamped; damped 0.3-0.7 it converged to one answer",
        within=Interval(Real, 0, 1, closed="left"),
    )
    group_retry_sweeps: int = _grouping(1000, "sweeps at most of the damped second try", within=_count(1))
    returns_silhouette: float = _grouping(
        0.35,
        "runs fall into topics that return when the best linkage cut's silhouette reaches this",
        "gains most on round-robin PEPs (0.425 -> 0.502), costs QMSum train 0.003, PEPs train 0.008; left out, "
        "each genre picks 0.35-0.45 and loses at most 0.003",
        within=_real(-1, 1),
    )
    returns_min_runs: int = _grouping(
        5, "the returns test needs this many runs", "5 costs no development set against 3", within=_count(2)
    )
    returns_max_runs: int = _grouping(
        40, "... and at most this many (it was measured on documents of 2-23 runs)", within=_count(2)
    )
    returns_locality: float = _grouping(
        1.0,
        "the reading-order prior once returns are found: weak",
        "locality 0 gave round-robin PEPs 0.505 against 0.502 at 1; 4 undid the grouping (0.410)",
        within=_real(0, 1e6),
    )

    # -- pruning a prompt to what a question needs ----------------------------------------------------------
    prune_budget: float = _pruning(
        0.2, "fraction of the words kept when no budget is given", within=Interval(Real, 0, 1, closed="right")
    )
    prune_bm25_weight: float = _pruning(
        0.2,
        "weight of the max-normalised BM25 score added to the cosine",
        "QMSum train, recall at 10% / 20% of the words: 0 -> 0.420 / 0.575, 0.2 -> 0.446 / 0.601, 0.4 -> 0.442 / 0.599",
        within=_real(0, 1e6),
    )
    prune_top_m: int = _pruning(
        2,
        "a segment's score is the mean relevance of its top_m most relevant units",
        "1 -> 0.443 / 0.588, 2 -> 0.446 / 0.601, 3 -> 0.435 / 0.591",
        within=_count(1),
    )
    prune_part_units: int = _pruning(
        5,
        "a segment that does not fit is cut into pieces of this many units",
        "3 -> 0.438 / 0.594, 5 -> 0.446 / 0.601, 8 -> 0.447 / 0.602; the segment skipped -> 0.311 / 0.555",
        within=_count(1),
    )
    prune_block: int = _pruning(
        2000, "inputs longer than this many units are segmented block by block", within=_count(3)
    )

    # -- display ------------------------------------------------------------------------------------------------
    # -- chunks: the pieces of the text a retrieval pipeline stores ----------------------------------------
    chunk_context_sentences: int = _chunks(
        1,
        "neighbouring sentences on each side embedded with every chunk (Chunk.embed_text), never part of its text",
        "33 QMSum train meetings, 214 queries, top 5 over all meetings: recall / IoU 0.165 / 0.078 -> 0.176 / 0.085 "
        "at 200 tokens and 0.258 / 0.089 -> 0.269 / 0.094 at 400 beside no context; 3 or 5 sentences were no "
        "better than 1; on the held-out QMSum val no gain (0.169 / 0.081 -> 0.155 / 0.078 at 200, equal at 400) "
        "(docs/benchmarks.md, 'Chunks for retrieval')",
        within=_count(0),
    )

    progress_units: int = _display(
        1000,
        "documents of at least this many units get a progress line while they are fitted",
        within=_count(1),
        knob="display",
    )

    # -- confidence: the probability that a unit lies where it was put ------------------------------------
    confidence_runs: float = _confidence(
        0.47,
        "runs: the confidence of a unit of belief 1/2 at the edge of its segment (confidence_belief and "
        "confidence_distance add to its logit)",
        "fitted on structure='runs' of the development sets, the weights kept: runs alone put 0.51 / 0.51 / 0.96 "
        "of the units right on QMSum train / PEPs train / Choi set 1, so ECE 0.21 / 0.11 / 0.37 (QMSum val 0.26, "
        "PEPs val 0.11): calibrated across genres, not within each",
        within=_PROBABILITY,
    )
    confidence_topics: float = _confidence(
        0.83,
        "the topic model: the same base confidence",
        "Choi (0.91 of units right): ECE 0.010 on set 1, 0.022 on sets 2-4 held out (raw belief 0.086 / 0.101); "
        "with Choi left out the other genres give 0.39 and Choi's ECE is 0.42",
        within=_PROBABILITY,
    )
    confidence_run_topics: float = _confidence(
        0.42,
        "runs grouped into topics: the same base confidence",
        "QMSum val / PEPs val: ECE 0.021 / 0.027 (raw belief 0.163 / 0.257), mean 0.728 / 0.602 against 0.711 / "
        "0.605 of units right; fitted without the genre scored: ECE 0.031 / 0.069",
        within=_PROBABILITY,
    )
    confidence_sections: float = _confidence(
        0.95,
        "runs cut at the text's headings (its sections): the base confidence of the author's own sections",
        "PEPs train and val written as Markdown: every unit lies in its section (the headings are the gold there); "
        "kept below 1 for text whose headings do not mark a change of topic",
        within=_PROBABILITY,
    )
    confidence_belief: float = _confidence(
        0.03,
        "weight of the logit of a unit's raw belief in its label",
        "a grouped run's belief is one number per run (AUC 0.54-0.60 alone); beside the structure and the "
        "distance its weight fits 0.03",
        within=_real(0, 1e3),
    )
    confidence_distance: float = _confidence(
        0.38,
        "weight of the log of a unit's distance to the nearer end of its contiguous segment (1 at the edge)",
        "QMSum val: 0.42 of the units at a segment's edge are right, 0.81 of those 55 or more units in; AUC 0.64 / "
        "0.62 on QMSum val / PEPs val (raw belief 0.60 / 0.54)",
        within=_real(0, 1e3),
    )

    def __post_init__(self):
        for f in fields(self):
            value = validate(f.name, getattr(self, f.name), [f.metadata["within"]], owner="Policy.")
            object.__setattr__(self, f.name, value)  # NumPy's numbers become Python's
        if not self.gradual_full < self.gradual_effect:
            raise ValueError(
                f"Policy.gradual_full must be below Policy.gradual_effect ({self.gradual_effect!r}): the span "
                f"falls from run_scale at gradual_full to 1 at gradual_effect, got {self.gradual_full!r}"
            )

    def replace(self, **changes) -> Policy:
        """A copy with ``changes`` (unknown names are a ValueError naming them)."""
        unknown = sorted(set(changes) - {f.name for f in fields(self)})
        if unknown:
            raise ValueError(f"Policy has no field {', '.join(map(repr, unknown))}")
        return dataclasses.replace(self, **changes)

    def changed(self) -> dict:
        """The fields whose value differs from the shipped default, as {name: value}."""
        return {f.name: getattr(self, f.name) for f in fields(self) if getattr(self, f.name) != f.default}

    @classmethod
    def explain(cls, name: str) -> str:
        """A field's stage, default, reason and measurement, as one paragraph."""
        by_name = {f.name: f for f in fields(cls)}
        if name not in by_name:
            raise ValueError(f"Policy has no field {name!r}")
        f = by_name[name]
        measured = f"; measured: {f.metadata['measured']}" if f.metadata["measured"] else ""
        return (
            f"{name} = {f.default!r} ({f.metadata['stage']}; {f.metadata['within']}): {f.metadata['reason']}"
            f"{measured} (docs/policy.md#{name})"
        )

    @classmethod
    def table(cls) -> list[dict]:
        """Every field as {name, stage, default, reason, measured, within (the values it takes, in words), knob
        (what it is a knob of when it changes no result, else "")}, in the procedure's order."""
        rows = [
            {
                "name": f.name,
                "stage": f.metadata["stage"],
                "default": f.default,
                "reason": f.metadata["reason"],
                "measured": f.metadata["measured"],
                "within": str(f.metadata["within"]),
                "knob": f.metadata["knob"],
            }
            for f in fields(cls)
        ]
        return sorted(rows, key=lambda r: STAGES.index(r["stage"]))


#: The shipped policy: what every default of the package means.
DEFAULT_POLICY = Policy()
