"""The corpus's documents: read by the one reader (bpseg_pgm.io.documents), grouped into tasks whole."""

from bpseg_pgm.corpus import CorpusDocument, read_documents
from bpseg_pgm.corpus.tasks import group_documents
from bpseg_pgm.io import documents
from bpseg_pgm.types.document import Document


def test_the_corpus_reads_with_the_one_reader():
    assert read_documents is documents.read_documents and CorpusDocument is Document


def test_folder_documents_in_order_with_errors_kept(corpus_dir):
    docs = read_documents(corpus_dir)
    assert [d.id for d in docs] == ["bin.txt", "empty.txt", "notes.txt", "one.txt", "sub/markets.md", "weather.txt"]
    assert "binary" in docs[0].error and docs[0].text is None


def test_grouping_keeps_order_whole_documents_and_ignores_worker_count(corpus_dir):
    docs = read_documents(corpus_dir)
    groups = group_documents(docs, task_chars=300)
    assert [d for g in groups for d in g] == docs
    assert all(sum(d.size for d in g) <= 300 or len(g) == 1 for g in groups)
    assert len(group_documents(docs, task_chars=10**9)) == 1
