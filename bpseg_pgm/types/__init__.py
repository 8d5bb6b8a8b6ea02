"""Leaf result and input types: they import nothing of bpseg_pgm but :mod:`bpseg_pgm.utils`.

* :mod:`.document`: :class:`~bpseg_pgm.types.document.Document`, one document to segment or to score;
* :mod:`.fit`: :class:`~bpseg_pgm.types.fit.Fit`, what one fit of a document found (``decide`` returns it);
* :mod:`.chunk`: :class:`~bpseg_pgm.types.chunk.Chunk`, a piece of a text with exact offsets, and
  :class:`~bpseg_pgm.types.chunk.ParentChunk`, a whole segment over its chunks (and ``Span``, ``PIECE_SEPARATOR``);
* :mod:`.returns`: :class:`~bpseg_pgm.types.returns.Returns`, what the returns test found;
* :mod:`.prune`: :class:`~bpseg_pgm.types.prune.PruneResult`, what query-focused pruning kept;
* :mod:`.segmentation`: :class:`~bpseg_pgm.types.segmentation.SegmentationResult`, the data of a segmentation
  (:class:`bpseg_pgm.text.Segmentation` adds keywords, chunks, re-cuts, text and HTML).
"""

from bpseg_pgm.types.chunk import PIECE_SEPARATOR, Chunk, ParentChunk, Span
from bpseg_pgm.types.document import Document
from bpseg_pgm.types.fit import Fit
from bpseg_pgm.types.prune import PruneResult
from bpseg_pgm.types.returns import Returns
from bpseg_pgm.types.segmentation import SegmentationResult

__all__ = [
    "Chunk",
    "Document",
    "Fit",
    "PIECE_SEPARATOR",
    "ParentChunk",
    "PruneResult",
    "Returns",
    "SegmentationResult",
    "Span",
]
