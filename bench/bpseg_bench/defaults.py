"""What the benchmarks run when not told otherwise: method lists and dataset names (no heavy imports,
so that ``bpseg --help`` can show them without loading scikit-learn)."""

from __future__ import annotations

__all__ = ["CORPUS_METHODS", "DATASET_NAMES", "DEFAULT_METHODS"]

#: The methods of ``bpseg bench choi`` (the paper's Table 1) unless --methods says otherwise.
DEFAULT_METHODS: tuple[str, ...] = (
    "bpseg",
    "bpseg-paper",
    "bpseg-appendix",
    "kmeans",
    "kmeans-true-k",
    "graphseg",
    "graphseg-python",
    "texttiling",
)

#: The methods of ``bpseg bench corpus`` unless --methods says otherwise.
CORPUS_METHODS: tuple[str, ...] = (
    "bpseg",
    "bpseg-ungrouped",
    "bpseg-topics",
    "bpseg-contiguous",
    "bpseg-contiguous-true-k",
    "one-segment",
    "equal-blocks",
    "texttiling",
    "kmeans-true-k",
    "kcpd-true-k",
    "kcpd",
    "kcpd-auto",
    "semantic-breakpoints",
)

#: The built-in datasets of ``bpseg bench corpus`` / ``export``.
DATASET_NAMES = (
    "qmsum-train", "qmsum-val", "qmsum-train-returns", "qmsum-val-returns", "peps-train", "peps-val",
    "peps-train-sub", "peps-val-sub", "peps-train-rr", "peps-val-rr", "choi-1", "choi-2", "choi-3", "choi-4", "choi-234", "interleaved",
    "interleaved-234", "choi-1-rr", "choi-234-rr", "lessonlink-train", "lessonlink-val", "lessonlink-train-problem",
    "lessonlink-val-problem", "tinyrec-coarse", "tinyrec-fine",
)  # fmt: skip
