"""Query-focused pruning: keep the segments of a text most relevant to a question (see :mod:`.core`).

``bpseg_pgm.prune`` is :func:`~bpseg_pgm.pruning.core.prune`; the pieces it is made of are here
for callers that hold embeddings already (``docs/research/query-pruning.md``).  Its result,
:class:`~bpseg_pgm.types.prune.PruneResult`, is a leaf type (re-exported here).
"""

from bpseg_pgm.pruning.core import bm25_relevance, prune, relevance, segment_runs, segment_scores, select_runs
from bpseg_pgm.types.prune import PruneResult

__all__ = ["PruneResult", "prune", "bm25_relevance", "relevance", "segment_runs", "segment_scores", "select_runs"]
