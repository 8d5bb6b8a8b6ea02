"""Whether the non-contiguous step earns its place: returning topics joined across separate runs (issue 51, item 3).

Where topics really return (QMSum train's meetings with at least one returning gold topic, ``qmsum-train-returns``,
and the interleaved documents built from Choi set 1, ``interleaved``), every method segments every document from
the same cached embeddings through the benchmarks' one runner (:func:`bpseg_bench.runner.segment`, as ``bpseg
bench corpus`` runs them):

* ``bpseg``: the default ``BPSeg()``; its ``group_runs="auto"`` is on here (``structure="auto"`` with
  ``n_segments="auto"``);
* ``bpseg-grouped``: the default with the grouping forced on (``BPSeg(group_runs=True)``), which differs from the
  default only on a document's heading sections (these documents have none: the table says on how many it differs);
* ``bpseg-ungrouped``: the default without the grouping (``BPSeg(group_runs=False)``), the ablation;
* ``kmeans-true-k``: scikit-learn KMeans given the gold number of topics (order ignored: returns come free);
* ``bpseg-true-k``: the default given the gold number of runs (runs not grouped);
* ``bpseg-contiguous-true-k``: the runs model given the gold number of runs (never returns: the floor);
* ``one-segment``: one label for everything (what the old score flatters most).

Scored on the units that carry a gold label: ARI; joined across runs
(:func:`bpseg_pgm.evaluation.returns.joined_across_runs`: pairs of consecutive spans of a returning gold topic
that share a majority predicted label lying in separate predicted runs), pooled over the set's pairs; return
precision (:func:`bpseg_pgm.evaluation.returns.return_precision`: pairs of consecutive predicted runs of one label
over one gold topic that returns between them), pooled; the old ``spans_joined`` for comparison, pooled over
returning topics; predicted runs per gold run. A 95% bootstrap interval (documents resampled) beside each pooled
rate::

    python benchmarks/returns.py                 # both sets, every document (a few minutes on 2 cores)
    python benchmarks/returns.py --limit 5 --out /tmp/returns   # a quick look

Writes ``<out>.md`` (the table) and ``<out>.json`` (config, machine, per-set summaries; the per-document records
only with ``--records FILE``), default ``benchmarks/results/returns``. Needs the bench package (``pip install -e
./bench``) and the datasets (``shared/data/`` or ``$BPSEG_CHOI_DIR``, ``$BPSEG_QMSUM_DIR``).
"""

from __future__ import annotations

import argparse
import math
import shlex
import sys
import time
import warnings
from pathlib import Path

import numpy as np

RESULTS = Path(__file__).resolve().parent / "results" / "returns"
SETS = ("qmsum-train-returns", "interleaved")
METHODS = (
    "bpseg", "bpseg-grouped", "bpseg-ungrouped", "kmeans-true-k", "bpseg-true-k", "bpseg-contiguous-true-k",
    "one-segment",
)  # fmt: skip
#: Pairs of methods whose partitions are compared per document: the grouping step (the default against the default
#: with group_runs=False), and the default against group_runs=True.
COMPARED = {"grouping_changed": ("bpseg", "bpseg-ungrouped"), "forced_differs": ("bpseg", "bpseg-grouped")}
BOOTSTRAP = 2000


def parse_args(argv=None) -> argparse.Namespace:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--sets", nargs="+", default=list(SETS), metavar="SET", help=f"default: {' '.join(SETS)}")
    p.add_argument(
        "--methods", nargs="+", default=list(METHODS), metavar="METHOD", help=f"default: {' '.join(METHODS)}"
    )
    p.add_argument("--limit", type=int, default=None, help="at most N documents per set (default: all)")
    p.add_argument("--seed", type=int, default=0)
    p.add_argument("--out", type=Path, default=RESULTS, help="output stem: <out>.md and <out>.json (%(default)s)")
    p.add_argument("--records", type=Path, default=None, help="also write the per-document records (JSON) here")
    p.add_argument("--no-progress", action="store_true")
    return p.parse_args(argv)


