"""kcpd-auto on the development sets: the C its elbow picks per document, and its cost by document length.

Usage: python elbow_and_timing.py OUT_JSON

For every document of choi-1, interleaved, qmsum-train and peps-train (embeddings from the cache):
the chosen C, the number of segments it gives against the gold runs, and the PELT solves the grid
walk needed. Then, on the QMSum train meetings nearest 250, 500, 1000 and 1800 units, the seconds
of ``KCPDAuto().fit`` and ``SemanticBreakpoints().fit`` (best of 3).
"""

from __future__ import annotations

import json
import sys
import time

import numpy as np

from bpseg_bench.baselines.kcpd_auto import KCPDAuto
from bpseg_bench.baselines.semantic_breakpoints import SemanticBreakpoints
from bpseg_bench.bench_corpus import load_dataset
from bpseg_pgm.embeddings import Embedder
from bpseg_pgm.utils.labels import n_runs

DEV = ("choi-1", "interleaved", "qmsum-train", "peps-train")


def solves(counts: np.ndarray) -> int:
    zero = np.flatnonzero(counts == 0)
    return int(zero[0]) + 1 if zero.size else int(counts.size)


def best_of(fit, X, repeats=3) -> float:
    times = []
    for _ in range(repeats):
        t0 = time.perf_counter()
        fit(X)
        times.append(time.perf_counter() - t0)
    return min(times)


def main(out_path: str) -> None:
    embedder = Embedder(show_progress=False)
    out: dict = {"elbow": {}, "timing": []}
    for ds in DEV:
        docs = load_dataset(ds)
        rows = []
        for doc in docs:
            X = np.asarray(embedder.encode(list(doc.units)), dtype=np.float64)
            model = KCPDAuto().fit(X)
            labelled = [lab for lab in doc.labels if lab is not None]
            rows.append(
                (len(doc), model.c_, int(model.labels_.max()) + 1, n_runs(labelled), solves(model.n_change_points_))
            )
        r = np.array(rows, dtype=float)
        out["elbow"][ds] = {
            "documents": len(rows),
            "c_quartiles": np.nanquantile(r[:, 1], [0.25, 0.5, 0.75]).tolist(),
            "segments_mean": float(r[:, 2].mean()),
            "gold_runs_mean": float(r[:, 3].mean()),
            "segments_over_gold_runs_median": float(np.median(r[:, 2] / r[:, 3])),
            "pelt_solves_mean": float(r[:, 4].mean()),
        }
        print(ds, out["elbow"][ds], flush=True)
    meetings = load_dataset("qmsum-train")
    for target in (250, 500, 1000, 1800):
        doc = min(meetings, key=lambda d: abs(len(d) - target))
        X = np.asarray(embedder.encode(list(doc.units)), dtype=np.float64)
        model = KCPDAuto().fit(X)
        row = {
            "units": len(doc),
            "kcpd_auto_s": best_of(lambda A: KCPDAuto().fit(A), X),
            "pelt_solves": solves(model.n_change_points_),
            "semantic_breakpoints_s": best_of(lambda A: SemanticBreakpoints().fit(A), X),
        }
        out["timing"].append(row)
        print(row, flush=True)
    with open(out_path, "w", encoding="utf-8") as f:
        json.dump(out, f, indent=1)
        f.write("\n")


if __name__ == "__main__":
    main(sys.argv[1])
