"""Round-robin documents: sections of 2-4 sources dealt in turn, gold = the source."""

import pytest

from bpseg_bench.corpus import LabelledDocument
from bpseg_bench.round_robin import make_round_robin
from bpseg_pgm.utils.labels import n_runs


def sources(n=6, sections=5, size=3):
    return [
        LabelledDocument(
            f"d{d}",
            [f"d{d} s{s} u{u}" for s in range(sections) for u in range(size)],
            [f"h{s}" for s in range(sections) for _ in range(size)],
        )
        for d in range(n)
    ]


def test_sections_are_dealt_in_turn_and_labelled_by_source():
    docs = make_round_robin(sources(), n_docs=8, seed=1, max_sections=4)
    for doc in docs:
        k = len(doc.meta["sources"])
        assert 2 <= k <= 4 and len(set(doc.labels)) == k
        assert len(doc.units) == k * 4 * 3 and n_runs(list(doc.labels)) == k * 4  # every section a run: all return
        first = [u.split()[0] for u in doc.units[::3]]
        assert len(set(first[:k])) == k and first[k : 2 * k] == first[:k]  # A1 B1 C1 ... then A2 B2 C2 ...
        assert [u.split()[1] for u in doc.units[::3]] == [f"s{i // k}" for i in range(k * 4)]


def test_seeded_and_checked():
    assert [d.units for d in make_round_robin(sources(), n_docs=3, seed=4)] == [
        d.units for d in make_round_robin(sources(), n_docs=3, seed=4)
    ]
    with pytest.raises(ValueError, match="n_docs"):
        make_round_robin(sources(), n_docs=0)
    with pytest.raises(ValueError, match="at least 4 source"):
        make_round_robin(sources(3))
    with pytest.raises(ValueError, match="max_sections"):
        make_round_robin(sources(), max_sections=0)
