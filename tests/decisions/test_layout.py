"""The document's structure as evidence: where runs may start and, with headings, how many."""

import numpy as np
import pytest

from bpseg_pgm import BPSeg, Policy, Units
from bpseg_pgm.decisions.layout import Layout, document_layout, heading_starts, paragraph_starts
from bpseg_pgm.policy import DEFAULT_POLICY as P


def test_paragraph_and_heading_starts():
    assert paragraph_starts(np.array([0, 0, 1, 1, 1, 2])).tolist() == [2, 5]
    assert paragraph_starts(None).size == 0
    h = np.array([1, 0, 2, 0, 1, 0, 2, 0])
    assert heading_starts(h).tolist() == [2, 4, 6]  # the opening heading cuts nothing
    assert heading_starts(h, 1).tolist() == [4]


def test_headings_auto_gives_the_top_level_sections():
    h = np.array([1, 0, 2, 0, 1, 0, 2, 0])
    lay = document_layout(None, h, "auto", P)
    assert lay.evidence == "headings" and lay.sections == 2 and lay.starts.tolist() == [4]
    # a lone title at the top: its sub-headings are the sections
    lay = document_layout(None, np.array([1, 0, 2, 0, 0, 2, 0]), "auto", P)
    assert lay.sections == 3 and lay.starts.tolist() == [2, 5]


def test_headings_given_k_keep_the_top_level_then_go_finer_then_to_paragraphs_then_anywhere():
    h = np.array([1, 0, 2, 0, 1, 0, 2, 0])
    p = np.array([0, 1, 2, 3, 4, 5, 6, 7])
    for k in (2, 3, 6, 8):
        lay = document_layout(p, h, k, P)
        assert lay.evidence == "headings" and lay.starts.tolist() == [4], k  # the top level, always
        assert [f.tolist() for f in lay.finer] == [[2, 4, 6], list(range(1, 8))], k  # sub-headings, paragraphs
    assert document_layout(np.zeros(8, int), h, 4, P).finer[-1].tolist() == [2, 4, 6]
    # more segments than the headings and paragraphs make: every one kept, then anywhere (still the headings' runs)
    for para, k in ((np.zeros(8, int), 5), (p, 9)):
        lay = document_layout(para, h, k, P)
        assert lay.evidence == "headings" and lay.starts.tolist() == [4], k
        assert lay.finer[-1].tolist() == list(range(1, 8)) and lay.finer[-2].tolist() == sorted(
            {2, 4, 6, *paragraph_starts(para).tolist()}
        )


def test_headings_auto_keep_the_finer_levels_for_a_recut():
    h = np.array([1, 0, 2, 0, 1, 0, 2, 0])
    lay = document_layout(np.arange(8), h, "auto", P)
    assert lay.sections == 2 and [f.tolist() for f in lay.finer] == [[2, 4, 6], list(range(1, 8))]


def test_paragraphs_need_policy_minimum():
    p = np.array([0, 0, 0, 1, 1, 1])
    assert document_layout(p, None, "auto", P) == Layout()  # 2 paragraphs < paragraph_min 3
    lay = document_layout(p, None, "auto", Policy(paragraph_min=2))
    assert lay.evidence == "paragraphs" and lay.starts.tolist() == [3] and lay.sections is None
    p3 = np.repeat([0, 1, 2], 3)
    assert document_layout(p3, None, 3, P).starts.tolist() == [3, 6]
    assert document_layout(p3, None, 4, P) == Layout()  # more segments than paragraphs: anywhere


def _planted(seed=0, sizes=(12, 12, 12), d=16):
    rng = np.random.default_rng(seed)
    centers = rng.normal(size=(len(sizes), d)) * 3
    return np.vstack([c + rng.normal(size=(m, d)) for c, m in zip(centers, sizes)])


def test_runs_start_only_at_paragraphs():
    X = _planted()
    # paragraphs every 5 units: the true boundaries (12, 24) are not paragraph starts
    para = np.arange(36) // 5
    est = BPSeg(structure="runs", n_segments=3).fit(Units(X, paragraphs=para))
    cuts = np.flatnonzero(np.diff(est.labels_)) + 1
    assert set(cuts.tolist()) <= set(range(5, 36, 5)) and len(cuts) == 2
    assert est.evidence_ == "paragraphs"
    free = BPSeg(structure="runs", n_segments=3).fit(Units(X))
    assert (np.flatnonzero(np.diff(free.labels_)) + 1).tolist() == [12, 24]
    assert free.evidence_ is None


def test_headings_decide_the_sections_under_auto():
    X = _planted(sizes=(10, 10, 10, 10))
    h = np.zeros(40, int)
    h[[0, 7, 20, 33]] = 1  # sections that disagree with the planted topics: the headings win
    est = BPSeg().fit(Units(X, headings=h))
    assert (np.flatnonzero(np.diff(est.labels_)) + 1).tolist() == [7, 20, 33]
    assert est.structure_ == "runs" and est.evidence_ == "headings"
    assert np.allclose(est.beliefs_.sum(axis=1), 1) and np.all(np.isfinite(est.beliefs_))


def test_topics_asked_ignores_the_layout():
    X = _planted()
    h = np.zeros(36, int)
    h[[0, 5]] = 1
    est = BPSeg(structure="topics", n_segments=3, random_state=0).fit(Units(X, headings=h))
    ref = BPSeg(structure="topics", n_segments=3, random_state=0).fit(Units(X))
    assert np.array_equal(est.labels_, ref.labels_) and est.evidence_ is None


