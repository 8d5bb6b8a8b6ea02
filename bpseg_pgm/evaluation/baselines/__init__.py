"""Baseline segmenters compared with BP-Seg, all with ``fit_predict(X) -> labels`` on embeddings."""

from bpseg_pgm.evaluation.baselines.graphseg import GraphSeg
from bpseg_pgm.evaluation.baselines.kcpd_auto import KCPDAuto
from bpseg_pgm.evaluation.baselines.kmeans import KMeansSegmenter
from bpseg_pgm.evaluation.baselines.semantic_breakpoints import SemanticBreakpoints
from bpseg_pgm.evaluation.baselines.texttiling import TextTiling

__all__ = ["GraphSeg", "KCPDAuto", "KMeansSegmenter", "SemanticBreakpoints", "TextTiling"]
