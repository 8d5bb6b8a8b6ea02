"""Where grouping returning topics stands once the words place the runs (issue 21): three measurements.

Development sets only (the default as ``bpseg bench`` fits it: units' weights and word counts):

* **The returns gate, re-swept on the runs the words now place.** Topics over runs groups at the best
  silhouette cut of the runs' average linkage when that silhouette reaches ``Policy.returns_silhouette`` (0.35,
  chosen in session 12 on the embeddings' runs). Here every document the default groups into run-topics is grouped
  again at each gate (``detect_returns(sim, policy)`` with ``returns_silhouette=g``, then :func:`fit_run_topics` with that cut's
  potentials, as the default does); the other documents keep the default's labels. Whole-set mean ARI, and
  each genre's gate chosen on the other two (Choi = set 1 + interleaved + choi-1-rr, meetings = QMSum train,
  PEPs = PEPs train + round-robin PEPs train).
* **How well a document's returns can be detected.** Per document (5 to 40 runs), round-robin PEPs train
  (topics return) against PEPs train and QMSum train (they do not, as a construction does): AUC of the
  embeddings' best silhouette (the shipped test), of the same on the runs' words (TF-IDF, centred), of each
  run's best non-adjacent minus best adjacent similarity, and of logistic combinations (5-fold CV).
* **Choi set 1, passages against sources.** A Choi passage opens a Brown document, and a Choi document may
  draw the same Brown document twice (two passages of one text under two gold labels). Each document the
  default gives the topic model is scored against the passages and against the sources (same first sentence,
  same label) for: the topic model (the default), the runs it keeps as its fallback (ungrouped), and a
  hybrid (the runs, each taking its majority topic label; runs that share one join when not adjacent), and the
  topic model's labels cut where a run boundary falls at least 3 units inside one of its spans (its returns
  kept). Both are also scored on interleaved and choi-1-rr (whose sources are distinct).

    python research/2026-11-24-returns-limits/returns_limits.py              # ~3 min on 2 cores, embeddings cached
    python research/2026-11-24-returns-limits/returns_limits.py --limit 20   # quicker

Outputs: ``research/2026-11-24-returns-limits/results/returns_limits.{md,json}`` (``--out`` changes the stem).
"""

from __future__ import annotations

import json
import os
import platform
import sys
import warnings
from pathlib import Path

import numpy as np

GATES = (0.2, 0.25, 0.3, 0.35, 0.4, 0.45, None)  # None: the test never fires (the threshold cut alone)
SETS = (
    ("peps-train-rr", "PEPs"),
    ("peps-train", "PEPs"),
    ("qmsum-train", "meetings"),
    ("qmsum-train-returns", None),
    ("choi-1", "Choi"),
    ("interleaved", "Choi"),
    ("choi-1-rr", "Choi"),
)
DETECT = {"peps-train-rr": 1, "peps-train": 0, "qmsum-train": 0}


def gate_name(g) -> str:
    return "no test" if g is None else f"{g:g}"


def lexical_similarity(counts, bounds: np.ndarray) -> np.ndarray:
    """Centred cosine of the runs' TF-IDF vectors (sublinear counts, idf over the document's runs)."""
    import scipy.sparse as sp

    C = sp.csr_matrix(counts, dtype=np.float64)
    R = np.vstack([np.asarray(C[s:e].sum(axis=0)).ravel() for s, e in zip(bounds[:-1], bounds[1:])])
    m = R.shape[0]
    idf = np.log((1 + m) / (1 + (R > 0).sum(axis=0))) + 1
    T = np.where(R > 0, 1 + np.log(np.maximum(R, 1e-12)), 0.0) * idf
    T /= np.linalg.norm(T, axis=1, keepdims=True) + 1e-12
    T -= T.mean(axis=0)
    T /= np.linalg.norm(T, axis=1, keepdims=True) + 1e-12
    S = np.clip(T @ T.T, -1.0, 1.0)
    np.fill_diagonal(S, 1.0)
    return S