def score_document(doc, X: np.ndarray, method: str, seed: int) -> tuple[dict, np.ndarray]:
    """One method on one document: its record (scores and counts) and its labels."""
    from bpseg_bench.runner import segment
    from bpseg_pgm.evaluation import joined_across_runs, return_precision
    from bpseg_pgm.evaluation.metrics import evaluate_partial

    labels, seconds = segment(doc, X, method, seed)
    scores = evaluate_partial(doc.labels, labels)
    joined, pairs = joined_across_runs(doc.labels, labels)
    correct, predicted = return_precision(doc.labels, labels)
    topics = int(scores["returning_topics"])
    spans = int(round(scores["spans_joined"] * topics)) if topics else 0
    record = {
        "doc": doc.doc_id, "method": method, "n_units": len(doc), "seconds": seconds, "ari": scores["ari"],
        "runs_per_gold": scores["runs_per_segment"], "joined": joined, "pairs": pairs, "correct": correct,
        "predicted": predicted, "returning_topics": topics, "spans_joined": spans,
    }  # fmt: skip
    return record, labels


def _rate(hits, total) -> float:
    hits, total = np.asarray(hits), np.asarray(total)
    return float(hits.sum() / total.sum()) if total.sum() else float("nan")


def _interval(hits, total, rng) -> list[float]:
    """95% bootstrap interval of the pooled rate, the documents resampled (NaN without any pair)."""
    hits, total = np.asarray(hits, dtype=float), np.asarray(total, dtype=float)
    if not total.sum():
        return [float("nan"), float("nan")]
    idx = rng.integers(0, len(hits), size=(BOOTSTRAP, len(hits)))
    t = total[idx].sum(axis=1)
    rates = np.divide(hits[idx].sum(axis=1), t, out=np.full(BOOTSTRAP, np.nan), where=t > 0)
    lo, hi = np.nanpercentile(rates, [2.5, 97.5])
    return [float(lo), float(hi)]


def summarize(rows: list[dict], seed: int = 0) -> dict:
    """One method's rows (one per document) -> its set-level figures: means over documents, pooled rates."""
    rng = np.random.default_rng(seed)
    col = {k: [r[k] for r in rows] for k in rows[0]}
    out = {
        "documents": len(rows),
        "ari": float(np.mean(col["ari"])),
        "runs_per_gold": float(np.mean(col["runs_per_gold"])),
        "runs_median": float(np.median(col["runs_per_gold"])),
        "seconds_per_doc": float(np.mean(col["seconds"])),
        "docs_with_return": int(sum(p > 0 for p in col["predicted"])),
    }
    for name, hits, total in (
        ("joined_across_runs", "joined", "pairs"),
        ("return_precision", "correct", "predicted"),
        ("spans_joined", "spans_joined", "returning_topics"),
    ):
        out[name] = {
            "hits": int(sum(col[hits])),
            "total": int(sum(col[total])),
            "pooled": _rate(col[hits], col[total]),
            "ci95": _interval(col[hits], col[total], rng),
        }
    return out


def _canonical(labels: np.ndarray) -> np.ndarray:
    """The labels renumbered 0, 1, ... in order of first appearance (a partition, whatever its label names)."""
    codes: dict = {}
    return np.array([codes.setdefault(x, len(codes)) for x in labels.tolist()], dtype=np.int64)


