"""The paper's Table 1: every method on the Choi corpus, mean ± std of each metric per range.

Sentences are embedded once through the project's cached :class:`Embedder` (so reruns are
fast); each method then segments every document from the same embeddings. Results are
per document (JSON) and aggregated per range and method (Markdown table, PNG chart).
Parameters were chosen on set 1 only, so when set 1 and other sets are both selected a
second table reports the held-out sets alone.
"""

from __future__ import annotations

import math
import os
import time
from collections.abc import Iterable, Sequence
from pathlib import Path

import numpy as np
from tqdm.auto import tqdm

from bpseg_bench.choi import CHOI_RANGES, load_choi, resolve_data_dir
from bpseg_bench.defaults import DEFAULT_METHODS
from bpseg_bench.methods import METHODS, check_methods
from bpseg_bench.report import machine_info, write_report
from bpseg_bench.runner import check_seed, embed_documents, make_embedder, segment
from bpseg_pgm.evaluation.metrics import METRICS, evaluate
from bpseg_pgm.types.document import Document

__all__ = [
    "DEFAULT_METHODS",
    "OUTPUT_NAMES",
    "TUNING_SET",
    "machine_info",
    "render_markdown",
    "run_choi_benchmark",
    "summarize",
    "write_choi_report",
]

#: The paper's Table 1 methods (the corpus benchmark, bench_corpus, compares the newer ones).
TUNING_SET = 1
OUTPUT_NAMES = {"markdown": "choi_results.md", "json": "choi_results.json", "png": "choi_results.png"}
_LABELS = {"ari": "ARI", "nmi": "NMI", "ami": "AMI", "pk": "Pk", "windowdiff": "WD"}


def run_choi_benchmark(
    data_dir: str | os.PathLike | None = None,
    sets: Iterable[int] | None = None,
    ranges: Iterable[str] | None = None,
    methods: Iterable[str] = DEFAULT_METHODS,
    limit: int | None = None,
    seed: int = 0,
    embedder=None,
    progress: bool | None = None,
    docs: Sequence | None = None,
    title: str = "Choi benchmark (BP-Seg paper, Table 1)",
) -> dict:
    """Run ``methods`` on the selected Choi documents; return the result dict.

    ``embedder`` defaults to ``Embedder()`` (bundled MiniLM, on-disk cache). ``seed`` is
    the random_state of every seeded method on every document. ``progress=None`` shows a
    tqdm bar only on a terminal. The result holds ``config``, ``machine``, timings,
    ``summary`` (see :func:`summarize`) and per-document ``records``. ``docs`` replaces
    the Choi selection by other documents with the same fields (e.g. interleaved ones).
    """
    methods = check_methods(methods)
    seed = check_seed(seed)
    root = resolve_data_dir(data_dir)
    if docs is None:
        docs = load_choi(root, sets=sets, ranges=ranges, limit=limit)
    embedder = make_embedder(embedder, progress)
    start = time.perf_counter()
    vectors, embed_seconds = embed_documents(docs, embedder)
    records: list[dict] = []
    bar = tqdm(list(zip(docs, vectors)), desc="Choi", unit="doc", disable=None if progress is None else not progress)
    for doc, X in bar:
        for name in methods:
            records.append(_run_one(doc, X, name, seed))
    total = time.perf_counter() - start
    config = {
        "title": title,
        "data_dir": str(root),
        "sets": sorted({d.set for d in docs}),
        "ranges": _ranges_of(docs),
        "methods": {m: METHODS[m].description for m in methods},
        "limit": limit,
        "seed": int(seed),
        "embedder": getattr(embedder, "model_id", type(embedder).__name__),
        "n_documents": len(docs),
        "n_sentences": sum(len(d) for d in docs),
    }
    return {
        "config": config,
        "machine": machine_info(),
        "seconds": {"embedding": round(embed_seconds, 2), "total": round(total, 2)},
        "summary": summarize(records, methods),
        "records": records,
    }


def _run_one(doc: Document, X: np.ndarray, name: str, seed: int) -> dict:
    """One document, one method: the runner's labels scored, as one record of the table."""
    labels, seconds = segment(doc, X, name, seed)
    scores = evaluate(doc.labels, labels)
    return {
        "doc": doc.doc_id,
        "set": doc.set,
        "range": doc.range,
        "method": name,
        "n_sentences": len(doc),
        "gold_segments": doc.n_segments,
        "pred_segments": int(np.unique(labels).size),
        "seconds": seconds,
        **scores,
    }


def _ranges_of(items) -> list[str]:
    """The ranges present, the paper's six in its order first, then any others as they come."""
    present = list(dict.fromkeys(x["range"] if isinstance(x, dict) else x.range for x in items))
    return [r for r in CHOI_RANGES if r in present] + [r for r in present if r not in CHOI_RANGES]


def _aggregate(records: Sequence[dict], methods: Sequence[str]) -> dict:
    table: dict = {}
    for rng in _ranges_of(records):
        for name in methods:
            rows = [r for r in records if r["range"] == rng and r["method"] == name]
            if not rows:
                continue
            cell = {"n_docs": len(rows), "seconds_per_doc": float(np.mean([r["seconds"] for r in rows]))}
            for key in (*METRICS, "pred_segments"):
                values = np.array([r[key] for r in rows], dtype=float)
                cell[key] = {"mean": float(np.nanmean(values)), "std": float(np.nanstd(values))}
            table.setdefault(rng, {})[name] = cell
    return table


