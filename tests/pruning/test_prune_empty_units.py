"""Issue 22: prune and segment_sentences follow one policy for empty units in a list of units.

An empty or whitespace-only unit is not embedded, never kept, scored NaN, and lies in the segment of
its nearest non-empty neighbour (the previous one, else the next); the result keeps one entry per unit.
"""

import numpy as np

from bpseg_pgm.pruning import prune
from bpseg_pgm.text.checks import unit_sources
from bpseg_pgm.text.pipeline import segment_sentences
from bpseg_pgm.utils.labels import run_starts

TENNIS = [
    "The tennis final was played on the hard court at noon.",
    "Her tennis serve won the final set of the tournament.",
    "The tennis tournament gives the winner a silver trophy.",
]
WEATHER = [
    "Heavy rain and strong wind are expected over the coast tonight.",
    "The forecast says rain will turn to snow in the mountains.",
    "Cold wind and snow will close the mountain roads tomorrow.",
]
UNITS = [" ", *TENNIS, "", *WEATHER, "\t", *TENNIS, ""]


class _Recording:
    def __init__(self, inner):
        self.inner, self.seen, self.model_name = inner, [], "recording"

    def encode(self, sentences):
        self.seen.extend(sentences)
        return self.inner.encode(sentences)

    def count_tokens(self, texts):
        return self.inner.count_tokens(texts)


def test_prune_and_segment_sentences_share_the_empty_unit_policy(fake_embedder):
    emb = _Recording(fake_embedder)
    res = prune(UNITS, "tennis tournament", budget=0.5, embedder=emb)
    assert all(s.strip() for s in emb.seen)  # no empty unit embedded
    assert len(res.units) == len(res.scores) == len(UNITS)
    empty = [i for i, u in enumerate(UNITS) if not u.strip()]
    assert np.isnan(res.scores[empty]).all() and not set(res.kept) & set(empty)
    segment_of = np.empty(len(UNITS), dtype=int)
    for j, (a, b) in enumerate(res.segments):
        segment_of[a:b] = j
    assert (segment_of == segment_of[unit_sources(UNITS)]).all()  # each empty unit: its neighbour's segment

    seg = segment_sentences(UNITS, embedder=fake_embedder, structure="runs")
    assert len(seg.labels) == len(UNITS)
    assert (seg.labels == seg.labels[unit_sources(UNITS)]).all()
    # the same runs: prune's segments are BPSeg(structure="runs") over the same units and weights
    assert run_starts(seg.labels).tolist() == [a for a, _ in res.segments]
