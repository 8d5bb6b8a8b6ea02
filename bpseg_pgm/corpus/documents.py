"""The documents of a corpus to segment: read by :mod:`bpseg_pgm.io.documents`, kept here under the corpus's names.

``CorpusDocument`` is :class:`bpseg_pgm.types.document.Document`; :func:`read_documents` reads a
folder, a JSONL or a Parquet file (see :mod:`bpseg_pgm.io.documents`).
"""

from __future__ import annotations

from bpseg_pgm.io.decoding import DEFAULT_MAX_BYTES
from bpseg_pgm.io.documents import TEXT_SUFFIXES, read_documents
from bpseg_pgm.types.document import Document as CorpusDocument

__all__ = ["CorpusDocument", "read_documents", "TEXT_SUFFIXES", "DEFAULT_MAX_BYTES"]
