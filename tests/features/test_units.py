"""Units: one feature step, so that BPSeg().fit(units) is the model segment_sentences fits."""

import numpy as np
import pytest
import scipy.sparse as sp

from bpseg_pgm.estimator import BPSeg
from bpseg_pgm.features import Units, unit_weights, unit_word_counts
from bpseg_pgm.policy import DEFAULT_POLICY as P
from bpseg_pgm.text import segment_sentences

TOPICS = {
    "cats": [
        "The cat sleeps on the warm sofa.",
        "Cats purr loudly when they are content.",
        "A cat chases mice in the garden.",
        "Kittens play with yarn all day.",
    ],
    "bonds": [
        "Bond yields rose sharply this week.",
        "The government bonds matured in May.",
        "Yields of long bonds fell after the report.",
        "Investors bought treasury bonds.",
    ],
    "rain": [
        "Heavy rain flooded the streets.",
        "The storm brought thunder and rain.",
        "Rain is expected again tomorrow.",
        "Umbrellas sold out during the downpour.",
    ],
}


class PlantedEmbedder:
    """Embeds each sentence near its topic's direction (deterministic): no model needed."""

    def __init__(self):
        self.calls = 0

    def encode(self, sentences):
        self.calls += 1
        rng = np.random.default_rng(len(sentences))
        names = list(TOPICS)
        out = []
        for s in sentences:
            topic = next(i for i, t in enumerate(names) if s in TOPICS[t])
            out.append(np.eye(16)[topic] + 0.15 * rng.normal(size=16))
        return np.asarray(out)


def _sentences(repeats=3):
    return [s for _ in range(repeats) for t in TOPICS for s in TOPICS[t]]


def test_from_sentences_builds_embeddings_weights_and_words():
    s = _sentences(1)
    units = Units.from_sentences(s, PlantedEmbedder())
    assert units.embeddings.shape == (len(s), 16) and len(units) == len(s)
    np.testing.assert_array_equal(units.weights, unit_weights(s, P.word_scale))
    assert sp.issparse(units.word_counts)
    assert (units.word_counts != unit_word_counts(s)).nnz == 0
    assert Units.from_sentences(s, PlantedEmbedder(), words=False).word_counts is None


def _in_reading_order(labels):
    """Labels renumbered 0, 1, ... in order of first appearance (as a Segmentation numbers them)."""
    first = {}
    return np.array([first.setdefault(int(x), len(first)) for x in labels])


@pytest.mark.parametrize(
    "k, params",
    [
        ("auto", {}),
        ("auto", {"structure": "runs"}),
        ("auto", {"structure": "topics"}),
        (3, {}),
        (3, {"structure": "runs"}),
    ],
)
def test_bpseg_on_units_gives_the_labels_segment_sentences_gives(k, params):
    s = _sentences()
    seg = segment_sentences(s, k, embedder=PlantedEmbedder(), random_state=0, **params)
    units = Units.from_sentences(s, PlantedEmbedder(), words=params.get("structure") != "topics")
    labels = BPSeg(n_segments=k, random_state=0, **params).fit(units).labels_
    np.testing.assert_array_equal(_in_reading_order(labels), seg.labels)


def test_bare_embeddings_are_a_different_model_without_the_words():
    s = _sentences()
    units = Units.from_sentences(s, PlantedEmbedder())
    with_words = BPSeg(random_state=0, structure="runs").fit(units)
    bare = BPSeg(random_state=0, structure="runs").fit(units.embeddings)
    assert with_words.runs_.word_alpha is not None and bare.runs_.word_alpha is None


def test_arguments_given_with_units_replace_its_own():
    s = _sentences()
    units = Units.from_sentences(s, PlantedEmbedder())
    ones = BPSeg(random_state=0, structure="runs").fit(units, sample_weight=np.ones(len(s)), word_counts=None)
    alone = BPSeg(random_state=0, structure="runs").fit(units.embeddings, word_counts=units.word_counts)
    np.testing.assert_array_equal(ones.labels_, alone.labels_)


@pytest.mark.parametrize(
    "bad, message",
    [
        (dict(embeddings=np.ones(4)), "2-d array"),
        (dict(embeddings=np.ones((4, 3)), weights=np.ones(3)), "one value per unit"),
        (dict(embeddings=np.ones((4, 3)), word_counts=sp.csr_matrix((3, 2))), "one row per unit"),
        (dict(embeddings=np.ones((4, 3)), sentences=["a"]), "one entry per unit"),
        (dict(embeddings=np.ones((4, 3)), word_counts=[[1, 0]] * 3), "one row per unit"),
        (dict(embeddings=np.ones((4, 3)), word_counts=[[1, 0], [1], [0, 1], [2, 2]]), "word_counts must be a 2-d"),
        (dict(embeddings=np.ones((4, 3)), word_counts=[["a", "b"]] * 4), "word_counts must be a 2-d"),
        (dict(embeddings=np.ones((4, 3)), word_counts=[1, 2, 3, 4]), "one row per unit"),
    ],
)
def test_bad_units_are_one_value_error(bad, message):
    with pytest.raises(ValueError, match=message):
        Units(**bad)


def test_every_field_takes_array_likes():
    # a list of lists for the word counts (and lists for the rest) fits what the arrays fit
    s = _sentences()
    units = Units.from_sentences(s, PlantedEmbedder())
    as_lists = Units(
        units.embeddings.tolist(),
        weights=units.weights.tolist(),
        word_counts=units.word_counts.toarray().tolist(),
        sentences=tuple(s),
        paragraphs=list(range(len(s))),
        headings=[0] * len(s),
    )
    assert isinstance(as_lists.word_counts, np.ndarray) and as_lists.word_counts.shape == units.word_counts.shape
    fit = BPSeg(random_state=0, structure="runs").fit(units)
    again = BPSeg(random_state=0, structure="runs").fit(as_lists)
    np.testing.assert_array_equal(fit.labels_, again.labels_)