def run(datasets: dict, methods: list[str], seed: int = 0, embedder=None, progress: bool | None = None) -> dict:
    """Every method on every document of every set (set name -> documents); config, summaries and records."""
    from tqdm.auto import tqdm

    from bpseg_bench.methods import METHODS as REGISTRY
    from bpseg_bench.methods import check_methods
    from bpseg_bench.report import machine_info
    from bpseg_bench.runner import check_seed, embed_documents, make_embedder, segment
    from bpseg_pgm.evaluation.metrics import returning_labels

    methods, seed = check_methods(methods), check_seed(seed)
    embedder = make_embedder(embedder, progress)
    start = time.perf_counter()
    embed_seconds, sets, records = 0.0, {}, []
    for name, docs in datasets.items():
        docs = list(docs)
        if not docs:
            raise ValueError(f"set {name!r} has no documents")
        vectors, seconds = embed_documents(docs, embedder)
        embed_seconds += seconds
        rows: dict[str, list[dict]] = {m: [] for m in methods}
        changed = dict.fromkeys(COMPARED, 0)
        if not records:  # a first fit per method, untimed: the numba compilation stays out of s/doc
            for m in methods:
                segment(docs[0], vectors[0], m, seed)
        bar = tqdm(list(zip(docs, vectors)), desc=name, unit="doc", disable=None if progress is None else not progress)
        for doc, X in bar:
            labels = {}
            for m in methods:
                record, labels[m] = score_document(doc, X, m, seed)
                rows[m].append(record)
                records.append({"set": name, **record})
            for key, pair in COMPARED.items():
                if all(m in labels for m in pair):
                    changed[key] += not np.array_equal(*(_canonical(labels[m]) for m in pair))
        sets[name] = {
            "documents": len(docs),
            "units": sum(len(d) for d in docs),
            "returning_docs": sum(bool(returning_labels(d.gold)) for d in docs),
            **{key: changed[key] if all(m in methods for m in pair) else None for key, pair in COMPARED.items()},
            "summary": {m: summarize(rows[m], seed) for m in methods},
        }
    config = {
        "methods": {m: REGISTRY[m].description for m in methods},
        "sets": list(datasets),
        "seed": seed,
        "bootstrap": BOOTSTRAP,
        "embedder": getattr(embedder, "model_id", type(embedder).__name__),
    }
    return {
        "config": config,
        "machine": machine_info(),
        "seconds": {"embedding": round(embed_seconds, 2), "total": round(time.perf_counter() - start, 2)},
        "sets": sets,
        "records": records,
    }


def _num(v, digits: int = 2) -> str:
    return "n/a" if v is None or (isinstance(v, float) and math.isnan(v)) else f"{v:.{digits}f}"


def _pooled(cell: dict) -> str:
    if not cell["total"]:
        return "n/a (0/0)"
    lo, hi = cell["ci95"]
    return f"{_num(cell['pooled'])} ({cell['hits']}/{cell['total']}) [{_num(lo)}, {_num(hi)}]"


