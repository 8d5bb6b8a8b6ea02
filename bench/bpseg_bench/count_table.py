"""The count the library chooses, judged per genre (issue 51): per-document scores, their means, the target.

Five development genres (Choi set 1, QMSum train, PEPs train, LessonLink train, TinyRec's dev transcripts at the
coarse level, the fine level reported beside them) and the validation splits (Choi sets 2-4, QMSum val, PEPs
val, LessonLink val). Every document is segmented by the same methods, in one run, through the benchmarks' one
runner (:func:`bpseg_bench.runner.segment`, as ``bpseg bench corpus`` runs them) from the same cached embeddings:

* ``default``: the library's default, ``BPSeg()`` (method ``bpseg``);
* ``given k``: the default told the gold number of runs (``bpseg-true-k``: ``BPSeg(n_segments=k)``);
* ``equal``: equal-length blocks, as many as the gold runs (``equal-blocks``);
* ``KCPD-auto``: the automatic kernel change-point peer (``kcpd-auto``);
* ``one segment``: everything in one segment (``one-segment``).

Per document (on the units that carry a gold label, :func:`~bpseg_pgm.evaluation.metrics.evaluate_partial`):
ARI, Pk, and the predicted runs per gold run (runs of the prediction / runs of the gold); per set, the mean of
each over documents and the median of runs per gold run. The issue's target, per set: the default's mean ARI at
least the equal blocks' + 0.05, its mean Pk below one segment's, and its median runs per gold run within 1.5x
of 1 (from 1/1.5 to 1.5).

Leave-one-genre-out: the default has no parameter chosen here, so nothing is tuned on the other genres and the
genre left out is simply reported on its own: one line per development genre.
"""

from __future__ import annotations

import contextlib
import math
import statistics
import time
from collections.abc import Iterable, Sequence

import numpy as np

from bpseg_bench.methods import check_methods
from bpseg_bench.runner import check_seed, embed_documents, make_embedder, segment
from bpseg_pgm.evaluation.metrics import evaluate_partial, n_runs
from bpseg_pgm.types.document import Document

__all__ = [
    "COLUMNS",
    "DEV_SETS",
    "GENRE_SETS",
    "SETS",
    "TARGET",
    "VAL_SETS",
    "check_sets",
    "load_sets",
    "render_markdown",
    "run_count_table",
    "score_document",
    "summarize",
    "target",
]

#: Column name -> the registry method (:mod:`bpseg_bench.methods`) it runs.
COLUMNS: dict[str, str] = {
    "default": "bpseg",
    "given k": "bpseg-true-k",
    "equal": "equal-blocks",
    "KCPD-auto": "kcpd-auto",
    "one segment": "one-segment",
}
#: Set -> (genre, split): the development sets first, then the validation ones.
SETS: dict[str, tuple[str, str]] = {
    "choi-1": ("Choi", "dev"),
    "qmsum-train": ("QMSum", "dev"),
    "peps-train": ("PEPs", "dev"),
    "lessonlink-train": ("LessonLink", "dev"),
    "tinyrec-coarse": ("TinyRec", "dev"),
    "tinyrec-fine": ("TinyRec", "dev"),
    "choi-234": ("Choi", "val"),
    "choi-2": ("Choi", "val"),
    "choi-3": ("Choi", "val"),
    "choi-4": ("Choi", "val"),
    "qmsum-val": ("QMSum", "val"),
    "peps-val": ("PEPs", "val"),
    "lessonlink-val": ("LessonLink", "val"),
}
DEV_SETS: tuple[str, ...] = (
    "choi-1",
    "qmsum-train",
    "peps-train",
    "lessonlink-train",
    "tinyrec-coarse",
    "tinyrec-fine",
)
VAL_SETS: tuple[str, ...] = ("choi-234", "qmsum-val", "peps-val", "lessonlink-val")
#: Genre -> the development set its leave-one-genre-out line reads (TinyRec's fine level is reported, not judged).
GENRE_SETS: dict[str, str] = {
    "Choi": "choi-1",
    "QMSum": "qmsum-train",
    "PEPs": "peps-train",
    "LessonLink": "lessonlink-train",
    "TinyRec": "tinyrec-coarse",
}
TARGET = "default ARI >= equal + 0.05, Pk below one segment's, median runs per gold segment within 1.5x of 1"
ARI_MARGIN = 0.05
RUNS_FACTOR = 1.5
_METRICS = ("ari", "pk", "runs_per_gold")


