"""Every Policy field reaches what it decides: set to another value in its range, it changes some output of the
library (a fit's labels, beliefs, structure or counts; the unit weights; the layout; the confidence; what prune
keeps), or it is marked in the Policy's metadata as a speed, memory or display knob."""

from dataclasses import fields

import numpy as np
import pytest
from planted import gradual_document, planted_blocks, planted_words, returning_runs

from bpseg_pgm.confidence import calibrated_confidence
from bpseg_pgm.decisions.layout import document_layout
from bpseg_pgm.estimator import BPSeg
from bpseg_pgm.features.units import Units
from bpseg_pgm.policy import DEFAULT_POLICY, KNOBS, Policy
from bpseg_pgm.pruning import relevance, segment_runs, select_runs

FIELDS = {f.name: f for f in fields(Policy)}

#: a value of each field, other than its default, under which some output below changes
CHANGED = {
    "chunk_context_sentences": 0,
    "word_scale": 1000.0,
    "paragraph_min": 2,
    "smoothing": 3.0,
    "null_block": 0.0,
    "null_units": 0,
    "auto_max_runs": 2,
    "max_candidates": 2,
    "window": 2,
    "window_share": 1,
    "correlation_window": 16,
    "correlation_min_weight": 1.0,
    "correlation_min_units": 1000,
    "null_max_shuffles": 1,
    "smoothing_min_width": 1000.0,
    "word_weight": 1000.0,
    "gradual_effect": 1000.0,
    "topic_silhouette": 1.0,
    "topic_runs_ratio": 0.0,
    "silhouette_max_units": 2,
    "run_scale": 1.0,
    "gradual_full": 0.45,
    "evidence_penalty": 1000.0,
    "max_evidence_levels": 2,
    "auto_max_segments": 1,
    "auto_segments_per_root": 0.1,
    "em_round_sweeps": 1,
    "topic_min_mass": 100.0,
    "context_persistence_full": 1.0,
    "topic_dense_units": 0,
    "topic_sparse_neighbors": 0,
    "group_threshold": -1.0,
    "group_lam": 0.0,
    "group_locality": 100.0,
    "group_unary_scale": 0.0,
    "group_max_rounds": 1,
    "group_max_dense_runs": 0,
    "group_sparse_neighbors": 0,
    "group_max_iter": 1,
    "group_tol": 1e6,
    "group_retry_damping": 0.99,
    "group_retry_sweeps": 1,
    "returns_silhouette": 1.0,
    "returns_min_runs": 1000,
    "returns_max_runs": 2,
    "returns_locality": 100.0,
    "prune_budget": 1.0,
    "prune_bm25_weight": 100.0,
    "prune_top_m": 8,
    "prune_part_units": 1,
    "prune_block": 3,
    "confidence_runs": 0.99,
    "confidence_topics": 0.01,
    "confidence_run_topics": 0.99,
    "confidence_sections": 0.01,
    "confidence_belief": 100.0,
    "confidence_distance": 100.0,
}


def _docs():
    abrupt, _ = planted_blocks((15, 15, 15, 15), dim=24, noise=0.3, seed=1)
    noisy, _ = planted_blocks((15, 15, 15, 15), dim=24, noise=0.5, seed=1)
    gradual = gradual_document(n_blocks=6, block=30, dim=32, shift=0.4, seed=2)
    words = planted_words(n_blocks=6, block=30, vocab=10, per=5, seed=2)
    returning, _, _ = returning_runs(order=(0, 1, 0, 2, 1, 0, 2, 1), size=15, d=24, spread=0.5, seed=3)
    sharp, _, _ = returning_runs(order=(0, 1, 0, 2, 1, 0), size=20, d=24, seed=3)
    return [
        (abrupt, None, {}),  # abrupt: the topic model, kept as clusters
        (abrupt, None, {"structure": "topics", "sigma": None}),  # the topic model, k automatic, no distance decay
        (noisy, None, {}),  # noisier: runs grouped into topics
        (gradual, words, {}),  # gradual, with words: runs grouped into topics
        (gradual, words, {"structure": "runs", "group_runs": False}),
        (returning, None, {"structure": "runs", "group_runs": True}),  # runs whose topics return
        (returning, None, {"n_segments": 3, "structure": "topics"}),
        (sharp, None, {"structure": "runs"}),
    ]


def _outputs(policy: Policy) -> list:
    out = []
    for X, counts, params in _docs():
        units = Units(X, weights=np.linspace(0.2, 1.0, len(X)), word_counts=counts)
        m = BPSeg(random_state=0, policy=policy, **params).fit(units)
        out += [m.structure_, m.labels_.tolist(), np.round(m.beliefs_, 6).tolist(), m.n_iter_, str(m.granularity_)]
        out.append(np.round(calibrated_confidence(m.beliefs_.max(axis=1), m.labels_, m.structure_, policy), 6).tolist())
    out.append(np.round(calibrated_confidence(np.full(6, 0.5), [0, 0, 0, 1, 1, 1], "sections", policy), 6).tolist())
    sentences = ["Yeah .", "The committee approved the new budget today .", "Okay .", "Fine then ."]
    out.append(np.round(Units.from_sentences(sentences, embeddings=np.eye(4), policy=policy).weights, 6).tolist())
    out.append(str(document_layout(np.array([0, 0, 0, 1, 1, 1]), None, "auto", policy)))
    X, _ = planted_blocks((8, 8, 8), dim=16, noise=0.4, seed=4)
    bm25 = np.linspace(1.0, 0.0, 24)
    r = relevance(X, X[3] + X[20], bm25, policy.prune_bm25_weight)
    starts = segment_runs(X, ["unit"] * 24, "auto", policy)
    costs = np.arange(1, 25) % 5 + 1
    kept = select_runs(r, starts, costs, 20, top_m=policy.prune_top_m, part_units=policy.prune_part_units)
    out += [starts.tolist(), kept.tolist(), policy.prune_budget]
    return out


