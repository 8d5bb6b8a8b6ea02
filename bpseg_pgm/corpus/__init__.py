"""Corpus scale: many documents segmented in one run, on Dask, into a resumable Parquet dataset."""

from bpseg_pgm.corpus.rows import COLUMNS, schema
from bpseg_pgm.corpus.run import CorpusReport, default_workers, segment_corpus
from bpseg_pgm.io.documents import read_documents
from bpseg_pgm.types.document import Document as CorpusDocument  # the corpus's name for a Document

__all__ = ["COLUMNS", "CorpusDocument", "CorpusReport", "default_workers", "read_documents", "schema", "segment_corpus"]
