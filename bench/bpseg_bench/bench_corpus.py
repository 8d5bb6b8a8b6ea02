"""The dataset-agnostic benchmark: any corpus of :class:`LabelledDocument`, one table per dataset.

Every dataset goes through the same path: its units are embedded once (cached), every method
segments every document from the same embeddings, and :func:`evaluate_partial` scores the
labelled units. Methods come from :mod:`bpseg_bench.methods`; oracle baselines are
told the gold count (``kmeans-true-k``: the number of gold topics; the contiguous ones,
``equal-blocks`` and ``kcpd-true-k``: the number of gold runs, so that a contiguous method can
match a returning topic at all).

Datasets (:func:`load_dataset`): a path to a JSONL corpus (format in
:mod:`bpseg_bench.corpus`), or a name: ``qmsum-train``, ``qmsum-val`` (meeting turns,
:mod:`bpseg_bench.qmsum`), ``peps-train``, ``peps-val`` (PEP sentences, gold = top-level
sections) and ``peps-train-sub``, ``peps-val-sub`` (the same sentences, gold = sub-sections;
:mod:`bpseg_bench.peps`), ``choi-1`` .. ``choi-4`` (or ``choi-234``: several sets),
``interleaved`` (documents whose topics return, built from Choi set 1, the tuning set; shuffled chunks,
:mod:`bpseg_bench.interleaved`), ``interleaved-234`` (its held-out twin: Choi sets 2-4 less the
sources of set 1, i.e. set 4's new Brown documents, :mod:`bpseg_bench.choi_sources`), ``choi-1-rr``,
``choi-234-rr`` (a second construction: 2-4 Choi passages cut into 2-3 pieces dealt round-robin, from set 1 /
held out as for ``interleaved-234``; :mod:`bpseg_bench.choi_round_robin`), ``peps-train-rr``,
``peps-val-rr`` (the sections of 2-4 PEPs dealt round-robin, gold = the PEP: real prose whose topics return;
:mod:`bpseg_bench.round_robin`), ``qmsum-train-returns``, ``qmsum-val-returns`` (the meetings of a
QMSum split in which at least one topic returns after another, gold = the topic over all its spans:
real returning topics; ``limit`` counts these meetings), ``lessonlink-train``, ``lessonlink-val`` (tutoring
utterances, gold = the annotated segments) and ``lessonlink-train-problem``, ``lessonlink-val-problem`` (the same
utterances, gold = the worksheet problem, none: unlabelled; :mod:`bpseg_bench.lessonlink`), ``tinyrec-coarse``,
``tinyrec-fine`` (TinyRec's 5 dev meeting-like transcripts at either annotation level, :mod:`bpseg_bench.tinyrec`).

Returning topics are scored twice: ``purity_returning`` (per document, then averaged over documents) and
``spans_joined``, whose set-level figure is pooled over topics (joined returning topics over all
returning topics of the set, ``summary[ds][method]["spans_joined"]["topics"]`` / ``["joined"]`` /
``["pooled"]``), because a document may hold one returning topic or five.
"""

from __future__ import annotations

import io
import math
import os
import re
import time
from collections.abc import Iterable, Sequence
from pathlib import Path

import numpy as np
from tqdm.auto import tqdm

from bpseg_bench.corpus import LabelledDocument, from_choi, read_corpus
from bpseg_bench.defaults import CORPUS_METHODS, DATASET_NAMES
from bpseg_bench.methods import METHODS, check_methods
from bpseg_bench.report import machine_info, write_report
from bpseg_bench.runner import check_seed, embed_documents, make_embedder, segment
from bpseg_pgm.evaluation.metrics import METRICS, SEGMENT_STATS, evaluate_partial, returning_labels
from bpseg_pgm.types.document import Document
from bpseg_pgm.utils.validation import check_limit

__all__ = [
    "CORPUS_METHODS",
    "DATASET_NAMES",
    "load_dataset",
    "render_corpus_markdown",
    "run_corpus_benchmark",
    "write_corpus_report",
]

