"""Choi passages cut into 2-3 pieces dealt round-robin (``choi-1-rr``, ``choi-234-rr``)."""

from collections import Counter

import numpy as np
import pytest

from bpseg_bench.choi import load_choi
from bpseg_bench.choi_round_robin import cut_sizes, make_choi_round_robin
from bpseg_bench.choi_sources import choi_passages
from bpseg_bench.corpus import LabelledDocument
from bpseg_pgm.utils.labels import n_runs


def choi_like(n_sources=8, lengths=(3, 5, 7, 10), set=1):
    """Choi-like documents: source s opens with "s<s> u0"; its passages are its first 3, 5, ... sentences."""
    docs = []
    for s in range(n_sources):
        segs = [[f"s{s} u{u}" for u in range(n)] for n in lengths]
        docs.append(
            LabelledDocument(
                f"{set}/x/{s}",
                [u for seg in segs for u in seg],
                [i for i, seg in enumerate(segs) for _ in seg],
                {"set": set},
            )
        )
    return docs


def pieces(doc):
    """(label, sentences) of each run of one label, in order."""
    out = []
    for u, g in zip(doc.units, doc.labels):
        if out and out[-1][0] == g:
            out[-1][1].append(u)
        else:
            out.append((g, [u]))
    return out


def test_pieces_are_dealt_in_turn_and_every_source_returns():
    docs = make_choi_round_robin(choi_like(), n_docs=30, seed=1)
    for doc in docs:
        runs = pieces(doc)
        k = len(set(doc.labels))
        counts = Counter(g for g, _ in runs)
        assert 2 <= k <= 4 and all(2 <= c <= 3 for c in counts.values())  # every source returns
        sizes = doc.meta["pieces"]
        assert len(runs) == sum(map(len, sizes))  # no two neighbours share a source (no pieces merged)
        assert [len(ps) for _, ps in runs] == [x[i] for i in range(3) for x in sizes if i < len(x)]
        assert all(len(ps) >= 2 for _, ps in runs)
        assert [g for g, _ in runs[:k]] == list(range(k))  # A1 B1 C1 ... then A2 B2 ...
        assert [g for g, _ in runs[k : 2 * k]] == [g for g in range(k) if counts[g] >= 2]
        assert [g for g, _ in runs[2 * k :]] == [g for g in range(k) if counts[g] == 3]
        for g in range(k):  # gold = source passage: a label's pieces, in order, are one whole passage
            text = [u for h, ps in runs if h == g for u in ps]
            s = text[0].split()[0]
            assert text == [f"{s} u{u}" for u in range(len(text))] and len(text) in (5, 7, 10)
        assert len({u.split()[0] for u in doc.units}) == k  # distinct sources
        assert len(doc.meta["passages"]) == k and doc.meta["sets"] == [1]
    assert len({tuple(len(ps) for _, ps in pieces(d)) for d in docs}) > 10  # cut points vary


def test_no_neighbours_repeat_when_one_source_has_more_pieces():
    # the only 3-piece passage is dealt first, so its third piece follows a piece of another source
    docs = make_choi_round_robin(choi_like(lengths=(4, 6)), n_docs=40, seed=2, max_sources=2)
    assert any(sorted(map(len, d.meta["pieces"])) == [2, 3] for d in docs)
    assert all(n_runs(list(d.labels)) == sum(map(len, d.meta["pieces"])) for d in docs)


def test_seeded_and_deterministic():
    a = make_choi_round_robin(choi_like(), n_docs=5, seed=3)
    b = make_choi_round_robin(choi_like(), n_docs=5, seed=3)
    c = make_choi_round_robin(choi_like(), n_docs=5, seed=4)
    assert [(d.doc_id, d.units, d.labels) for d in a] == [(d.doc_id, d.units, d.labels) for d in b]
    assert [d.units for d in a] != [d.units for d in c]
    assert a[0].doc_id == "choi-rr/3/0"


def test_cut_sizes_are_uniform_over_the_ways_to_cut():
    rng = np.random.default_rng(0)
    seen = Counter(tuple(cut_sizes(7, 3, 2, rng)) for _ in range(3000))
    assert set(seen) == {(2, 2, 3), (2, 3, 2), (3, 2, 2)}  # every cut of 7 into 3 pieces of >= 2
    assert min(seen.values()) > 900
    assert cut_sizes(4, 2, 2, rng).tolist() == [2, 2]
    with pytest.raises(ValueError, match="cannot cut 5 sentences into 3 pieces"):
        cut_sizes(5, 3, 2, rng)


@pytest.mark.parametrize(
    "kwargs, match",
    [
        ({"n_docs": 0}, "n_docs must be >= 1"),
        ({"n_docs": 2.5}, "n_docs must be an integer"),
        ({"min_sources": 1}, "2 <= min_sources <= max_sources"),
        ({"min_sources": 4, "max_sources": 3}, "2 <= min_sources <= max_sources"),
        ({"min_pieces": 1}, "2 <= min_pieces <= max_pieces"),
        ({"min_pieces": 3, "max_pieces": 2}, "2 <= min_pieces <= max_pieces"),
        ({"min_piece": 0}, "min_piece must be >= 1"),
        ({"min_piece": 6}, "need at least 4 sources with a passage of 12 or more sentences, got 0"),
    ],
)
def test_bad_parameters(kwargs, match):
    with pytest.raises(ValueError, match=match):
        make_choi_round_robin(choi_like(), **kwargs)


def test_too_few_sources():
    with pytest.raises(ValueError, match="need at least 4 sources"):
        make_choi_round_robin(choi_like(n_sources=3))
    dev = choi_like(n_sources=5)
    with pytest.raises(ValueError, match="got 3"):  # excluded sources are not drawn
        make_choi_round_robin(choi_like(n_sources=8), exclude=dev)


def test_real_dev_and_held_out_sets_share_no_source(choi_dir):
    set1 = load_choi(choi_dir, sets=[1])
    dev = make_choi_round_robin(set1, n_docs=20, seed=0)
    held = make_choi_round_robin(load_choi(choi_dir, sets=[2, 3, 4]), n_docs=20, seed=0, exclude=set1)
    dev_sources = {p.source for p in choi_passages(set1)}

    def sources(doc):  # the first sentence of each label's first piece: the passage's source
        return {next(u for u, g in zip(doc.units, doc.labels) if g == lab) for lab in set(doc.labels)}

    assert all(sources(d) <= dev_sources for d in dev)
    assert not any(sources(d) & dev_sources for d in held)
    assert all(d.meta["sets"] == [4] for d in held)