@pytest.mark.parametrize(
    "kwargs, message",
    [
        ({"paragraphs": [0, 1]}, "one value per unit"),
        ({"paragraphs": np.arange(36)[::-1]}, "non-decreasing"),
        ({"headings": -np.ones(36, int)}, ">= 0"),
        ({"headings": np.full(36, 0.5)}, "integers"),
    ],
)
def test_units_layout_is_checked(kwargs, message):
    with pytest.raises(ValueError, match=message):
        Units(_planted(), **kwargs)


def _sections(count, seed=0, d=16):
    """``count`` sections of a heading unit and one text unit: every heading alike ("Part i"), the texts cycling
    through three topics (the issue's reproduction as vectors). Returns the rows and the heading levels."""
    rng = np.random.default_rng(seed)
    topics, head = rng.normal(size=(3, d)), rng.normal(size=d)
    X = np.vstack([np.vstack([head, topics[i % 3]]) + 0.3 * rng.normal(size=(2, d)) for i in range(count)])
    h = np.tile([2, 0], count)
    return X, h


def _cuts(labels):
    return set((np.flatnonzero(np.diff(labels)) + 1).tolist())


@pytest.mark.parametrize("candidates", [1000, 40])
def test_headings_decide_the_cuts_past_max_candidates(candidates):
    # more headings than Policy.max_candidates: every segment still starts at a heading (binary segmentation
    # samples among the headings, not among every unit)
    X, h = _sections(candidates + 2)
    policy = Policy(max_candidates=candidates)
    heads = set(np.flatnonzero(h).tolist())
    auto = BPSeg(policy=policy).fit(Units(X, headings=h))
    assert auto.evidence_ == "headings" and auto.labels_.max() + 1 == candidates + 2
    assert _cuts(auto.labels_) <= heads
    given = BPSeg(n_segments=10, policy=policy).fit(Units(X, headings=h))
    assert given.evidence_ == "headings" and given.labels_.max() + 1 == 10
    assert _cuts(given.labels_) <= heads


def test_paragraphs_decide_the_cuts_past_max_candidates():
    # 1.5 x max_candidates paragraphs of two sentences, each sentence of another topic: the runs start at
    # paragraphs only, as they do below max_candidates
    candidates = 40
    rng = np.random.default_rng(1)
    topics = rng.normal(size=(3, 16))
    count = 3 * candidates // 2
    X = np.vstack([topics[(i + j) % 3] + 0.3 * rng.normal(size=16) for i in range(count) for j in range(2)])
    para = np.repeat(np.arange(count), 2)
    est = BPSeg(structure="runs", n_segments=count // 2, policy=Policy(max_candidates=candidates))
    est.fit(Units(X, paragraphs=para))
    assert est.evidence_ == "paragraphs" and est.labels_.max() + 1 == count // 2
    assert _cuts(est.labels_) <= set(range(2, 2 * count, 2))


def test_more_segments_than_headings_and_paragraphs_allow_split_inside_them():
    # 3 sections, 9 units (a heading and two sentences each), k = 7: the runs keep every heading and paragraph
    # and cut further inside them; the topic model is not the fallback
    X = _planted(sizes=(3, 3, 3))
    h = np.array([1, 0, 0] * 3)
    para = np.array([0, 1, 1, 2, 3, 3, 4, 5, 5])
    est = BPSeg(n_segments=7).fit(Units(X, paragraphs=para, headings=h))
    assert est.structure_ == "runs" and est.evidence_ == "headings"
    assert est.labels_.max() + 1 == 7 and _cuts(est.labels_) >= {1, 3, 4, 6, 7}


class _TopicEmbedder:
    """Each sentence near the direction of the first topic word it holds (no model)."""

    model_name = "topic-words"
    WORDS = ("cat", "market", "recipe", "heading")

    def encode(self, sentences):
        rng = np.random.default_rng(0)
        rows = []
        for s in sentences:
            i = next((j for j, w in enumerate(self.WORDS) if w in s.lower()), len(self.WORDS) - 1)
            rows.append(np.eye(8)[i] + 0.2 * rng.normal(size=8))
        return np.asarray(rows)


def test_segment_text_markdown_given_more_segments_than_its_sections():
    from bpseg_pgm.text.pipeline import segment_text

    md = (
        "# Cats heading\n\nThe cat sat on the mat. A cat purrs.\n\n"
        "# Markets heading\n\nThe market fell. Market makers sold.\n\n"
        "# Recipes heading\n\nThe recipe needs eggs. The recipe needs flour.\n"
    )
    seg = segment_text(md, 7, embedder=_TopicEmbedder(), show_progress=False)
    assert len(seg.sentences) == 9 and seg.n_segments == 7
    assert seg.structure == "runs" and seg.evidence == "headings" and seg.fewer_than_requested() is None
    starts = {seg.runs[r][0] for r in range(seg.n_runs)}
    assert starts >= {0, 3, 6} | {1, 4, 7}  # every heading and paragraph starts a segment


def test_more_sections_than_candidates_and_more_segments_than_sections():
    # 42 sections (more than the 40 candidates), each a heading and a paragraph of two sentences, k = 60: the runs
    # start at headings and paragraphs only, never at a paragraph's second sentence (before: "60 runs asked for,
    # but runs may start at only 42 units")
    rng = np.random.default_rng(2)
    topics = rng.normal(size=(3, 16))
    X = np.vstack([topics[(i // 3 + i % 3) % 3] + 0.3 * rng.normal(size=16) for i in range(126)])
    h = np.tile([1, 0, 0], 42)
    para = 2 * (np.arange(126) // 3) + (np.arange(126) % 3 > 0)
    est = BPSeg(n_segments=60, policy=Policy(max_candidates=40)).fit(Units(X, paragraphs=para, headings=h))
    assert est.labels_.max() + 1 == 60 and est.evidence_ == "headings"
    assert all(c % 3 != 2 for c in _cuts(est.labels_))
