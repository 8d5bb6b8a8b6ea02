"""A minimum run length for the runs model given k: do slivers cost or pay? (issue 36, fault 4)

Given the number of runs k, the runs model's best split (the exact segmental programme over the smoothed
features, :func:`~bpseg_pgm.runs.model.fit_runs`, then the words' cost beside the embeddings',
:meth:`~bpseg_pgm.runs.model.RunsFit.with_words`) sometimes spends a run on a handful of units and leaves another
several times the mean length. This script measures, on the development sets at the gold number of runs
(:func:`~bpseg_bench.runner.gold_k`, ``"runs"``), the same split with every run at least

    min_size = max(1, floor(f * n / k)) units,   f in F_VALUES (f = 0: the library as it is),

through :func:`~bpseg_pgm.runs.search.segmental_levels` (``min_size``: runs shorter than that cost inf). Library
behaviour is not changed; the script reproduces the fit given k from public functions:

* features: the unit rows normalised, smoothed with width ``Policy.smoothing`` x the persistence half-life,
  weighted by the text pipeline's unit weights (``Units.from_sentences``), as ``fit_runs`` does;
* "embeddings": ``segmental_levels(F, w, k, min_size)`` read at k (``runs_at``);
* "+ words": ``RunsFit.with_words`` semantics with the minimum length kept: the words' alpha (type-II ML) and the
  two scales (each cost's gain from one run to the k runs) are set on the embeddings' constrained split at k, and
  the combined cost (embeddings / g_E + ``Policy.word_weight`` x words / g_W) is cut by ``segmental_levels`` with
  the same ``min_size`` (``with_words`` itself would re-solve the combined cost without it). At f = 0 this is
  checked against the library's own ``runs_at(...).with_words(...)`` and against
  ``BPSeg(n_segments=k, structure="runs")`` on the ``Units`` (method ``bpseg-contiguous-true-k``): mismatches
  are counted in the output.

Documents longer than ``Policy.max_candidates`` units: the programme runs over binary segmentation's boundaries
(the candidates), and ``min_size`` is applied there in units between candidates (exact over the candidates; the
windows past them, which do not take ``min_size``, are never needed since gold k is far below the candidates).
If no split into k runs of at least ``min_size`` exists among the candidates, the document keeps its f = 0 split
and is counted (``infeasible``).

Rows per set and f: ARI, Pk, the shortest run / the mean run length, the longest / the mean, and the share of
documents whose shortest run is under 0.2 x the mean; the gold runs' own shape and the equal-blocks baseline in the
same table. Then leave-one-genre-out (Choi: choi-1, interleaved, choi-1-rr; QMSum: qmsum-train; PEPs: peps-train,
peps-train-rr; a genre is the mean of its sets): f chosen on the other two genres by ARI ("+ words", what a fit
given k runs), the genre left out at f = 0 -> that f. Only development data is read unless ``--held-out F`` is given
(then the held-out sets choi-234, qmsum-val, peps-val at f = 0 and F, once).

    python research/2026-11-27-min-run-length/min_run_length.py --workers 1            # all development documents
    python research/2026-11-27-min-run-length/min_run_length.py --limit 10             # quicker
    python research/2026-11-27-min-run-length/min_run_length.py --held-out 0.2         # the held-out sets, once, at the chosen f

Outputs: ``research/2026-11-27-min-run-length/results/min_run_length.{md,json}`` (``--out`` changes the stem; the held-out run writes
``<stem>_heldout``).
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import sys
import time
import warnings
from pathlib import Path

import numpy as np

F_VALUES = (0.0, 0.1, 0.2, 0.3, 0.5)
DEV_SETS = (
    ("choi-1", "Choi"),
    ("interleaved", "Choi"),
    ("choi-1-rr", "Choi"),
    ("qmsum-train", "QMSum"),
    ("peps-train", "PEPs"),
    ("peps-train-rr", "PEPs"),
)
HELD_OUT_SETS = (("choi-234", "Choi"), ("qmsum-val", "QMSum"), ("peps-val", "PEPs"))
VARIANTS = ("emb", "words")  # the embeddings' cost alone; with the words' cost beside it (what a fit given k runs)
SLIVER = 0.2  # a run shorter than this x the mean run length counts as a sliver


def _shape(labels: np.ndarray) -> tuple[float, float]:
    """The shortest and the longest run (consecutive equal labels) over the mean run length."""
    labels = np.asarray(labels)
    cuts = np.flatnonzero(labels[1:] != labels[:-1]) + 1
    lengths = np.diff(np.concatenate([[0], cuts, [labels.shape[0]]]))
    mean = labels.shape[0] / lengths.shape[0]
    return float(lengths.min() / mean), float(lengths.max() / mean)


def _cpu_name() -> str:
    try:
        for line in Path("/proc/cpuinfo").read_text().splitlines():
            if line.startswith("model name"):
                return line.split(":", 1)[1].strip()
    except OSError:
        pass
    return platform.processor() or platform.machine()


def _row(doc, labels: np.ndarray) -> list[float]:
    from bpseg_pgm.evaluation.metrics import evaluate_partial

    s = evaluate_partial(doc.labels, labels)
    return [round(float(s["ari"]), 5), round(float(s["pk"]), 5), *(round(v, 4) for v in _shape(labels))]


def _with_words_levels(F, w, positions_levels, k, counts, weight, min_size, search):
    """The embeddings' and the words' cost together (``RunsFit.with_words``'s scales and alpha, set on the
    embeddings' split at k in ``positions_levels``), cut by ``segmental_levels`` with ``min_size``; None where
    ``with_words`` would keep the embeddings' runs (k < 2, no word, a cost that gains nothing)."""
    from bpseg_pgm.runs.cost_registry import RunCost
    from bpseg_pgm.runs.costs import cost_matrix
    from bpseg_pgm.runs.evidence import ml_alpha
    from bpseg_pgm.runs.search import segmental_levels
    from bpseg_pgm.runs.wordcost import word_cost_matrix

    if k < 2 or counts.nnz == 0 or not weight > 0:
        return None
    positions = positions_levels.positions
    ref = np.searchsorted(positions, np.append(positions_levels.starts(k), positions_levels.n_units))
    whole = np.array([0, positions.shape[0] - 1])
    alpha = ml_alpha(counts, positions_levels.labels(k))[0]
    E = cost_matrix(F, w, positions)
    D = word_cost_matrix(counts, alpha, positions)
    g_e = float(E[whole[:-1], whole[1:]].sum() - E[ref[:-1], ref[1:]].sum())
    g_w = float(D[whole[:-1], whole[1:]].sum() - D[ref[:-1], ref[1:]].sum())
    if not (g_e > 0 and g_w > 0 and np.isfinite(g_e) and np.isfinite(g_w)):
        return None
    E /= g_e
    D *= float(weight) / g_w
    E += D
    del D

    class Combined(RunCost):
        """The combined matrix over these candidate positions (``segmental_levels`` computes the same ones)."""

        name = "embeddings+words"

        def matrix(self, at=None):
            if at is None or not np.array_equal(at, positions):
                raise RuntimeError("candidate positions differ from the embeddings' levels")
            return E.copy()  # segmental_levels writes inf into short runs in place

    return segmental_levels(F, w, k, min_size, cost=Combined(), **search)


def score_document(job):
    """The runs at the gold k for every f (both variants), the equal blocks and the library's own fit given k."""
    warnings.filterwarnings("ignore")
    from bpseg_bench.runner import gold_k, segment
    from bpseg_pgm.features import Units
    from bpseg_pgm.policy import DEFAULT_POLICY as policy
    from bpseg_pgm.runs.evidence import check_word_counts
    from bpseg_pgm.runs.model import runs_at
    from bpseg_pgm.runs.search import segmental_levels
    from bpseg_pgm.runs.statistics import persistence_halflife, smoothed_embeddings
    from bpseg_pgm.utils.validation import check_sample_weight, normalize_rows

    X, doc = job
    t0 = time.perf_counter()
    n = len(doc)
    k = min(gold_k(doc, "runs"), n)
    units = Units.from_sentences(doc.units, embeddings=X)
    Xn = normalize_rows(np.asarray(X, dtype=np.float64))
    w = check_sample_weight(units.weights, n)
    counts = check_word_counts(units.word_counts, n)
    search = {"policy": policy}  # the search's numbers (max_candidates, window, window_share) are the policy's
    width = policy.smoothing * persistence_halflife(Xn)
    F = smoothed_embeddings(Xn, width, w, min_width=policy.smoothing_min_width)
    out = {"id": doc.id, "n": n, "k": k, "long": n > policy.max_candidates, "infeasible": [], "fallback_words": []}
    out["gold"] = [1.0, 0.0, *(round(v, 4) for v in _shape(doc.gold))]
    out["equal"] = _row(doc, segment(doc, X, "equal-blocks", 0)[0])
    library = segment(doc, X, "bpseg-contiguous-true-k", 0)[0]
    out["library"] = _row(doc, library)
    base = None
    for f in F_VALUES:
        min_size = max(1, int(np.floor(f * n / k)))
        levels = segmental_levels(F, w, k, min_size, **search)
        if not np.isfinite(levels.costs[k]):  # no split into k runs that long among the candidates
            out["infeasible"].append(f)
            levels = base
        emb = runs_at(F, w, levels, k, width)
        out[f"emb/{f:g}"] = _row(doc, emb.labels)
        combined = _with_words_levels(F, w, levels, k, counts, policy.word_weight, min_size, search)
        if combined is not None and not np.isfinite(combined.costs[k]):
            combined = None
        if combined is None:
            out["fallback_words"].append(f)
            words_labels = emb.labels
        else:
            words_labels = combined.labels(k)
        out[f"words/{f:g}"] = _row(doc, words_labels)
        if f == 0:
            base = levels
            lib_words = emb.with_words(counts, policy.word_weight).labels
            out["check_with_words"] = bool(np.array_equal(lib_words, words_labels))
            out["check_estimator"] = bool(np.array_equal(library, words_labels))
    out["seconds"] = round(time.perf_counter() - t0, 3)
    return out


def _mean(docs, key, col):
    vals = [d[key][col] for d in docs if not np.isnan(d[key][col])]
    return float(np.mean(vals)) if vals else float("nan")


def _summary(docs, key):
    """ARI, Pk, shortest / mean, longest / mean (means over documents) and the share of documents with a sliver."""
    return {
        "ari": _mean(docs, key, 0),
        "pk": _mean(docs, key, 1),
        "min/mean": _mean(docs, key, 2),
        "max/mean": _mean(docs, key, 3),
        "sliver": float(np.mean([d[key][2] < SLIVER for d in docs])),
    }


def tables(results, sets):
    rows = []
    for spec, genre in sets:
        docs = results[spec]
        keys = [("gold runs", "gold"), ("equal blocks", "equal"), ("library, given k", "library")]
        keys += [(f"{v} f={f:g}", f"{v}/{f:g}") for v in VARIANTS for f in F_VALUES]
        for label, key in keys:
            rows.append({"set": spec, "genre": genre, "method": label, "n_docs": len(docs), **_summary(docs, key)})
    return rows


def sliver_rows(results, sets):
    """On the documents whose runs at f = 0 hold a sliver: how many, how many of them have a gold sliver too, and
    ARI (Pk) at every f."""
    rows = []
    for spec, genre in sets:
        for v in VARIANTS:
            docs = [d for d in results[spec] if d[f"{v}/0"][2] < SLIVER]
            row = {"set": spec, "genre": genre, "variant": v, "n_docs": len(docs)}
            row["gold sliver"] = sum(d["gold"][2] < SLIVER for d in docs)
            for f in F_VALUES:
                row[f"ari {f:g}"] = _mean(docs, f"{v}/{f:g}", 0)
                row[f"pk {f:g}"] = _mean(docs, f"{v}/{f:g}", 1)
            rows.append(row)
    return rows


def genre_score(rows, sets, genre, method, metric="ari"):
    specs = [s for s, g in sets if g == genre]
    return float(np.mean([r[metric] for r in rows if r["set"] in specs and r["method"] == method]))


def leave_one_genre_out(rows, sets, variant):
    genres = sorted({g for _, g in sets})
    out = []
    for left in genres:
        rest = [g for g in genres if g != left]
        best = max(
            F_VALUES, key=lambda f: (np.mean([genre_score(rows, sets, g, f"{variant} f={f:g}") for g in rest]), -f)
        )
        out.append(
            {
                "variant": variant,
                "left out": left,
                "f": best,
                "ari before": genre_score(rows, sets, left, f"{variant} f=0"),
                "ari after": genre_score(rows, sets, left, f"{variant} f={best:g}"),
                "pk before": genre_score(rows, sets, left, f"{variant} f=0", "pk"),
                "pk after": genre_score(rows, sets, left, f"{variant} f={best:g}", "pk"),
            }
        )
    return out


def main(argv=None) -> int:
    sys.path.insert(0, str(Path(__file__).resolve().parents[1]))  # research/, for common.py
    from common import score_sets

    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--limit", type=int, default=None, help="documents per set (default: all)")
    parser.add_argument("--workers", type=int, default=1)
    parser.add_argument("--out", default=str(Path(__file__).parent / "results" / "min_run_length"))
    parser.add_argument("--held-out", type=float, default=None, metavar="F", help="score the held-out sets at F")
    args = parser.parse_args(argv)
    if args.held_out is not None and args.held_out not in F_VALUES:
        parser.error(f"--held-out must be one of {F_VALUES}")
    sets = DEV_SETS if args.held_out is None else HELD_OUT_SETS
    warnings.filterwarnings("ignore")
    results, seconds = score_sets(
        [s for s, _ in sets], lambda spec, X, d: (X, d), score_document, args.limit, args.workers, chunksize=1
    )
    rows = tables(results, sets)
    slivers = sliver_rows(results, sets)
    logo = [] if args.held_out is not None else [r for v in VARIANTS for r in leave_one_genre_out(rows, sets, v)]
    docs = [d for s, _ in sets for d in results[s]]
    checks = {
        "documents": len(docs),
        "longer than max_candidates": sum(d["long"] for d in docs),
        "(document, f) pairs infeasible (kept f=0)": sum(len(d["infeasible"]) for d in docs),
        "(document, f) pairs where the words do not weigh in (embeddings' runs kept)": sum(
            len(d["fallback_words"]) for d in docs
        ),
        "f=0 + words != library with_words": sum(not d["check_with_words"] for d in docs),
        "f=0 + words != BPSeg given k": sum(not d["check_estimator"] for d in docs),
    }

    out = Path(args.out if args.held_out is None else args.out + "_heldout")
    out.parent.mkdir(parents=True, exist_ok=True)
    machine = f"{_cpu_name()}, {os.cpu_count()} cores, CPU"
    cmd = "python research/2026-11-27-min-run-length/min_run_length.py" + f" --workers {args.workers}"
    cmd += "" if args.limit is None else f" --limit {args.limit}"
    cmd += "" if args.held_out is None else f" --held-out {args.held_out:g}"
    shown = (0.0, args.held_out) if args.held_out is not None else F_VALUES
    keep = {"gold runs", "equal blocks", "library, given k"} | {f"{v} f={f:g}" for v in VARIANTS for f in shown}
    lines = [
        "# A minimum run length for the runs model given k (issue 36, fault 4)",
        "",
        f"Command: `{cmd}`. Machine: {machine}. {seconds:.0f} s (embeddings from the cache). "
        + ("Held-out sets, once." if args.held_out is not None else "Development data only.")
        + " k = the gold number of runs; min_size = max(1, floor(f n / k)). emb: the embeddings' cost alone; "
        "words: with the words' cost beside it (what a fit given k runs; f = 0 is the library's fit given k). "
        f"Means over documents; sliver: share of documents whose shortest run is under {SLIVER} x the mean.",
        "",
        "| set | docs | method | ARI | Pk | shortest/mean | longest/mean | sliver |",
        "|---|---:|---|---:|---:|---:|---:|---:|",
    ]
    for r in rows:
        if r["method"] in keep:
            lines.append(
                f"| {r['set']} | {r['n_docs']} | {r['method']} | {r['ari']:.3f} | {r['pk']:.3f} | "
                f"{r['min/mean']:.2f} | {r['max/mean']:.2f} | {r['sliver']:.2f} |"
            )
    head = " | ".join(f"f={f:g}" for f in shown)
    lines += [
        "",
        f"Only the documents whose runs at f = 0 hold a sliver (a run under {SLIVER} x the mean): how many, in how "
        "many of them the gold runs hold one too, and ARI (Pk) at each f.",
        "",
        f"| set | variant | docs | gold sliver too | {head} |",
        "|---|---|---:|---:|" + "---:|" * len(shown),
    ]
    for r in slivers:
        if r["n_docs"]:
            cells = " | ".join(f"{r[f'ari {f:g}']:.3f} ({r[f'pk {f:g}']:.3f})" for f in shown)
            lines.append(f"| {r['set']} | {r['variant']} | {r['n_docs']} | {r['gold sliver']} | {cells} |")
    genres = sorted({g for _, g in sets})
    lines += [
        "",
        "Per genre (the mean of its sets' means), ARI (Pk); equal blocks for reference.",
        "",
        f"| variant | genre | equal blocks | {head} |",
        "|---|---|---:|" + "---:|" * len(shown),
    ]
    for v in VARIANTS:
        for g in genres:
            eq = f"{genre_score(rows, sets, g, 'equal blocks'):.3f} ({genre_score(rows, sets, g, 'equal blocks', 'pk'):.3f})"
            cells = " | ".join(
                f"{genre_score(rows, sets, g, f'{v} f={f:g}'):.3f} ({genre_score(rows, sets, g, f'{v} f={f:g}', 'pk'):.3f})"
                for f in shown
            )
            lines.append(f"| {v} | {g} | {eq} | {cells} |")
    if logo:
        lines += [
            "",
            "Leave one genre out (a genre is the mean of its sets): f chosen by ARI on the other two genres, and the "
            "genre left out at f = 0 -> that f.",
            "",
            "| variant | left out | f chosen | ARI before -> after | Pk before -> after |",
            "|---|---|---:|---|---|",
        ]
        for r in logo:
            lines.append(
                f"| {r['variant']} | {r['left out']} | {r['f']:g} | {r['ari before']:.4f} -> {r['ari after']:.4f} | "
                f"{r['pk before']:.4f} -> {r['pk after']:.4f} |"
            )
    lines += ["", "Checks: " + "; ".join(f"{k}: {v}" for k, v in checks.items()) + "."]
    out.with_suffix(".md").write_text("\n".join(lines) + "\n")
    out.with_suffix(".json").write_text(
        json.dumps(
            {
                "command": cmd,
                "machine": machine,
                "seconds": round(seconds, 1),
                "f_values": F_VALUES,
                "table": rows,
                "slivers": slivers,
                "logo": logo,
                "checks": checks,
            },
            indent=1,
        )
    )
    print("\n".join(lines))
    print(f"Wrote {out.with_suffix('.md')}, {out.with_suffix('.json')}", file=sys.stderr)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