def check_sets(sets: Iterable[str]) -> list[str]:
    """The set names, duplicates dropped, development sets first (each group in :data:`SETS` order);
    ValueError if none or one is unknown."""
    sets = list(dict.fromkeys(sets))
    if not sets:
        raise ValueError("no sets selected")
    unknown = [s for s in sets if s not in SETS]
    if unknown:
        raise ValueError(f"unknown set(s) {', '.join(unknown)}; choose from {', '.join(SETS)}")
    return [s for s in SETS if s in sets]


def load_sets(sets: Iterable[str], limit: int | None = None, data_dir=None) -> dict[str, list[Document]]:
    """set name -> its documents (:func:`bpseg_bench.bench_corpus.load_dataset`, at most ``limit`` per set)."""
    from bpseg_bench.bench_corpus import load_dataset

    return {name: load_dataset(name, limit=limit, data_dir=data_dir) for name in check_sets(sets)}


def score_document(doc: Document, X: np.ndarray, seed: int = 0, columns: dict[str, str] | None = None) -> list[dict]:
    """One record per column: the document segmented by the column's method and scored on its labelled units
    (``ari``, ``pk``, ``runs_per_gold`` = the prediction's runs / the gold runs, with both counts)."""
    columns = COLUMNS if columns is None else columns
    gold_runs = n_runs(doc.gold)
    mask = doc.labelled
    records = []
    for column, method in columns.items():
        labels, seconds = segment(doc, X, method, seed)
        scores = evaluate_partial(doc.labels, labels)
        records.append(
            {
                "doc": doc.doc_id,
                "method": column,
                "n_units": len(doc),
                "gold_runs": gold_runs,
                "runs": n_runs(np.asarray(labels)[mask]),
                "ari": scores["ari"],
                "pk": scores["pk"],
                "runs_per_gold": scores["runs_per_segment"],
                "seconds": seconds,
            }
        )
    return records


def _finite(values) -> list[float]:
    return [float(v) for v in values if v is not None and math.isfinite(v)]


def _mean(values) -> float:
    vals = _finite(values)
    return float(np.mean(vals)) if vals else float("nan")


def summarize(records: Sequence[dict], columns: Iterable[str] = COLUMNS) -> dict:
    """column -> {"ari", "pk", "runs_per_gold" (means over documents, NaN-aware), "runs_median", "n_docs",
    "seconds_per_doc"} for the records of one set."""
    out = {}
    for column in columns:
        rows = [r for r in records if r["method"] == column]
        if not rows:
            continue
        cell = {key: _mean(r[key] for r in rows) for key in _METRICS}
        runs = _finite(r["runs_per_gold"] for r in rows)
        cell["runs_median"] = float(statistics.median(runs)) if runs else float("nan")
        cell["n_docs"] = len(rows)
        cell["seconds_per_doc"] = _mean(r["seconds"] for r in rows)
        out[column] = cell
    return out


def _within(value: float, factor: float) -> bool:
    """1/factor <= value <= factor, up to rounding (a median of 2/3 is within 1.5x of 1)."""
    return 1 / factor - 1e-9 <= value <= factor + 1e-9


def target(summary: dict) -> dict:
    """The issue's target on one set's summary: ``ari`` (default ARI >= equal's + 0.05), ``pk`` (default Pk <
    one segment's), ``runs`` (1/1.5 <= the default's median runs per gold run <= 1.5) and ``pass`` (all three);
    None for a test whose columns are missing or NaN."""
    d, eq, one = (summary.get(c) or {} for c in ("default", "equal", "one segment"))

    def value(cell: dict, key: str):
        v = cell.get(key)
        return None if v is None or math.isnan(v) else float(v)

    ari, equal_ari, pk, one_pk = value(d, "ari"), value(eq, "ari"), value(d, "pk"), value(one, "pk")
    median = value(d, "runs_median")
    out = {
        "ari": None if ari is None or equal_ari is None else ari >= equal_ari + ARI_MARGIN,
        "pk": None if pk is None or one_pk is None else pk < one_pk,
        "runs": None if median is None else _within(median, RUNS_FACTOR),
    }
    out["pass"] = None if None in out.values() else all(out.values())
    return out


def _score_job(job):
    doc, X, seed, columns = job
    return score_document(doc, X, seed, columns)


def _init_worker():
    import warnings

    from threadpoolctl import threadpool_limits

    warnings.filterwarnings("ignore")
    threadpool_limits(1)  # one BLAS thread per worker: the workers share the cores