def render_markdown(result: dict, command: str | None = None) -> str:
    """One table per set (methods as rows), with the run's command, machine, wall time and seed above."""
    cfg, machine, limit = result["config"], result["machine"], result["config"].get("limit")
    lines = [
        "# Returning topics joined across separate runs (issue 51, item 3)",
        "",
        "Does the non-contiguous step earn its place? Where topics really return, a returning gold topic counts "
        "joined only when one predicted label is the majority of two consecutive spans of the topic AND those "
        "spans' units under it lie in separate predicted runs (the method left the topic and came back to it); "
        "one long run over the gap joins nothing. Return precision is the other side: of the pairs of consecutive "
        "runs of one predicted label (a predicted return), the share that cover one gold topic which returns "
        "between them.",
        "",
        "Columns (on the units that carry a gold label): ARI, the mean over documents; joined across runs = "
        "joined pairs / pairs of consecutive spans of the returning gold topics, pooled over the set "
        "(`bpseg_pgm.evaluation.joined_across_runs`); return precision = correct / predicted returns, pooled "
        "(`bpseg_pgm.evaluation.return_precision`); spans joined (old) = `spans_joined`, returning topics whose "
        "spans all end under one majority label, pooled over topics (one label for everything scores 1); runs/gold "
        "= predicted runs per gold run (mean / median over documents; 1 is ideal); docs w/ return = documents where "
        "the method predicts at least one return. Brackets: 95% bootstrap interval of the pooled rate, the "
        f"documents resampled ({cfg['bootstrap']} draws).",
        "",
        "Methods (one run, the same cached embeddings, `bpseg_bench.runner.segment` as `bpseg bench corpus` runs "
        "them; s/doc after one untimed warm-up fit per method):",
        *[f"- `{m}`: {d}" for m, d in cfg["methods"].items()],
        "",
        "The default's `group_runs='auto'` is on for these documents (structure 'auto', n_segments 'auto'); "
        "`bpseg-grouped` (`group_runs=True`) differs from it only on a document's heading sections, which these "
        "documents lack; `bpseg-ungrouped` (`group_runs=False`) is the ablation of the grouping step.",
        "",
        f"Embeddings: `{cfg['embedder']}`; seed {cfg['seed']}; "
        + (f"at most {limit} documents per set (`--limit {limit}`)" if limit else "every document of each set")
        + f". Machine: {machine['cpu']}, {machine['cores']} cores (`nproc`). Wall time "
        f"{result['seconds']['total']:.0f} s (embedding {result['seconds']['embedding']:.0f} s).",
    ]
    if command:
        lines += ["", f"Command: `{command}`"]
    for name, s in result["sets"].items():
        first = next(iter(s["summary"].values()))
        lines += [
            "",
            f"## {name}: {s['documents']} documents ({s['returning_docs']} with a returning gold topic), "
            f"{s['units']} units, {first['joined_across_runs']['total']} pairs of returning spans, "
            f"{first['spans_joined']['total']} returning topics",
            "",
            "| method | ARI | joined across runs | return precision | spans joined (old) | runs/gold | "
            "docs w/ return | s/doc |",
            "|---|---:|---:|---:|---:|---:|---:|---:|",
        ]
        for m, c in s["summary"].items():
            lines.append(
                f"| {m} | {_num(c['ari'])} | {_pooled(c['joined_across_runs'])} | {_pooled(c['return_precision'])} | "
                f"{_pooled(c['spans_joined'])} | {_num(c['runs_per_gold'])} / {_num(c['runs_median'])} | "
                f"{c['docs_with_return']}/{c['documents']} | {c['seconds_per_doc']:.2f} |"
            )
        notes = []
        if s["grouping_changed"] is not None:
            notes.append(f"grouping (`bpseg` against `bpseg-ungrouped`) changed the partition of "
                         f"{s['grouping_changed']} of {s['documents']} documents")  # fmt: skip
        if s["forced_differs"] is not None:
            notes.append(f"`bpseg-grouped` differs from `bpseg` on {s['forced_differs']} of the {s['documents']}")
        if notes:
            note = "; ".join(notes)
            lines += ["", note[0].upper() + note[1:] + "."]
    return "\n".join(lines) + "\n"


def main(argv=None) -> int:
    args = parse_args(argv)
    warnings.filterwarnings("ignore")
    from bpseg_bench.bench_corpus import load_dataset
    from bpseg_bench.report import write_results

    argv = sys.argv[1:] if argv is None else list(argv)
    command = "python benchmarks/returns.py" + "".join(f" {shlex.quote(a)}" for a in argv)
    datasets = {name: load_dataset(name, limit=args.limit) for name in dict.fromkeys(args.sets)}
    result = run(datasets, args.methods, seed=args.seed, progress=False if args.no_progress else None)
    result["config"].update(limit=args.limit, command=command)
    records = result.pop("records")
    markdown = render_markdown(result, command)
    written = write_results(args.out, markdown, result, None if args.records is None else (args.records, records))
    print(markdown)
    print("Wrote " + ", ".join(str(p) for p in written), file=sys.stderr)
    return 0


if __name__ == "__main__":
    sys.exit(main())
