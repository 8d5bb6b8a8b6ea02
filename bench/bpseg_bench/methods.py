"""Registry of segmentation methods for the benchmarks: name -> estimator factory.

A factory takes the document length n and a seed and returns an object with
``fit_predict(X) -> labels``; per-document settings such as k = min(20, n) live here, so
adding a configuration is one :func:`register_method` call.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from dataclasses import dataclass
from typing import Any

__all__ = ["METHODS", "Method", "check_methods", "make_estimator", "register_method"]

Factory = Callable[[int, int], Any]


@dataclass(frozen=True)
class Method:
    """A named benchmark method: how to build its estimator and a one-line description."""

    name: str
    factory: Factory
    description: str
    uses_gold_k: bool = False  # an oracle baseline: the factory also gets the true number of segments
    gold_k_kind: str = "segments"  # what that number counts: gold "segments" (topics) or contiguous "runs"
    uses_weights: bool = False  # fit_predict also takes sample_weight (unit weights from the text)
    uses_words: bool = False  # fit_predict also takes word_counts (the units' words, as the text pipeline counts them)


METHODS: dict[str, Method] = {}


def register_method(
    name: str,
    factory: Factory,
    description: str,
    uses_gold_k: bool = False,
    gold_k_kind: str = "segments",
    uses_weights: bool = False,
    uses_words: bool = False,
) -> Method:
    """Add (or replace) a method; returns it. ``uses_gold_k`` factories take (n, seed, gold_k),
    where gold_k counts gold segments (topics) or, with ``gold_k_kind="runs"``, contiguous runs
    (on documents whose topics return, a contiguous method needs one segment per run)."""
    if not name or any(c.isspace() for c in name):
        raise ValueError(f"method name must be non-empty without spaces, got {name!r}")
    if gold_k_kind not in ("segments", "runs"):
        raise ValueError(f"gold_k_kind must be 'segments' or 'runs', got {gold_k_kind!r}")
    METHODS[name] = Method(name, factory, description, uses_gold_k, gold_k_kind, uses_weights, uses_words)
    return METHODS[name]


def check_methods(methods: Iterable[str]) -> list[str]:
    """The method names, duplicates dropped (order kept); ValueError if none or one is unknown."""
    methods = list(dict.fromkeys(methods))
    if not methods:
        raise ValueError("no methods selected")
    unknown = [m for m in methods if m not in METHODS]
    if unknown:
        raise ValueError(f"unknown method(s) {', '.join(unknown)}; choose from {', '.join(METHODS)}")
    return methods


def make_estimator(name: str, n: int, seed: int, gold_k: int | None = None):
    """The estimator of method ``name`` for an n-sentence document; ValueError if unknown."""
    if name not in METHODS:
        raise ValueError(f"unknown method {name!r}; choose from {', '.join(METHODS)}")
    method = METHODS[name]
    if method.uses_gold_k:
        if gold_k is None:
            raise ValueError(f"method {name!r} needs the gold number of segments")
        return method.factory(n, seed, gold_k)
    return method.factory(n, seed)


def _bpseg(n: int, seed: int):
    from bpseg_pgm.estimator import BPSeg

    return BPSeg(random_state=seed)


def _bpseg_true_k(n: int, seed: int, gold_k: int):
    from bpseg_pgm.estimator import BPSeg

    return BPSeg(n_segments=min(gold_k, n), random_state=seed)


def _bpseg_topics(n: int, seed: int):
    from bpseg_pgm.estimator import BPSeg

    return BPSeg(structure="topics", random_state=seed)


def _bpseg_paper(n: int, seed: int):
    from bpseg_pgm.estimator import BPSeg

    return BPSeg(n_segments=min(20, n), potentials="paper", init="random", structure="topics", random_state=seed)


def _bpseg_appendix(n: int, seed: int):
    from bpseg_pgm.estimator import BPSeg

    return BPSeg(engine="fast", init="all", lam=300, sigma=10, max_iter=5)


def _kmeans(n: int, seed: int):
    from bpseg_bench.baselines.kmeans import KMeansSegmenter

    return KMeansSegmenter(max_clusters=20, random_state=seed)


def _kmeans_true_k(n: int, seed: int, gold_k: int):
    from bpseg_bench.baselines.kmeans import KMeansSegmenter

    return KMeansSegmenter(n_clusters=gold_k, random_state=seed)


def _graphseg(n: int, seed: int):
    from bpseg_bench.baselines.graphseg import GraphSeg

    return GraphSeg(tau=0.2, min_size=1)


def _graphseg_python(n: int, seed: int):
    from bpseg_bench.baselines.graphseg import GraphSeg

    return GraphSeg(tau=0.2, min_size=1, variant="graphseg-python")


def _texttiling(n: int, seed: int):
    from bpseg_bench.baselines.texttiling import TextTiling

    return TextTiling()


register_method(
    "bpseg",
    _bpseg,
    "BPSeg() library defaults: structure='auto' (runs where topics shift gradually, about one per three "
    "correlation lengths or more where the words' evidence says so, grouped into topics over runs; else the topic "
    "model of bpseg-topics), word-weighted units",
    uses_weights=True,
    uses_words=True,
)


register_method(
    "bpseg-true-k", _bpseg_true_k,
    "oracle: BPSeg(n_segments=k) with the gold number of runs k, the default otherwise (structure 'auto'; runs "
    "are not grouped into topics, group_runs 'auto' being off with a given count), word-weighted units",
    uses_gold_k=True, gold_k_kind="runs", uses_weights=True, uses_words=True,
)  # fmt: skip


def _bpseg_ungrouped(n: int, seed: int):
    from bpseg_pgm.estimator import BPSeg

    return BPSeg(group_runs=False, random_state=seed)


register_method(
    "bpseg-ungrouped", _bpseg_ungrouped,
    "BPSeg(group_runs=False): the default without topics over runs (runs that return keep separate labels)",
    uses_weights=True, uses_words=True,
)  # fmt: skip


def _bpseg_grouped(n: int, seed: int):
    from bpseg_pgm.estimator import BPSeg

    return BPSeg(group_runs=True, random_state=seed)


def _bpseg_granularity_1(n: int, seed: int):
    from bpseg_pgm.estimator import BPSeg

    return BPSeg(granularity=1.0, random_state=seed)


register_method(
    "bpseg-granularity-1", _bpseg_granularity_1,
    "BPSeg(granularity=1): the default with the runs model's count by the one-standard-error rule over the "
    "shuffled copies (the reader's granularity), word-weighted units",
    uses_weights=True, uses_words=True,
)  # fmt: skip


def _bpseg_granularity_1_ungrouped(n: int, seed: int):
    from bpseg_pgm.estimator import BPSeg

    return BPSeg(granularity=1.0, group_runs=False, random_state=seed)


register_method(
    "bpseg-granularity-1-ungrouped", _bpseg_granularity_1_ungrouped,
    "BPSeg(granularity=1, group_runs=False): the one-standard-error count, every run its own segment",
    uses_weights=True, uses_words=True,
)  # fmt: skip
register_method(
    "bpseg-grouped", _bpseg_grouped,
    "BPSeg(group_runs=True): the default with the runs always grouped into topics that may return (the default's "
    "'auto' groups them too, except a document's heading sections), word-weighted units",
    uses_weights=True, uses_words=True,
)  # fmt: skip
register_method(
    "bpseg-topics",
    _bpseg_topics,
    "BPSeg(structure='topics'), the topic model (the default before structure='auto'): centred Potts potentials "
    "(lam 150, sigma 200, unary scale 5, centred on the mean cosine of all pairs) on context-mixed embeddings "
    "(auto, 0.2), k = 'auto', farthest init, 5 re-estimation rounds, potts engine",
)
register_method(
    "bpseg-paper",
    _bpseg_paper,
    "the paper's eq. (1)-(2) as written: BPSeg(potentials='paper', lam 0.12, init='random'), k = min(20, n)",
)
register_method(
    "bpseg-appendix",
    _bpseg_appendix,
    "appendix Algorithm 2: BPSeg(engine='fast', init='all', lam=300, sigma=10, max_iter=5), k = n",
)
register_method("kmeans", _kmeans, "sklearn KMeans, k = min(20, n), default n_init")
register_method(
    "kmeans-true-k", _kmeans_true_k, "oracle: sklearn KMeans given the gold number of segments", uses_gold_k=True
)
register_method("graphseg", _graphseg, "GraphSeg as published, cosine > tau = 0.2, min size 1")
register_method(
    "graphseg-python",
    _graphseg_python,
    "GraphSeg with graphseg-python's merging (the code the paper ran), tau = 0.2, min size 1",
)
register_method("texttiling", _texttiling, "TextTiling on embeddings: window 5, no smoothing, HC cutoff, min gap 4")


def _one_segment(n: int, seed: int):
    from bpseg_bench.baselines.blocks import OneSegment

    return OneSegment()


def _equal_blocks(n: int, seed: int, gold_k: int):
    from bpseg_bench.baselines.blocks import EqualBlocks

    return EqualBlocks(gold_k)


def _kcpd_true_k(n: int, seed: int, gold_k: int):
    from bpseg_bench.baselines.kernel_cpd import KernelCPD

    return KernelCPD(n_segments=gold_k)


def _kcpd(n: int, seed: int):
    from bpseg_bench.baselines.kernel_cpd import KernelCPD

    return KernelCPD()


register_method("one-segment", _one_segment, "everything in one segment (the floor for Pk)")
register_method(
    "equal-blocks", _equal_blocks, "oracle: the gold number of runs as equal-length contiguous blocks",
    uses_gold_k=True, gold_k_kind="runs",
)  # fmt: skip
register_method(
    "kcpd-true-k", _kcpd_true_k, "oracle: ruptures KernelCPD (cosine kernel, exact DP) with the gold number of runs",
    uses_gold_k=True, gold_k_kind="runs",
)  # fmt: skip
register_method("kcpd", _kcpd, "ruptures KernelCPD (cosine kernel, PELT), penalty 0.03 n per change point")


def _kcpd_auto(n: int, seed: int):
    from bpseg_bench.baselines.kcpd_auto import KCPDAuto

    return KCPDAuto()


def _semantic_breakpoints(n: int, seed: int):
    from bpseg_bench.baselines.semantic_breakpoints import SemanticBreakpoints

    return SemanticBreakpoints()


register_method(
    "kcpd-auto", _kcpd_auto,
    "automatic peer (Embed-KCPD): ruptures KernelCPD (cosine kernel, PELT, min size 2), penalty C sqrt(T log T) "
    "per change point, C per document at the elbow of the change-point count over a log grid of C (no labels)",
)  # fmt: skip
register_method(
    "semantic-breakpoints", _semantic_breakpoints,
    "automatic peer (LangChain SemanticChunker's percentile rule): cut where the cosine distance between "
    "neighbouring sentences' embeddings exceeds its 95th percentile (no neighbour buffer: embeddings given)",
)  # fmt: skip


def _bpseg_contiguous(n: int, seed: int):
    from bpseg_pgm.estimator import BPSeg

    return BPSeg(structure="runs", random_state=seed)


def _bpseg_contiguous_true_k(n: int, seed: int, gold_k: int):
    from bpseg_pgm.estimator import BPSeg

    return BPSeg(n_segments=min(gold_k, n), structure="runs", random_state=seed)


register_method(
    "bpseg-contiguous", _bpseg_contiguous,
    "BPSeg(structure='runs'): exact segmental programme on smoothed, word-weighted embeddings and the units' words, "
    "k against the shuffled document",
    uses_weights=True, uses_words=True,
)  # fmt: skip
register_method(
    "bpseg-contiguous-true-k", _bpseg_contiguous_true_k,
    "oracle: BPSeg(structure='runs') given the gold number of runs (the boundaries weigh the units' words)",
    uses_gold_k=True, gold_k_kind="runs", uses_weights=True, uses_words=True,
)  # fmt: skip