KEYS: tuple[str, ...] = (*METRICS, *SEGMENT_STATS)
_LABELS = {
    "ari": "ARI", "nmi": "NMI", "ami": "AMI", "pk": "Pk", "windowdiff": "WD", "runs_per_segment": "runs/gold",
    "segments_found": "segs", "gold_segments": "gold segs", "returning_topics": "ret. topics",
    "purity_returning": "purity (ret.)", "spans_joined": "joined (ret.)",
}  # fmt: skip
#: Gold properties: the same for every method, in the table's heading rather than its columns.
_GOLD_KEYS = ("gold_segments", "returning_topics")
OUTPUT_STEM = "corpus_results"


def load_dataset(
    spec: str, limit: int | None = None, data_dir: str | os.PathLike | None = None
) -> list[LabelledDocument]:
    """Documents of a dataset name (see the module docstring) or a JSONL corpus path."""
    check_limit(limit)
    m = re.fullmatch(r"qmsum-(train|val)(-returns)?", spec)
    if m:
        from bpseg_bench.qmsum import load_qmsum

        if not m.group(2):
            return load_qmsum(data_dir, splits=[m.group(1)], limit=limit)
        docs = [d for d in load_qmsum(data_dir, splits=[m.group(1)]) if returning_labels(d.gold)]
        if not docs:
            raise ValueError(f"no QMSum {m.group(1)} meeting has a topic that returns")
        return docs[:limit]
    m = re.fullmatch(r"peps-(train|val)-rr", spec)
    if m:
        from bpseg_bench.peps import load_peps
        from bpseg_bench.round_robin import make_round_robin

        return make_round_robin(load_peps(data_dir, splits=[m.group(1)]), n_docs=60 if limit is None else limit, seed=0)
    m = re.fullmatch(r"peps-(train|val)(-sub)?", spec)
    if m:
        from bpseg_bench.peps import load_peps

        level = "subsection" if m.group(2) else "section"
        return load_peps(data_dir, splits=[m.group(1)], limit=limit, level=level)
    m = re.fullmatch(r"choi-([1-4]+)", spec)
    if m:
        from bpseg_bench.choi import load_choi

        sets = sorted({int(c) for c in m.group(1)})
        docs = load_choi(data_dir, sets=sets)
        return [from_choi(d) for d in (docs if limit is None else _spread(docs, limit))]
    if spec == "interleaved":
        from bpseg_bench.choi import load_choi
        from bpseg_bench.interleaved import make_interleaved

        docs = make_interleaved(load_choi(data_dir, sets=[1]), n_docs=60 if limit is None else limit, seed=0)
        return [from_choi(d) for d in docs]
    if spec == "interleaved-234":
        from bpseg_bench.choi import load_choi
        from bpseg_bench.interleaved import make_interleaved

        docs = make_interleaved(
            load_choi(data_dir, sets=[2, 3, 4]),
            n_docs=60 if limit is None else limit,
            seed=0,
            exclude=load_choi(data_dir, sets=[1]),
            distinct_sources=True,
            name=spec,
        )
        return [from_choi(d) for d in docs]
    m = re.fullmatch(r"choi-(1|234)-rr", spec)
    if m:
        from bpseg_bench.choi import load_choi
        from bpseg_bench.choi_round_robin import make_choi_round_robin

        held_out = m.group(1) == "234"
        return make_choi_round_robin(
            load_choi(data_dir, sets=[2, 3, 4] if held_out else [1]), n_docs=60 if limit is None else limit, seed=0,
            exclude=load_choi(data_dir, sets=[1]) if held_out else (), name=spec,
        )  # fmt: skip
    m = re.fullmatch(r"lessonlink-(train|val)(-problem)?", spec)
    if m:
        from bpseg_bench.lessonlink import load_lessonlink

        level = "problem" if m.group(2) else "segment"
        return load_lessonlink(data_dir, splits=[m.group(1)], limit=limit, level=level)
    m = re.fullmatch(r"tinyrec-(coarse|fine)", spec)
    if m:
        from bpseg_bench.tinyrec import load_tinyrec

        return load_tinyrec(data_dir, limit=limit, level=m.group(1))
    if spec.endswith(".jsonl") or os.path.sep in spec or Path(spec).is_file():
        return read_corpus(spec, limit=limit)
    raise ValueError(f"unknown dataset {spec!r}: give a .jsonl corpus or one of {', '.join(DATASET_NAMES)}")


