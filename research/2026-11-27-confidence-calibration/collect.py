"""Collect, for every document of a set, what the default segmentation gives and what the gold says.

For each document: the default ``segment_sentences`` path (``fit_segmentation`` with ``n_segments="auto"``,
``random_state=0``, embeddings from the on-disk cache), its labels, its full belief matrix, the structure
it chose, what the estimator measured to choose it (``structure_effect_``, ``topic_silhouette_``), and the
gold labels (-1: unlabelled).  One pickle per set under ``--cache`` (default
``/tmp/bpseg_conf/collected``), so that refitting the calibration is instant.

    nice -n 10 python research/2026-11-27-confidence-calibration/collect.py qmsum-train peps-train ...

Run it from the repository root (the data is found in ``shared/data`` above it).  To collect on a fixed
snapshot of the library while others edit the working tree, export it first
(``git archive HEAD bpseg_pgm | tar -x -C /tmp/bpseg_conf/head``) and run with
``PYTHONPATH=/tmp/bpseg_conf/head``.
"""

from __future__ import annotations

import argparse
import pickle
import sys
import time
from pathlib import Path

import numpy as np

DEFAULT_CACHE = Path("/tmp/bpseg_conf/collected")


def _chain(est):
    """Each unit's chain marginal in its own run (the runs model's forward-backward), or None without runs."""
    runs = getattr(est, "runs_", None)
    if runs is None or runs.features is None or runs.means is None:
        return None
    B = np.asarray(runs.beliefs, dtype=np.float64)
    return {"labels": np.asarray(runs.labels, dtype=np.int64), "beliefs": B}


def gold_codes(doc) -> np.ndarray:
    """One gold code per unit (codes in order of first appearance), -1 for a unit without a gold label."""
    codes: dict = {}
    return np.array([-1 if g is None else codes.setdefault(g, len(codes)) for g in doc.labels], dtype=np.int64)


def collect(ds: str, limit: int | None = None, structure: str | None = None) -> list[dict]:
    from bpseg_bench.bench_corpus import load_dataset
    from bpseg_bench.runner import embed_documents
    from bpseg_pgm.text import Embedder, pipeline
    from bpseg_pgm.text.checks import checked_estimator

    embedder = Embedder(show_progress=False)
    docs = load_dataset(ds, limit=limit)
    vectors, _ = embed_documents(docs, embedder)
    out = []
    for doc, X in zip(docs, vectors):
        t0 = time.perf_counter()
        params = {"random_state": 0} if structure is None else {"random_state": 0, "structure": structure}
        est = checked_estimator("auto", params)  # the estimator fit_segmentation fits, kept for what it measured
        seg = pipeline.fit_segmentation(list(doc.units), X, est, None)
        gold = gold_codes(doc)
        out.append(
            {
                "doc_id": str(doc.doc_id),
                "labels": np.asarray(seg.labels, dtype=np.int64),
                "beliefs": np.asarray(seg.beliefs, dtype=np.float64),
                "structure": seg.structure,
                "effect": float(getattr(est, "structure_effect_", np.nan)),
                "silhouette": float(getattr(est, "topic_silhouette_", np.nan)),
                "granularity": seg.granularity,
                "chain": _chain(est),
                "gold": gold,
                "seconds": time.perf_counter() - t0,
            }
        )
    return out


def main(argv=None) -> int:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("datasets", nargs="+")
    p.add_argument("--cache", type=Path, default=DEFAULT_CACHE)
    p.add_argument("--limit", type=int, default=None)
    p.add_argument(
        "--structure", default=None, help="BPSeg's structure (default: the default, 'auto'); the files get -STRUCTURE"
    )
    args = p.parse_args(argv)
    args.cache.mkdir(parents=True, exist_ok=True)
    for ds in args.datasets:
        t0 = time.perf_counter()
        rows = collect(ds, args.limit, args.structure)
        suffix = "" if args.structure is None else f"-{args.structure}"
        with open(args.cache / f"{ds}{suffix}.pkl", "wb") as fh:
            pickle.dump(rows, fh)
        print(f"{ds}: {len(rows)} documents, {time.perf_counter() - t0:.0f} s", file=sys.stderr, flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