@pytest.fixture(scope="module")
def shipped():
    return _outputs(DEFAULT_POLICY)


def test_every_field_has_a_changed_value_or_is_a_knob():
    knobs = {name for name, f in FIELDS.items() if f.metadata["knob"]}
    assert {FIELDS[name].metadata["knob"] for name in knobs} <= set(KNOBS)
    assert sorted(set(CHANGED) | knobs) == sorted(FIELDS) and not set(CHANGED) & knobs


#: the other fields a field needs set to count on these small documents (a graph made sparse, a grouping that
#: does not converge at once): the field is compared with and without its change, both under these
CONTEXT = {
    "topic_sparse_neighbors": {"topic_dense_units": 0},
    "group_sparse_neighbors": {"group_max_dense_runs": 0},
    "group_max_dense_runs": {"group_sparse_neighbors": 1},
    "group_retry_damping": {"group_max_iter": 1},
    "group_retry_sweeps": {"group_max_iter": 1},
}


#: fields whose effect the documents above do not show (they act on longer documents, more runs than candidates,
#: words that disagree with the embeddings, or a grouping that needs a second round): each is shown on a document
#: of its own below, under the other fields it needs set (a field and its context: compared with and without it)
SHOWN_APART = {
    "group_max_rounds": {},
    "max_evidence_levels": {},
    "window": {"max_candidates": 8},
    "window_share": {"max_candidates": 8, "window": 60},
    "word_weight": {},
}


#: fields that act on the chunks of a segmentation, not on the fit: shown by test_a_chunk_field_reaches_the_chunks
CHUNK_FIELDS = {"chunk_context_sentences"}


@pytest.mark.parametrize("name", [n for n in sorted(CHANGED) if n not in SHOWN_APART and n not in CHUNK_FIELDS])
def test_the_field_changes_some_output(name, shipped):
    assert CHANGED[name] != FIELDS[name].default
    base = DEFAULT_POLICY.replace(**CONTEXT.get(name, {}))
    before = shipped if name not in CONTEXT else _outputs(base)
    assert _outputs(base.replace(**{name: CHANGED[name]})) != before, f"Policy.{name} changed no output"


def _apart(name):
    """The document and the parameters on which ``name`` shows (see SHOWN_APART)."""
    if name == "group_max_rounds":  # runs whose grouping takes a second round
        X, _, _ = returning_runs(order=(0, 1, 0, 2, 1, 3, 0, 2, 3, 1), size=12, d=24, spread=0.3, seed=2)
        return Units(X), {"structure": "runs", "group_runs": True}
    if name == "max_evidence_levels":  # the words' best level lies between the span rule's and the finest
        X = gradual_document(n_blocks=12, block=20, dim=32, shift=0.4, seed=2)
        words = planted_words(n_blocks=7, block=34, vocab=10, per=5, seed=2)
        words = np.vstack([words, np.zeros((len(X) - len(words), words.shape[1]))])
        return Units(X, word_counts=words), {}
    if name == "word_weight":  # words whose blocks are not the embeddings' (9 blocks of 20 against 6 of 30)
        X = gradual_document(n_blocks=6, block=30, dim=32, shift=0.4, seed=2)
        words = planted_words(n_blocks=9, block=20, vocab=10, per=5, seed=2)
        return Units(X, weights=np.linspace(0.2, 1.0, len(X)), word_counts=words), {
            "structure": "runs",
            "n_segments": 6,
        }
    # window, window_share: more runs than candidates, cut in windows; many short runs, then one long one
    X, _ = planted_blocks([5] * 24 + [120], dim=32, noise=0.3, seed=5)
    return Units(X), {"structure": "runs", "n_segments": 25}


@pytest.mark.parametrize("name", sorted(SHOWN_APART))
def test_the_field_changes_the_output_of_its_own_document(name):
    assert CHANGED[name] != FIELDS[name].default
    units, params = _apart(name)
    base = DEFAULT_POLICY.replace(**SHOWN_APART[name])

    def output(policy):
        m = BPSeg(random_state=0, policy=policy, **params).fit(units)
        return [m.structure_, m.labels_.tolist(), np.round(m.beliefs_, 6).tolist(), str(m.granularity_)]

    assert output(base.replace(**{name: CHANGED[name]})) != output(base), f"Policy.{name} changed no output"


@pytest.mark.parametrize("name", sorted(CHUNK_FIELDS))
def test_a_chunk_field_reaches_the_chunks(name):
    """The policy a segmentation was fitted with (``params["policy"]``) decides its chunks' defaults."""
    from bpseg_pgm.text.segmentation import Segmentation
    from bpseg_pgm.text.split import sentence_spans

    text = "The cat sat down. The dog ran off. Rain fell all day. The river rose fast."
    spans = sentence_spans(text)
    labels = np.array([0, 0, 1, 1])
    beliefs = np.where(labels[:, None] == np.arange(2), 0.9, 0.1)

    def chunks(policy):
        seg = Segmentation(
            [text[a:b] for a, b in spans], labels, [[0, 1], [2, 3]], beliefs, text=text, spans=spans,
            params={"policy": policy},
        )  # fmt: skip
        return [c.to_dict() for c in seg.chunks(count_tokens=lambda xs: [len(x.split()) for x in xs])]

    assert CHANGED[name] != FIELDS[name].default
    assert chunks(DEFAULT_POLICY.replace(**{name: CHANGED[name]})) != chunks(DEFAULT_POLICY)
