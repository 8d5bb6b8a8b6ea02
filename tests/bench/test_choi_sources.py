"""Choi passages and their sources (the Brown document a segment opens); held-out sets share no source."""

from bpseg_bench.choi import load_choi
from bpseg_bench.choi_sources import choi_passages, group_by_source, source_segments
from bpseg_bench.corpus import LabelledDocument


def doc(doc_id, segments, set=1):
    """A Choi-like document: one label per segment."""
    units = [s for seg in segments for s in seg]
    labels = [i for i, seg in enumerate(segments) for _ in seg]
    return LabelledDocument(doc_id, units, labels, {"set": set})


A = [f"a{i}" for i in range(9)]  # one "Brown document": its passages are its prefixes
B = [f"b{i}" for i in range(9)]
C = [f"c{i}" for i in range(9)]


def test_passages_are_distinct_segments_grouped_by_their_first_sentence():
    docs = [doc("1/x/0", [A[:3], B[:5]]), doc("1/x/1", [A[:6], A[:3], C[:4]])]
    passages = choi_passages(docs)
    assert [p.sentences for p in passages] == [tuple(A[:3]), tuple(B[:5]), tuple(A[:6]), tuple(C[:4])]
    assert [p.where for p in passages] == ["1/x/0#0", "1/x/0#1", "1/x/1#0", "1/x/1#2"]
    assert {p.set for p in passages} == {1}
    groups = group_by_source(passages)
    assert [[p.sentences for p in g] for g in groups] == [[tuple(A[:3]), tuple(A[:6])], [tuple(B[:5])], [tuple(C[:4])]]
    assert source_segments(docs) == [p.sentences for p in passages]


def test_exclude_drops_every_passage_of_an_excluded_source():
    dev = [doc("1/x/0", [A[:3], B[:3]])]
    other = [doc("4/x/0", [A[:9], C[:5], B[:4]], set=4)]
    kept = choi_passages(other, exclude=dev)
    assert [p.sentences for p in kept] == [tuple(C[:5])] and kept[0].set == 4


def test_real_sets_2_4_less_set_1_share_no_source_with_set_1(choi_dir):
    set1 = load_choi(choi_dir, sets=[1])
    held = choi_passages(load_choi(choi_dir, sets=[2, 3, 4]), exclude=set1)
    dev_sources = {p.source for p in choi_passages(set1)}
    assert held and not {p.source for p in held} & dev_sources
    assert len(group_by_source(held)) >= 200  # set 4's new Brown documents (275)
    dev_words = {s for seg in source_segments(set1) for s in seg if len(s.split()) > 3}
    assert not any(s in dev_words for p in held for s in p.sentences)  # no real sentence of set 1 either


def test_a_document_without_a_set_gives_passages_without_one():
    plain = [LabelledDocument("d", A[:4], [0, 0, 1, 1])]
    assert [p.set for p in choi_passages(plain)] == [None, None]
