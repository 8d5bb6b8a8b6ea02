"""Baseline segmenters compared with BP-Seg, all with ``fit_predict(X) -> labels`` on embeddings."""

from bpseg_bench.baselines.graphseg import GraphSeg
from bpseg_bench.baselines.kcpd_auto import KCPDAuto
from bpseg_bench.baselines.kmeans import KMeansSegmenter
from bpseg_bench.baselines.semantic_breakpoints import SemanticBreakpoints
from bpseg_bench.baselines.texttiling import TextTiling

__all__ = ["GraphSeg", "KCPDAuto", "KMeansSegmenter", "SemanticBreakpoints", "TextTiling"]
