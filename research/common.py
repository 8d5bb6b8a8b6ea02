"""What the research studies share: the command line and the loop that score every document of each development
set, and the long texts built from development documents.

The one module the studies in ``research/`` import besides the library (no study imports another). A study that
needs it puts this folder on the path first::

    sys.path.insert(0, str(Path(__file__).resolve().parents[1]))  # research/, for common.py
    from common import options, score_sets

Frozen with the studies: not maintained, not imported by ``bpseg_pgm``.
"""

from __future__ import annotations

import argparse
import os
import sys
import time
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path

import numpy as np


def options(description: str, stem: str, argv=None, folder: Path | None = None) -> argparse.Namespace:
    """``--limit`` (documents per set), ``--workers`` and ``--out`` (default ``<folder>/results/<stem>``, the
    study's own folder), checked."""
    parser = argparse.ArgumentParser(description=description)
    parser.add_argument("--limit", type=int, default=None, help="documents per set (default: all)")
    parser.add_argument("--workers", type=int, default=min(2, os.cpu_count() or 1))
    parser.add_argument("--out", default=str((folder or Path.cwd()) / "results" / stem))
    args = parser.parse_args(argv)
    if args.limit is not None and args.limit < 1:
        parser.error("--limit must be >= 1")
    if args.workers < 1:
        parser.error("--workers must be >= 1")
    return args


def score_sets(specs, job, score, limit=None, workers=1, chunksize=2) -> tuple[dict[str, list], float]:
    """Every document of each set in ``specs`` embedded (bundled model, cache) and scored in ``workers`` processes:
    ``score(job(spec, vectors, document))``; results that are None are dropped. Returns them by set, and the seconds."""
    from bpseg_bench.bench_corpus import load_dataset
    from bpseg_bench.runner import embed_documents, make_embedder

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


def build_texts(docs, subs, G: int, count: int, rng) -> list[dict]:
    """``count`` texts of ``G`` documents drawn without replacement (each text), labels offset per document."""
    out = []
    for _ in range(count):
        pick = rng.choice(len(docs), G, replace=False)

        def joined(source):
            labels, offset = [], 0
            for i in pick:
                gold = np.array([-1 if v is None else int(v) for v in source[i].labels])
                labels.append(np.where(gold >= 0, gold + offset, -1))
                offset += int(gold.max()) + 1
            return np.concatenate(labels)

        text = {
            "docs": [docs[i].doc_id for i in pick],
            "units": [u for i in pick for u in docs[i].units],
            "gold": {
                "sections": joined(docs),
                "documents": np.concatenate([np.full(len(docs[i].units), j) for j, i in enumerate(pick)]),
            },
        }
        if subs is not None:
            text["gold"]["sub-sections"] = joined(subs)
        text["index"] = pick
        out.append(text)
    return out
