"""Document: one class for the corpus input and the benchmarks; the old names build the same thing."""

import pickle
from pathlib import Path

import numpy as np
import pytest

from bpseg_bench.choi import ChoiDocument
from bpseg_bench.corpus import LabelledDocument
from bpseg_bench.interleaved import InterleavedDocument
from bpseg_pgm.corpus import CorpusDocument
from bpseg_pgm.types.document import Document


def test_text_units_and_error_documents():
    text, units, bad = Document("t", text="One. Two."), Document("u", units=("ab", "c")), Document("e", error="binary")
    assert (text.size, units.size, bad.size) == (9, 3, 0)
    assert (len(text), len(units), len(bad)) == (0, 2, 0) and bool(text) and bool(bad)  # truthy, whatever the length
    assert units.doc_id == "u" and units.sentences == ("ab", "c") and text.labels is None
    assert Document("u", units=("ab", "c")) == units and hash(Document("u", units=("ab", "c"))) == hash(units)
    with pytest.raises(ValueError, match="has no gold labels"):
        text.n_segments


def test_gold_labels_unlabelled_units_and_meta_not_compared():
    doc = Document("d", units=("a", "b", "c", "d", "e"), labels=("x", None, "y", "x", None), meta={"k": 1})
    np.testing.assert_array_equal(doc.labelled, [True, False, True, True, False])
    np.testing.assert_array_equal(doc.gold, [0, 1, 0])  # codes in order of first appearance
    assert doc.n_segments == 2 and len(doc) == 5
    assert doc == Document("d", units=doc.units, labels=doc.labels, meta={"other": 2})
    with pytest.raises(ValueError, match="d: 3 units but 2 labels"):
        Document("d", units=("a", "b", "c"), labels=(0, 1))


def test_corpus_document_is_document_with_its_positional_fields():
    assert CorpusDocument is Document
    doc = CorpusDocument("a", None, ("x",), None)
    assert (doc.id, doc.text, doc.units, doc.error) == ("a", None, ("x",), None)
    assert pickle.loads(pickle.dumps(doc)) == doc  # shipped to Dask workers


def test_labelled_document_keeps_its_constructor():
    doc = LabelledDocument("a", ("x", "y"), (0, None), {"source": "s"})
    assert isinstance(doc, Document)
    assert (doc.id, doc.units, doc.labels, doc.meta) == ("a", ("x", "y"), (0, None), {"source": "s"})
    assert LabelledDocument(doc_id="a", units=("x", "y"), labels=(0, None)).meta == {}
    assert doc == LabelledDocument("a", ("x", "y"), (0, None)) and doc.n_segments == 1
    back = pickle.loads(pickle.dumps(doc))
    assert back == doc and back.meta == {"source": "s"}


def test_choi_and_interleaved_documents_keep_their_fields():
    labels = np.array([0, 0, 1])
    choi = ChoiDocument(["a", "b", "c"], labels, 2, "3-5", Path("/data/2/3-5/17.ref"))
    assert isinstance(choi, Document) and choi.doc_id == "2/3-5/17"
    assert choi.sentences == choi.units == ("a", "b", "c")
    assert (choi.set, choi.range, choi.path) == (2, "3-5", Path("/data/2/3-5/17.ref"))
    assert choi.labels is labels and choi.n_segments == 2 and len(choi) == 3
    inter = InterleavedDocument(("a", "b", "c"), np.array([0, 1, 0]), "interleaved/0/3")
    assert isinstance(inter, ChoiDocument) and inter.path is None  # Choi-like: built from Choi segments
    assert (inter.doc_id, inter.set, inter.range) == ("interleaved/0/3", 1, "interleaved")
    assert inter.n_segments == 2 and list(inter.gold) == [0, 1, 0]