def summarize(records: Sequence[dict], methods: Sequence[str]) -> dict:
    """Mean and (population) std of each metric per range and method.

    Returns ``{"all": table}``, plus ``"held_out": table`` over the documents outside the
    tuning set 1 when the records mix set 1 with other sets; a table maps
    range -> method -> {metric: {"mean", "std"}, "n_docs", "seconds_per_doc"}.
    """
    out = {"all": _aggregate(records, methods)}
    sets = {r["set"] for r in records}
    if TUNING_SET in sets and len(sets) > 1:
        out["held_out"] = _aggregate([r for r in records if r["set"] != TUNING_SET], methods)
    return out


def _fmt(cell: dict, key: str, std: bool = True) -> str:
    m, s = cell[key]["mean"], cell[key]["std"]
    if math.isnan(m):
        return "n/a"
    return f"{m:.2f} ± {s:.2f}" if std else f"{m:.2f}"


def _selection_title(name: str, result: dict) -> str:
    sets = result["config"]["sets"]
    if name == "held_out":
        kept = [s for s in sets if s != TUNING_SET]
        word = "set" if len(kept) == 1 else "sets"
        return f"Held-out {word} {', '.join(map(str, kept))} (parameters were chosen on set {TUNING_SET})"
    word = "set" if len(sets) == 1 else "sets"
    return f"All selected {word} ({', '.join(map(str, sets))})"


def render_markdown(result: dict) -> str:
    """The report: a paper-style ARI / NMI table and a full mean ± std table per selection."""
    cfg = result["config"]
    methods = list(cfg["methods"])
    lines = [
        f"# {cfg.get('title', 'Choi benchmark (BP-Seg paper, Table 1)')}",
        "",
        f"{cfg['n_documents']} documents, {cfg['n_sentences']} sentences; embeddings: `{cfg['embedder']}`; "
        f"seed {cfg['seed']}; limit per folder: {cfg['limit'] if cfg['limit'] is not None else 'none'}.",
        f"Machine: {result['machine']['cpu']}, {result['machine']['cores']} cores. "
        f"Wall time {result['seconds']['total']:.1f} s (embedding {result['seconds']['embedding']:.1f} s).",
        "",
        "Methods:",
        *[f"- `{m}`: {d}" for m, d in cfg["methods"].items()],
        "",
        "Pk and WD (WindowDiff) are errors (lower is better), on boundaries at every label change, "
        "window k = half the mean gold segment length. Std is the population std over documents.",
    ]
    for name, table in result["summary"].items():
        ranges = list(table)
        lines += ["", f"## {_selection_title(name, result)}", "", "Mean ARI / NMI (as in the paper's Table 1):", ""]
        lines.append("| method | " + " | ".join(f"{r} ARI | {r} NMI" for r in ranges) + " |")
        lines.append("|---|" + "---:|---:|" * len(ranges))
        for m in methods:
            cells = []
            for r in ranges:
                c = table[r].get(m)
                cells += [_fmt(c, "ari", False), _fmt(c, "nmi", False)] if c else ["", ""]
            lines.append(f"| {m} | " + " | ".join(cells) + " |")
        lines += ["", "Mean ± std per range:", ""]
        lines.append("| range | method | docs | " + " | ".join(_LABELS[k] for k in METRICS) + " | segments | s/doc |")
        lines.append("|---|---|---:|" + "---:|" * (len(METRICS) + 2))
        for r in ranges:
            for m in methods:
                c = table[r].get(m)
                if c is None:
                    continue
                lines.append(
                    f"| {r} | {m} | {c['n_docs']} | "
                    + " | ".join(_fmt(c, k) for k in METRICS)
                    + f" | {c['pred_segments']['mean']:.1f} | {c['seconds_per_doc']:.3f} |"
                )
    return "\n".join(lines) + "\n"


def _render_png(result: dict) -> bytes:
    import io

    from bpseg_bench.extras import pyplot

    plt = pyplot()

    name = "held_out" if "held_out" in result["summary"] else "all"
    table = result["summary"][name]
    ranges = list(table)
    methods = list(result["config"]["methods"])
    fig, axes = plt.subplots(1, 2, figsize=(12, 4.6), sharey=True)
    width = 0.8 / len(methods)
    x = np.arange(len(ranges))
    for ax, metric in zip(axes, ("ari", "nmi")):
        for i, m in enumerate(methods):
            means = [table[r][m][metric]["mean"] if m in table[r] else np.nan for r in ranges]
            stds = [table[r][m][metric]["std"] if m in table[r] else np.nan for r in ranges]
            ax.bar(x + (i - (len(methods) - 1) / 2) * width, means, width, yerr=stds, capsize=2, label=m)
        ax.set_xticks(x, ranges)
        ax.set_xlabel("segment length range (sentences)")
        ax.set_title(f"mean {_LABELS[metric]} ± std")
        ax.set_ylim(min(0.0, ax.get_ylim()[0]), 1.05)
        ax.grid(axis="y", alpha=0.3)
    handles, labels = axes[0].get_legend_handles_labels()
    fig.legend(handles, labels, loc="lower center", ncol=min(len(methods), 6), fontsize=8, frameon=False)
    fig.suptitle(f"{result['config'].get('title', 'Choi')}: {_selection_title(name, result)}", fontsize=10)
    fig.tight_layout(rect=(0, 0.07, 1, 1))
    buf = io.BytesIO()
    fig.savefig(buf, format="png", dpi=110)
    plt.close(fig)
    return buf.getvalue()


def write_choi_report(result: dict, out_dir: str | os.PathLike, stem: str = "choi_results") -> dict[str, Path]:
    """Write the Markdown table, the JSON (summary and per-document records) and the PNG chart
    into ``out_dir`` all-or-nothing, as ``<stem>.md/.json/.png``; returns kind -> path."""
    return write_report(result, out_dir, stem, render_markdown(result), _render_png(result))