def _score_all(jobs: list, pool, desc: str, progress: bool | None) -> list[list[dict]]:
    """The records of every job, in order: here, or on ``pool`` (a process pool) when one is given."""
    from concurrent.futures import as_completed

    from tqdm.auto import tqdm

    bar = tqdm(total=len(jobs), desc=desc, unit="doc", disable=None if progress is None else not progress)
    try:
        if pool is None:
            out = []
            for job in jobs:
                out.append(_score_job(job))
                bar.update()
            return out
        results: list = [None] * len(jobs)
        futures = {pool.submit(_score_job, job): i for i, job in enumerate(jobs)}
        for future in as_completed(futures):
            results[futures[future]] = future.result()
            bar.update()
        return results
    finally:
        bar.close()


def _score_set(name, docs, embedder, seed, columns, pool, progress, sets: dict, records: list) -> None:
    """Embed and score one set: its entry in ``sets`` (with its embedding seconds) and its rows in ``records``."""
    docs = list(docs)
    if not docs:
        raise ValueError(f"set {name!r} has no documents")
    vectors, embed_seconds = embed_documents(docs, embedder)
    t0 = time.perf_counter()
    scored = _score_all([(d, X, seed, columns) for d, X in zip(docs, vectors)], pool, name, progress)
    rows = [{"set": name, **r} for doc_rows in scored for r in doc_rows]
    records.extend(rows)
    genre, split = SETS[name]
    summary = summarize(rows, columns)
    sets[name] = {
        "genre": genre,
        "split": split,
        "documents": len(docs),
        "units": sum(len(d) for d in docs),
        "gold_runs": float(np.mean([n_runs(d.gold) for d in docs])),
        "seconds": round(time.perf_counter() - t0, 2),
        "embedding": embed_seconds,
        "summary": summary,
        "target": target(summary),
    }


def run_count_table(
    datasets: dict[str, Sequence[Document]],
    seed: int = 0,
    jobs: int = 1,
    embedder=None,
    progress: bool | None = None,
    columns: dict[str, str] | None = None,
) -> dict:
    """Score every document of every set (``datasets``: set name -> documents, names from :data:`SETS`) with
    every column; returns config, per-set summaries and targets, the leave-one-genre-out lines and the
    per-document records."""
    columns = dict(COLUMNS if columns is None else columns)
    check_methods(columns.values())
    names = check_sets(datasets)
    seed = check_seed(seed)
    if isinstance(jobs, bool) or not isinstance(jobs, int) or jobs < 1:
        raise ValueError(f"jobs must be a positive integer, got {jobs!r}")
    embedder = make_embedder(embedder, progress)
    start = time.perf_counter()
    sets: dict = {}
    records: list[dict] = []
    with contextlib.ExitStack() as stack:
        pool = None
        if jobs > 1:  # one pool for the whole run: each worker compiles and imports once
            from concurrent.futures import ProcessPoolExecutor

            pool = stack.enter_context(ProcessPoolExecutor(max_workers=jobs, initializer=_init_worker))
        for name in names:
            _score_set(name, datasets[name], embedder, seed, columns, pool, progress, sets, records)
    embed_seconds = sum(s.pop("embedding") for s in sets.values())

    logo = [
        {"genre": genre, "set": name, **{k: sets[name][k] for k in ("documents", "target")}}
        for genre, name in GENRE_SETS.items()
        if name in sets
    ]
    config = {
        "columns": columns,
        "sets": names,
        "seed": seed,
        "jobs": jobs,
        "embedder": getattr(embedder, "model_id", type(embedder).__name__),
    }
    from bpseg_bench.report import machine_info

    return {
        "config": config,
        "machine": machine_info(),
        "seconds": {"embedding": round(embed_seconds, 2), "total": round(time.perf_counter() - start, 2)},
        "sets": sets,
        "logo": logo,
        "records": records,
    }


def _num(v: float, digits: int = 2) -> str:
    return "n/a" if v is None or (isinstance(v, float) and math.isnan(v)) else f"{v:.{digits}f}"


def _verdict(ok) -> str:
    return "n/a" if ok is None else ("pass" if ok else "FAIL")