def hybrid(topic: np.ndarray, runs: np.ndarray) -> np.ndarray:
    """The runs, each taking its majority topic label; runs that share a label join unless adjacent."""
    from bpseg_pgm.utils.labels import run_bounds

    b = run_bounds(runs)
    major = []
    for s, e in zip(b[:-1], b[1:]):
        values, counts = np.unique(topic[s:e], return_counts=True)
        major.append(values[np.argmax(counts)])
    out = np.arange(len(major))
    for i in range(len(major)):
        earlier = [j for j in range(i - 1) if major[j] == major[i]]
        if earlier:
            out[i] = out[earlier[0]]
    return np.repeat(out, np.diff(b))


def split_at_runs(topic: np.ndarray, runs: np.ndarray, min_piece: int = 3) -> np.ndarray:
    """The topic model's labels, each of its spans cut where a run boundary falls at least ``min_piece`` units
    inside it; the longest piece keeps the label, the others get new ones (its returns are kept)."""
    from bpseg_pgm.utils.labels import run_bounds

    out = np.asarray(topic).copy()
    fresh = int(out.max()) + 1
    cuts_all = run_bounds(runs)[1:-1]
    bounds = run_bounds(out)
    for s, e in zip(bounds[:-1], bounds[1:]):
        cuts = [int(c) for c in cuts_all if s + min_piece <= c <= e - min_piece]
        if not cuts:
            continue
        pieces = list(zip([s, *cuts], [*cuts, e]))
        longest = max(range(len(pieces)), key=lambda i: pieces[i][1] - pieces[i][0])
        for i, (a, b) in enumerate(pieces):
            if i != longest:
                out[a:b] = fresh
                fresh += 1
    return out


def score_document(job):
    warnings.filterwarnings("ignore")
    from bpseg_pgm.decisions.grouping import detect_returns
    from bpseg_pgm.decisions.structure import choose_structure
    from bpseg_pgm.estimator import BPSeg
    from bpseg_pgm.evaluation.metrics import evaluate_partial
    from bpseg_pgm.features.weights import unit_weights
    from bpseg_pgm.features.words import unit_word_counts
    from bpseg_pgm.policy import DEFAULT_POLICY as P
    from bpseg_pgm.runs.evidence import check_word_counts
    from bpseg_pgm.runtopics import fit_run_topics
    from bpseg_pgm.runtopics.potentials import RunTopicPotentials
    from bpseg_pgm.runtopics.summary import summarize_runs
    from bpseg_pgm.utils.validation import normalize_rows

    spec, X, units, gold = job
    gold = np.asarray(gold)
    w = unit_weights(units, P.word_scale)
    Xn = normalize_rows(np.asarray(X, dtype=float))
    counts = check_word_counts(unit_word_counts(units), len(units))
    est = BPSeg(random_state=0).fit(Xn, sample_weight=w, word_counts=counts)

    def ari(labels, against=gold):
        return float(evaluate_partial(against, labels)["ari"])

    out = {"structure": est.structure_, "default": ari(est.labels_)}
    if est.structure_ == "run-topics":
        runs = est.runs_.labels
        summary = summarize_runs(Xn, w, runs)
        sim = summary.similarity()
        for g in GATES:
            found = None if g is None else detect_returns(sim, P.replace(returns_silhouette=g))  # None: never fires
            pot = (
                RunTopicPotentials.from_policy(P, threshold=found.threshold, locality=P.returns_locality)
                if found is not None and found.detected
                else None
            )
            out[f"gate {gate_name(g)}"] = ari(fit_run_topics(Xn, w, runs, potentials=pot, random_state=0).labels)
        m = summary.n_runs
        if spec in DETECT and 5 <= m <= 40:
            A = sim.copy()
            np.fill_diagonal(A, -np.inf)
            near = [max(A[i, i - 1] if i else -np.inf, A[i, i + 1] if i < m - 1 else -np.inf) for i in range(m)]
            far = [max([A[i, j] for j in range(m) if abs(i - j) > 1] or [-np.inf]) for i in range(m)]
            out["features"] = [
                detect_returns(sim, P).silhouette,  # the best cut's silhouette, whatever the gate
                detect_returns(lexical_similarity(counts, summary.bounds), P).silhouette,
                float(np.mean(np.subtract(far, near))),
            ]
    elif est.structure_ == "topics" and spec.startswith(("choi", "interleaved")):
        found = choose_structure(Xn, w, "auto", 0, word_counts=counts, policy=P)
        if found.fit is not None:
            labels = {
                "topic model (default)": est.labels_,
                "its fallback runs": found.fit.labels,
                "hybrid": hybrid(np.asarray(est.labels_), found.fit.labels),
                "topics cut at the runs": split_at_runs(np.asarray(est.labels_), found.fit.labels),
            }
            out["choi"] = {k: ari(v) for k, v in labels.items()}
            if spec == "choi-1":
                first: dict = {}
                for label, unit in zip(gold, units):
                    first.setdefault(label, unit)
                sources = np.unique([first[label] for label in gold], return_inverse=True)[1]
                out["repeated source"] = bool(np.unique(sources).size < np.unique(gold).size)
                out["choi sources"] = {k: ari(v, sources) for k, v in labels.items()}
    return out


