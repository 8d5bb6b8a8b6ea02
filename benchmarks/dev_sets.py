"""What the development-set studies share: their command line and the loop that scores every document of each set.

Imported by ``boundaries_words.py`` and ``returns_limits.py`` (run as ``python benchmarks/<script>.py``, which puts
this folder on the path).
"""

from __future__ import annotations

import argparse
import os
import sys
import time
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path


def options(description: str, stem: str, argv=None) -> argparse.Namespace:
    """``--limit`` (documents per set), ``--workers`` and ``--out`` (default ``results/<stem>``), checked."""
    parser = argparse.ArgumentParser(description=description)
    parser.add_argument("--limit", type=int, default=None, help="documents per set (default: all)")
    parser.add_argument("--workers", type=int, default=min(2, os.cpu_count() or 1))
    parser.add_argument("--out", default=str(Path(__file__).parent / "results" / stem))
    args = parser.parse_args(argv)
    if args.limit is not None and args.limit < 1:
        parser.error("--limit must be >= 1")
    if args.workers < 1:
        parser.error("--workers must be >= 1")
    return args


def score_sets(specs, job, score, limit=None, workers=1, chunksize=2) -> tuple[dict[str, list], float]:
    """Every document of each set in ``specs`` embedded (bundled model, cache) and scored in ``workers`` processes:
    ``score(job(spec, vectors, document))``; results that are None are dropped. Returns them by set, and the seconds."""
    from bpseg_pgm.evaluation.bench_corpus import load_dataset
    from bpseg_pgm.evaluation.runner import embed_documents, make_embedder

    embedder = make_embedder(progress=False)
    started = time.perf_counter()
    results: dict[str, list] = {}
    with ProcessPoolExecutor(workers) as pool:
        for spec in specs:
            docs = load_dataset(spec, limit=limit)
            vectors, _ = embed_documents(docs, embedder)
            jobs = [job(spec, X, d) for X, d in zip(vectors, docs)]
            results[spec] = [r for r in pool.map(score, jobs, chunksize=chunksize) if r is not None]
            print(
                f"{spec}: {len(results[spec])} documents, {time.perf_counter() - started:.0f} s",
                file=sys.stderr,
                flush=True,
            )
    return results, time.perf_counter() - started