def _spread(docs: Sequence, limit: int) -> list:
    """``limit`` documents spread evenly over the list (every range is represented)."""
    if limit >= len(docs):
        return list(docs)
    idx = np.unique(np.linspace(0, len(docs) - 1, limit).round().astype(int))
    return [docs[i] for i in idx]


def run_one(doc: Document, X: np.ndarray, name: str, seed: int) -> dict:
    """Segment one document with one method (:func:`bpseg_bench.runner.segment`) and score it."""
    labels, seconds = segment(doc, X, name, seed)
    scores = evaluate_partial(doc.labels, labels)
    return {"doc": doc.doc_id, "method": name, "n_units": len(doc), "seconds": seconds, **scores}


def run_corpus_benchmark(
    datasets: dict[str, Sequence[LabelledDocument]],
    methods: Iterable[str] = CORPUS_METHODS,
    seed: int = 0,
    embedder=None,
    progress: bool | None = None,
) -> dict:
    """Run ``methods`` on every document of every dataset; return config, summary and records."""
    methods = check_methods(methods)
    if not datasets:
        raise ValueError("no datasets selected")
    seed = check_seed(seed)
    embedder = make_embedder(embedder, progress)
    start = time.perf_counter()
    records: list[dict] = []
    embed_seconds = 0.0
    sizes = {}
    for ds, docs in datasets.items():
        vectors, seconds = embed_documents(docs, embedder)
        embed_seconds += seconds
        sizes[ds] = {"documents": len(docs), "units": sum(len(d) for d in docs)}
        bar = tqdm(list(zip(docs, vectors)), desc=ds, unit="doc", disable=None if progress is None else not progress)
        for doc, X in bar:
            for name in methods:
                records.append({"dataset": ds, **run_one(doc, X, name, seed)})
    config = {
        "methods": {m: METHODS[m].description for m in methods},
        "datasets": sizes,
        "seed": int(seed),
        "embedder": getattr(embedder, "model_id", type(embedder).__name__),
    }
    return {
        "config": config,
        "machine": machine_info(),
        "seconds": {"embedding": round(embed_seconds, 2), "total": round(time.perf_counter() - start, 2)},
        "summary": summarize(records, methods),
        "records": records,
    }


def summarize(records: Sequence[dict], methods: Sequence[str]) -> dict:
    """dataset -> method -> {metric: {"mean", "std", "n"}, "n_docs", "seconds_per_doc"}: NaN-aware means over
    documents (``n``: the documents with a finite value). ``spans_joined`` also pools over topics:
    ``"topics"`` (returning gold topics in the set), ``"joined"`` (those whose spans end under one label) and
    ``"pooled"`` (joined / topics, NaN without returning topics): the set-level figure."""
    out: dict = {}
    for ds in dict.fromkeys(r["dataset"] for r in records):
        for m in methods:
            rows = [r for r in records if r["dataset"] == ds and r["method"] == m]
            if not rows:
                continue
            cell = {"n_docs": len(rows), "seconds_per_doc": float(np.mean([r["seconds"] for r in rows]))}
            for key in KEYS:
                vals = np.array([r[key] for r in rows], dtype=float)
                finite = vals[np.isfinite(vals)]
                cell[key] = {
                    "mean": float(finite.mean()) if finite.size else float("nan"),
                    "std": float(finite.std()) if finite.size else float("nan"),
                    "n": int(finite.size),
                }
            topics = np.array([r["returning_topics"] for r in rows], dtype=float)
            fractions = np.array([r["spans_joined"] for r in rows], dtype=float)
            has = topics > 0
            n_topics = int(topics[has].sum())
            joined = int(np.rint(fractions[has] * topics[has]).sum())
            pooled = joined / n_topics if n_topics else float("nan")
            cell["spans_joined"].update(topics=n_topics, joined=joined, pooled=pooled)
            out.setdefault(ds, {})[m] = cell
    return out


