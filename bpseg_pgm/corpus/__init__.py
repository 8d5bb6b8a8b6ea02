"""Corpus scale: many documents segmented in one run, on Dask, into a resumable Parquet dataset."""

from bpseg_pgm.corpus.documents import CorpusDocument, read_documents
from bpseg_pgm.corpus.rows import COLUMNS, schema
from bpseg_pgm.corpus.run import CorpusReport, default_workers, segment_corpus

__all__ = ["COLUMNS", "CorpusDocument", "CorpusReport", "default_workers", "read_documents", "schema",
           "segment_corpus"]
