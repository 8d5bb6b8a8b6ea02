"""class_keywords and ClassTfidfTransformer: c-TF-IDF as BERTopic computes it, deterministic, never crashing."""

import numpy as np
import pytest
import scipy.sparse as sp

from bpseg_pgm.keywords import ClassTfidfTransformer, class_keywords

RELEASE = "The app release is on Friday. Testers found two bugs. The release notes need a review."
OFFICE = "The office moves in May. Boxes arrive next week. The office has a new kitchen."
HIRING = "We hire two engineers. The engineers start in June."


def test_each_class_gets_the_words_that_set_it_apart():
    words = class_keywords([RELEASE, OFFICE, HIRING], top_n=3)
    assert words == [["release", "app", "bugs"], ["office", "arrive", "boxes"], ["engineers", "hire", "june"]]
    assert class_keywords([RELEASE, OFFICE, HIRING]) == class_keywords([RELEASE, OFFICE, HIRING])  # deterministic


def test_the_weights_are_bertopics_formula():
    counts = sp.csr_matrix(np.array([[2, 1, 0], [0, 1, 3]]))
    before = counts.toarray().copy()
    weights = ClassTfidfTransformer().fit_transform(counts).toarray()
    mean_words = 7 / 2
    idf = np.log1p(mean_words / np.array([2, 2, 3]))
    expected = before / before.sum(axis=1, keepdims=True) * idf
    np.testing.assert_allclose(weights, expected)
    assert (counts.toarray() == before).all()  # the counts are left as they were


def test_a_word_shared_by_every_class_ranks_below_one_of_its_own():
    docs = ["budget budget budget meeting", "meeting meeting schedule"]
    assert class_keywords(docs, top_n=1) == [["budget"], ["meeting"]]
    assert class_keywords(docs)[0] == ["budget", "meeting"]  # fewer words than top_n: all of them, best first


def test_ties_are_broken_alphabetically():
    assert class_keywords(["zebra apple mango", "kiwi"]) == [["apple", "mango", "zebra"], ["kiwi"]]


@pytest.mark.parametrize(
    "docs",
    [
        [],
        ["", ""],
        ["um uh yeah {vocalsound} okay", "the and of 2021 42"],
        ["这是一个很长的中文句子没有空格分开的词语所以不会有关键词", "另一个句子", "タイ語 ภาษาไทย"],
    ],
)
def test_no_candidate_word_gives_empty_lists_not_an_error(docs):
    assert class_keywords(docs) == [[] for _ in docs]


def test_one_class_and_tiny_texts():
    assert class_keywords(["Kafka streams events. Kafka scales."]) == [["kafka", "events", "scales", "streams"]]
    assert class_keywords(["Hi.", "Ok.", "A."]) == [["hi"], [], []]  # a filler, and a word of one letter, are none


def test_top_n_is_checked():
    assert class_keywords([RELEASE], top_n=0) == [[]]
    for bad in (-1, 2.5, True, "3"):
        with pytest.raises(ValueError, match="top_n must be an int >= 0"):
            class_keywords([RELEASE], top_n=bad)