def _fmt(cell: dict, key: str) -> str:
    if key == "spans_joined":  # pooled over topics
        j = cell[key]
        return "n/a" if not j["topics"] else f"{j['pooled']:.2f} ({j['joined']}/{j['topics']})"
    m = cell[key]["mean"]
    if math.isnan(m):
        return "n/a"
    return f"{m:.1f}" if key in ("segments_found", "gold_segments") else f"{m:.2f}"


def render_corpus_markdown(result: dict) -> str:
    """One table per dataset: every metric's mean over documents, methods as rows."""
    cfg = result["config"]
    lines = [
        "# Segmentation benchmark",
        "",
        f"Embeddings: `{cfg['embedder']}`; seed {cfg['seed']}. Machine: {result['machine']['cpu']}, "
        f"{result['machine']['cores']} cores. Wall time {result['seconds']['total']:.1f} s "
        f"(embedding {result['seconds']['embedding']:.1f} s).",
        "",
        "Methods:",
        *[f"- `{m}`: {d}" for m, d in cfg["methods"].items()],
        "",
        "Scores on the units that carry a gold label. Pk and WD are errors (lower is better); runs/gold = "
        "predicted runs per gold run (1 is ideal); segs = distinct predicted labels (gold segs beside it); "
        "purity (ret.) = for gold topics that return after others, the largest share of the topic under one "
        "predicted label, averaged over documents; joined (ret.) = the fraction of those returning topics whose "
        "spans (runs of the topic between other topics) all end under one predicted label (one label is the "
        "majority of every span), pooled over the topics of the dataset (joined/returning topics beside it; "
        "n/a: no returning topic). One label for everything is pure and joined: read both beside ARI.",
    ]
    for ds, table in result["summary"].items():
        size = cfg["datasets"][ds]
        first = next(iter(table.values()))
        gold, returning = first["gold_segments"]["mean"], first["spans_joined"]["topics"]
        lines += ["", f"## {ds}: {size['documents']} documents, {size['units']} units, {gold:.1f} gold segments each, "
                      f"{returning} returning topics", ""]  # fmt: skip
        keys = [k for k in KEYS if k not in _GOLD_KEYS]
        lines.append("| method | " + " | ".join(_LABELS[k] for k in keys) + " | s/doc |")
        lines.append("|---|" + "---:|" * (len(keys) + 1))
        for m, cell in table.items():
            lines.append(f"| {m} | " + " | ".join(_fmt(cell, k) for k in keys) + f" | {cell['seconds_per_doc']:.3f} |")
    return "\n".join(lines) + "\n"


def render_corpus_png(result: dict) -> bytes:
    """Per-dataset comparison: ARI (higher is better) and Pk (lower is better) per method."""
    from bpseg_bench.extras import pyplot

    plt = pyplot()

    summary = result["summary"]
    datasets = list(summary)
    methods = list(result["config"]["methods"])
    fig, axes = plt.subplots(1, 2, figsize=(max(9, 2.2 * len(datasets) + 4), 4.6))
    width = 0.8 / len(methods)
    x = np.arange(len(datasets))
    cmap = plt.get_cmap("tab20")
    for ax, metric, title in zip(axes, ("ari", "pk"), ("ARI (higher is better)", "Pk (lower is better)")):
        for i, m in enumerate(methods):
            means = [summary[d][m][metric]["mean"] if m in summary[d] else np.nan for d in datasets]
            ax.bar(x + (i - (len(methods) - 1) / 2) * width, means, width, label=m, color=cmap(i % 20))
        ax.set_xticks(x, datasets)
        ax.set_title(f"mean {title}")
        ax.grid(axis="y", alpha=0.3)
    handles, labels = axes[0].get_legend_handles_labels()
    fig.legend(handles, labels, loc="lower center", ncol=min(len(methods), 5), fontsize=8, frameon=False)
    fig.tight_layout(rect=(0, 0.1, 1, 1))
    buf = io.BytesIO()
    fig.savefig(buf, format="png", dpi=110)
    plt.close(fig)
    return buf.getvalue()


def write_corpus_report(result: dict, out_dir: str | os.PathLike, stem: str = OUTPUT_STEM) -> dict[str, Path]:
    """Markdown, JSON (summary + per-document records) and PNG into ``out_dir``, all-or-nothing."""
    return write_report(result, out_dir, stem, render_corpus_markdown(result), render_corpus_png(result))
