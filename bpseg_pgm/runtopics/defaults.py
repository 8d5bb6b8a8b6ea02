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

__all__ = ["LAM", "LOCALITY", "MAX_DENSE_RUNS", "MAX_ROUNDS", "THRESHOLD", "UNARY_SCALE"]

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