def main(argv=None) -> int:
    sys.path.insert(0, str(Path(__file__).resolve().parents[1]))  # research/, for common.py
    from common import options, score_sets

    args = options(__doc__.split("\n")[0], "returns_limits", argv, Path(__file__).parent)
    warnings.filterwarnings("ignore")
    from sklearn.linear_model import LogisticRegression
    from sklearn.metrics import roc_auc_score
    from sklearn.model_selection import cross_val_predict

    results, seconds = score_sets(
        [spec for spec, _ in SETS],
        lambda spec, X, d: (spec, X, list(d.units), list(d.labels)),
        score_document,
        args.limit,
        args.workers,
    )

    def set_mean(spec, key):
        """Whole-set mean ARI, the documents not grouped into run-topics keeping the default's labels."""
        return float(np.mean([r.get(key, r["default"]) for r in results[spec]]))

    gates = [f"gate {gate_name(g)}" for g in GATES]
    gate_table = {spec: {g: set_mean(spec, g) for g in gates} for spec, _ in SETS}
    genres = sorted({g for _, g in SETS if g})

    def genre_score(genre, gate):
        return float(np.mean([gate_table[s][gate] for s, g in SETS if g == genre]))

    logo = []
    for genre in genres:
        others = [g for g in genres if g != genre]
        pick = max(gates, key=lambda gate: (np.mean([genre_score(o, gate) for o in others]), gate == "gate 0.35"))
        logo.append(
            {
                "left out": genre,
                "gate": pick,
                "score": genre_score(genre, pick),
                "shipped 0.35": genre_score(genre, "gate 0.35"),
                "no test": genre_score(genre, "gate no test"),
            }
        )

    rows = [(DETECT[s], r["features"]) for s in DETECT for r in results[s] if "features" in r]
    y = np.array([r[0] for r in rows])
    F = np.array([r[1] for r in rows], dtype=float)
    names = [
        "embeddings: best silhouette (shipped)",
        "words: best silhouette (centred TF-IDF)",
        "embeddings: best non-adjacent minus best adjacent similarity",
    ]
    detect = []
    if 0 < y.sum() < len(y):
        for i, name in enumerate(names):
            detect.append({"feature": name, "auc": float(roc_auc_score(y, F[:, i]))})
        folds = int(min(5, y.sum(), len(y) - y.sum()))
        if folds >= 2:
            for cols in ([0, 1], [0, 2], [0, 1, 2]):
                p = cross_val_predict(LogisticRegression(), F[:, cols], y, cv=folds, method="predict_proba")[:, 1]
                detect.append(
                    {
                        "feature": "logistic: " + " + ".join(names[c].split(":")[0] + f" [{c}]" for c in cols),
                        "auc": float(roc_auc_score(y, p)),
                    }
                )

    choi = {}
    for spec in ("choi-1", "interleaved", "choi-1-rr"):
        scored = [r for r in results[spec] if "choi" in r]
        groups = [("every document it gives the topic model", scored)]
        if spec == "choi-1":
            groups += [
                ("with a repeated source", [r for r in scored if r["repeated source"]]),
                ("without", [r for r in scored if not r["repeated source"]]),
            ]
        for name, rs in groups:
            if not rs:
                continue
            row = {"set": spec, "documents": name, "n": len(rs)}
            for method in rs[0]["choi"]:
                row[method] = float(np.mean([r["choi"][method] for r in rs]))
                if spec == "choi-1":
                    row[method + " (sources)"] = float(np.mean([r["choi sources"][method] for r in rs]))
            choi[f"{spec} / {name}"] = row

    out = Path(args.out)
    out.parent.mkdir(parents=True, exist_ok=True)
    machine = f"{platform.processor() or platform.machine()}, {os.cpu_count()} cores"
    cmd = "python research/2026-11-24-returns-limits/returns_limits.py" + (
        "" if args.limit is None else f" --limit {args.limit}"
    )
    lines = [
        "# Grouping returning topics once the words place the runs (issue 21)",
        "",
        f"Command: `{cmd}`. Machine: {machine}. {seconds:.0f} s. Development data only.",
        "",
        "## The returns gate on the current runs (whole-set mean ARI)",
        "",
        "| set | documents grouped into run-topics | " + " | ".join(g.replace("gate ", "") for g in gates) + " |",
        "|---|---:|" + "---:|" * len(gates),
    ]
    for spec, _ in SETS:
        n = sum(r["structure"] == "run-topics" for r in results[spec])
        lines.append(
            f"| {spec} | {n} of {len(results[spec])} | "
            + " | ".join(f"{gate_table[spec][g]:.3f}" for g in gates)
            + " |"
        )
    lines += [
        "",
        "Leave one genre out (the gate of best mean on the other two genres; ties go to the shipped 0.35):",
        "",
        "| genre left out | gate chosen | its score | at the shipped 0.35 | with no test |",
        "|---|---|---:|---:|---:|",
    ]
    for r in logo:
        lines.append(
            f"| {r['left out']} | {r['gate'].replace('gate ', '')} | {r['score']:.3f} | {r['shipped 0.35']:.3f} | {r['no test']:.3f} |"
        )
    lines += [
        "",
        f"## Detecting returns per document ({int(y.sum())} round-robin PEPs train against {int(len(y) - y.sum())} "
        "PEPs train and QMSum train documents of 5 to 40 runs)",
        "",
        "| feature | AUC |",
        "|---|---:|",
    ]
    lines += [f"| {r['feature']} | {r['auc']:.3f} |" for r in detect]
    lines += ["", "## Choi: the topic model, its fallback runs and the hybrid, against passages and sources (ARI)", ""]
    methods = ["topic model (default)", "its fallback runs", "hybrid", "topics cut at the runs"]
    lines += [
        "| set / documents | n | " + " | ".join(methods) + " | " + " | ".join(m + ", sources" for m in methods) + " |",
        "|---|---:|" + "---:|" * (2 * len(methods)),
    ]
    for key, row in choi.items():
        lines.append(
            f"| {key} | {row['n']} | "
            + " | ".join(f"{row[m]:.3f}" for m in methods)
            + " | "
            + " | ".join(f"{row[m + ' (sources)']:.3f}" if m + " (sources)" in row else "-" for m in methods)
            + " |"
        )
    out.with_suffix(".md").write_text("\n".join(lines) + "\n")
    out.with_suffix(".json").write_text(
        json.dumps(
            {
                "command": cmd,
                "machine": machine,
                "seconds": seconds,
                "gates": gate_table,
                "logo": logo,
                "detect": detect,
                "choi": choi,
            },
            indent=1,
        )
    )
    print("\n".join(lines))
    return 0


if __name__ == "__main__":
    sys.exit(main())
