"""What the card's network costs on the default path: the share of the default fit spent on the pgmpy network.

The grouping of runs into topics builds the runs' pgmpy ``DiscreteMarkovNetwork`` and solves it through pgmpy's
``Inference`` API (``PottsBeliefPropagation``). This script fits the default ``bpseg`` method (as ``bpseg bench
corpus`` and ``record_labels.py`` do) on development documents, with the network path timed apart: building the
network (``Problem.network``) and inference on it (``PottsBeliefPropagation``: compiling its factors and BP), as a
share of each document's fit; and, in a fresh process, what importing pgmpy costs on top of the embedder.

    python benchmarks/network_cost.py [--datasets qmsum-train peps-train] [--limit 40]

Embeddings come from the on-disk cache (``record_labels.py`` fills it).
"""

from __future__ import annotations

import argparse
import subprocess
import sys
import time

import numpy as np

DATASETS = ("qmsum-train", "peps-train", "choi-1", "interleaved")


class _Timer:
    """Wraps a method and adds its wall time to ``total`` (re-entrant calls counted once)."""

    def __init__(self, owner, name: str):
        self.owner, self.name, self.total, self.calls, self._depth = owner, name, 0.0, 0, 0
        self.original = getattr(owner, name)
        timer = self

        def timed(*args, **kwargs):
            timer._depth += 1
            start = time.perf_counter()
            try:
                return timer.original(*args, **kwargs)
            finally:
                timer._depth -= 1
                if timer._depth == 0:
                    timer.total += time.perf_counter() - start
                    timer.calls += 1

        setattr(owner, name, timed)

    def take(self) -> float:
        total, self.total = self.total, 0.0
        return total


def _import_seconds(module: str, before: str = "") -> float:
    code = "; ".join(filter(None, ["import time", before, "t = time.perf_counter()", f"import {module}"]))
    code += "; print(time.perf_counter() - t)"
    return float(subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout)


def measure(datasets, limit) -> list[dict]:
    from bpseg_bench.bench_corpus import load_dataset
    from bpseg_bench.runner import embed_documents, segment
    from bpseg_pgm.inference.kernels import potts_network
    from bpseg_pgm.inference.problem import Problem
    from bpseg_pgm.text import Embedder

    build = _Timer(Problem, "network")
    infer = _Timer(potts_network.PottsBeliefPropagation, "__init__")  # compiling the factors ...
    run = _Timer(potts_network.PottsBeliefPropagation, "run")  # ... and BP on them
    embedder = Embedder(show_progress=False)
    rows = []
    for ds in datasets:
        docs = load_dataset(ds, limit=limit)
        vectors, _ = embed_documents(docs, embedder)
        segment(docs[0], vectors[0], "bpseg", 0)  # warm: numba compiled, pgmpy imported
        build.take(), infer.take(), run.take()
        fit = net = 0.0
        shares = []
        for doc, X in zip(docs, vectors):
            _, seconds = segment(doc, X, "bpseg", 0)
            spent = build.take() + infer.take() + run.take()
            fit, net = fit + seconds, net + spent
            shares.append(spent / seconds if seconds else 0.0)
        rows.append(
            {
                "dataset": ds,
                "documents": len(docs),
                "fit_s": fit,
                "network_s": net,
                "share": net / fit if fit else 0.0,
                "max_share": max(shares),
                "grouped": sum(s > 0 for s in shares),
            }
        )
    return rows


def main(argv=None) -> int:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--datasets", nargs="+", default=list(DATASETS))
    p.add_argument("--limit", type=int, default=40)
    args = p.parse_args(argv)
    rows = measure(args.datasets, args.limit)
    print(
        "| set | documents | grouped on the network | fit (s) | network: build + inference (s) | share | largest share |"
    )
    print("|---|---:|---:|---:|---:|---:|---:|")
    for r in rows:
        print(
            f"| {r['dataset']} | {r['documents']} | {r['grouped']} | {r['fit_s']:.1f} | {r['network_s']:.2f} | "
            f"{r['share']:.1%} | {r['max_share']:.1%} |"
        )
    embedder = np.median([_import_seconds("sentence_transformers") for _ in range(3)])
    pgmpy = np.median([_import_seconds("pgmpy.models", "import sentence_transformers") for _ in range(3)])
    print(f"\nimport sentence_transformers: {embedder:.2f} s; pgmpy.models on top of it: {pgmpy:.2f} s (median of 3)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