def render_markdown(result: dict, command: str | None = None) -> str:
    """The per-set table (method x metric), the target's pass/fail per set and the leave-one-genre-out lines."""
    cfg, sets = result["config"], result["sets"]
    columns = list(cfg["columns"])
    machine = result["machine"]
    limit = cfg.get("limit")
    lines = [
        "# The count the library chooses, per genre (issue 51)",
        "",
        "Leave-one-genre-out: the default has no tuned parameter chosen by this script, so nothing is tuned on the "
        "other genres and leave-one-genre-out here just means reporting each development genre separately (one "
        "line per genre below).",
        "",
        f"Target per set: {TARGET}.",
        "",
        "Methods (one run, the same cached embeddings, `bpseg_bench.runner.segment` as `bpseg bench corpus` runs "
        "them): " + "; ".join(f"{c} = `{m}`" for c, m in cfg["columns"].items()) + ". `given k` and `equal` get "
        "the gold number of runs (the gold segments, wherever no topic returns).",
        "",
        "Scores on the units that carry a gold label, per document, then the mean over the set's documents: ARI "
        "(higher is better), Pk (an error, lower is better), runs/gold = the prediction's runs / the gold runs "
        "(1 is ideal; mean / median).",
        "",
        f"Embeddings: `{cfg['embedder']}`; seed {cfg['seed']}; "
        + (f"at most {limit} documents per set (`--limit {limit}`)" if limit else "every document of each set")
        + f"; {cfg['jobs']} job(s). Machine: {machine['cpu']}, {machine['cores']} cores. Wall time "
        f"{result['seconds']['total']:.0f} s (embedding {result['seconds']['embedding']:.0f} s).",
    ]
    if command:
        lines += ["", f"Command: `{command}`"]
    lines += ["", "## Per set", ""]
    head = ["set", "split", "docs", "gold runs"]
    for c in columns:
        head += [f"{c} ARI", f"{c} Pk", f"{c} runs/gold"]
    lines.append("| " + " | ".join(head) + " |")
    lines.append("|---|---|" + "---:|" * (len(head) - 2))
    for name, s in sets.items():
        row = [name, s["split"], str(s["documents"]), _num(s["gold_runs"], 1)]
        for c in columns:
            cell = s["summary"].get(c)
            if cell is None:
                row += ["", "", ""]
                continue
            row += [_num(cell["ari"]), _num(cell["pk"]), f"{_num(cell['runs_per_gold'])} / {_num(cell['runs_median'])}"]
        lines.append("| " + " | ".join(row) + " |")
    lines += ["", f"## Target: {TARGET}", ""]
    lines.append(
        "| set | split | default ARI | equal ARI + 0.05 | ARI | default Pk | one segment Pk | Pk | "
        "default median runs/gold | runs | target |"
    )
    lines.append("|---|---|---:|---:|---|---:|---:|---|---:|---|---|")
    for name, s in sets.items():
        lines.append(_target_row(name, s))
    lines += [
        "",
        "## Leave-one-genre-out (development genres)",
        "",
        "Nothing is chosen on the genres kept in, so each genre left out is its own development set, scored as "
        "above. TinyRec is judged at the coarse level; its fine level is reported beside it.",
        "",
        "| genre left out | set | docs | default ARI | equal ARI | default Pk | one segment Pk | "
        "default median runs/gold | target |",
    ]
    lines.append("|---|---|---:|---:|---:|---:|---:|---:|---|")
    logo = [(line["genre"], line["set"]) for line in result["logo"]]
    if "tinyrec-fine" in sets:
        logo.append(("TinyRec (fine, reported)", "tinyrec-fine"))
    for genre, name in logo:
        s = sets[name]
        d, eq, one = (s["summary"].get(c, {}) for c in ("default", "equal", "one segment"))
        lines.append(
            f"| {genre} | {name} | {s['documents']} | {_num(d.get('ari'))} | {_num(eq.get('ari'))} | "
            f"{_num(d.get('pk'))} | {_num(one.get('pk'))} | {_num(d.get('runs_median'))} | "
            f"{_verdict(s['target']['pass'])} |"
        )
    return "\n".join(lines) + "\n"


def _target_row(name: str, s: dict) -> str:
    d, eq, one = (s["summary"].get(c, {}) for c in ("default", "equal", "one segment"))
    t = s["target"]
    bar = eq.get("ari", float("nan")) + ARI_MARGIN
    return (
        f"| {name} | {s['split']} | {_num(d.get('ari'))} | {_num(bar)} | {_verdict(t['ari'])} | {_num(d.get('pk'))} | "
        f"{_num(one.get('pk'))} | {_verdict(t['pk'])} | {_num(d.get('runs_median'))} | {_verdict(t['runs'])} | "
        f"{_verdict(t['pass'])} |"
    )
