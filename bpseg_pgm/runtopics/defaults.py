"""The constants of topics over runs, chosen on the development sets only.

Development sets (ARI; ``benchmarks/run_topics_study.py``, results in ``benchmarks/RESULTS.md`` §9):
set-1 interleaved Choi, QMSum train, PEPs-train round-robin (the sections of 2-4 PEPs dealt in turn,
gold = the PEP), Choi set 1, PEPs train. Run means are compared by their cosine once the document's
mean embedding is subtracted (centred cosine): on the runs of those documents it separates runs of one
source from runs of two with AUC 0.96 (interleaved) and 0.82 (round-robin PEPs), where the noise-corrected
distance of the means gave 0.87 / 0.81. Within one real document (QMSum, one PEP) the AUC is 0.58-0.59:
runs of one section are not more alike than runs of two, and grouping them can only cost, so the
threshold is high and a locality prior keeps neighbours together.
"""

from __future__ import annotations

__all__ = ["LAM", "LOCALITY", "MAX_DENSE_RUNS", "MAX_ROUNDS", "RETURNS_LOCALITY", "RETURNS_MAX_RUNS",
           "RETURNS_MIN_RUNS", "RETURNS_SILHOUETTE", "THRESHOLD", "UNARY_SCALE"]

#: Runs whose centred cosine exceeds this attract (same topic), below it they repel; also the linkage
#: cut that proposes the topics. 0.3 gained more on round-robin PEPs (0.459 against 0.424) and
#: interleaved (0.790 / 0.782) but cost PEPs train 0.014 and QMSum 0.006; 0.4 costs no set.
THRESHOLD = 0.4
#: Strength of the pairwise term, divided by the number of other runs (a run's total pull stays O(LAM)).
LAM = 30.0
#: Reading-order locality prior: giving neighbouring runs different topics costs this much (log scale).
#: 4 against 2: PEPs train 0.391 / 0.384, QMSum 0.522 / 0.519, round-robin PEPs 0.425 / 0.425.
LOCALITY = 4.0
#: Scale of the unary term: centred cosine of a run's mean to a topic's centre.
UNARY_SCALE = 1.0
#: Re-estimation rounds at most (centres from the labels, then BP again); stops when labels repeat.
MAX_ROUNDS = 3
#: Up to this many runs every pair is an edge; beyond, each run keeps its neighbours in reading order and
#: its ``SPARSE_NEIGHBORS`` most similar runs (the dense graph's messages grow as runs^2 x topics).
MAX_DENSE_RUNS = 200
SPARSE_NEIGHBORS = 10

#: The returns test (:mod:`.returns`): a best silhouette of the runs' average-linkage cuts at least this
#: says the runs fall into clear groups (topics that return). Development sets: 0.35 gains most on
#: round-robin PEPs (0.425 -> 0.502) and costs QMSum train 0.003, PEPs train 0.008 (0.45 would cost them
#: 0.000 / 0.001 and gain 0.035); left out (research subsets), each genre picks 0.35-0.45 and loses at
#: most 0.003 (benchmarks/RESULTS.md §11).
RETURNS_SILHOUETTE = 0.35
#: The returns test needs this many runs: below, every cut leaves topics of one run, whose silhouette is 0 by
#: definition, and two unrelated topics beside a dominant one look alike once centred (5 costs no development
#: set against 3: round-robin PEPs 0.502 either way).
RETURNS_MIN_RUNS = 5
#: ... and at most this many: the test was measured on documents of 2-23 runs; a long text of many unrelated
#: passages (a 500-unit concatenation of Choi documents has about 50 runs and 44 topics) is left to the
#: threshold cut, as before, and the test's cost (one silhouette per cut) stays small.
RETURNS_MAX_RUNS = 40
#: The reading-order prior once returns are found: weak (locality 0 gave round-robin PEPs 0.505 against
#: 0.502 at 1; the shipped 4 undid the grouping: 0.410).
RETURNS_LOCALITY = 1.0
