"""Choose BPSeg's defaults on the tuning data only: Choi set 1 and set-1 interleaved documents.

Every candidate is scored by mean ARI on (a) all 200 Choi set-1 documents (or every
``--stride``-th one) and (b) ``--docs`` interleaved-topic documents built from set 1 (topics
return: A B A C B ...). The report sets 2-4 are never read here. Prints a Markdown table and
writes it to ``--out``.

    python research/2026-11-22-tuning-defaults/tune_defaults.py --stride 2 --out benchmarks/out/tuning.md
"""

from __future__ import annotations

import argparse
import multiprocessing
import time
import warnings
from pathlib import Path

import numpy as np

warnings.filterwarnings("ignore", category=FutureWarning)

from bpseg_bench.choi import load_choi  # noqa: E402
from bpseg_bench.interleaved import make_interleaved  # noqa: E402
from bpseg_bench.methods import make_estimator  # noqa: E402
from bpseg_pgm import BPSeg  # noqa: E402
from bpseg_pgm.embeddings import Embedder  # noqa: E402
from bpseg_pgm.evaluation.metrics import evaluate  # noqa: E402
from bpseg_pgm.potentials import CenteredPottsPotentials as CP  # noqa: E402


def candidates():
    """name -> factory(n_sentences, gold_k) of the configurations compared.

    "CP(lam, sigma, u)" is CenteredPottsPotentials(lam, sigma, unary_scale=u), centred on the
    mean cosine of all pairs unless the row says "edges" (the decay-weighted mean over the
    graph's edges, session 1's version); every row names its re-estimation rounds (EM),
    reading-order context weight (ctx) and label merging.
    """

    def centred(lam, sigma, u, em=5, ctx=0.0, merge=None, center="all_pairs"):
        pot = CP(lam, sigma, u, center=center)
        return lambda n, g: BPSeg(potentials=pot, em_rounds=em, context=ctx, merge_above=merge)

    return {
        "paper eq.(1)-(2), lam 0.12, k = min(20, n), random init": lambda n, g: BPSeg(
            min(20, n), potentials="paper", init="random", random_state=0
        ),
        "paper eq.(1)-(2), lam 0.12, k = 10, farthest": lambda n, g: BPSeg(min(10, n), potentials="paper"),
        "appendix Algorithm 2 (fast), sigma 10": lambda n, g: BPSeg(engine="fast", init="all"),
        "appendix Algorithm 2 (fast), sigma 30": lambda n, g: BPSeg(engine="fast", init="all", sigma=30),
        "edges-centred CP(100, 30, 1), k = 10, EM 0": lambda n, g: BPSeg(
            min(10, n), potentials=CP(100, 30, 1, center="edges"), em_rounds=0
        ),
        "edges-centred CP(100, 30, 10), k = n (init all), EM 0": lambda n, g: BPSeg(
            init="all", potentials=CP(100, 30, 10, center="edges"), em_rounds=0
        ),
        # session 1's default and what was added to it, one step at a time (centred on edges)
        "session-1 default: edges CP(300, 100, 3), EM 5, ctx 0, no merge": centred(300, 100, 3, center="edges"),
        "edges CP(300, 100, 3), EM 5, ctx 0, merge 0.9": centred(300, 100, 3, merge=0.9, center="edges"),
        "edges CP(300, 100, 3), EM 5, ctx 0.2, no merge": centred(300, 100, 3, ctx=0.2, center="edges"),
        "edges CP(300, 100, 3), EM 5, ctx 0.2, merge 0.9": centred(300, 100, 3, ctx=0.2, merge=0.9, center="edges"),
        "edges CP(300, 200, 5), EM 5, ctx 0, merge 0.9": centred(300, 200, 5, merge=0.9, center="edges"),
        "edges CP(300, 200, 5), EM 5, ctx 0.2, merge 0.9 (best here; fails at n >= 1000)": centred(
            300, 200, 5, ctx=0.2, merge=0.9, center="edges"
        ),
        # centred on the mean cosine of all pairs (long documents converge), around the default
        "CP(300, 200, 5), EM 5, ctx 0.2, merge 0.9": centred(300, 200, 5, ctx=0.2, merge=0.9),
        "CP(200, 200, 5), EM 5, ctx 0.2, merge 0.9": centred(200, 200, 5, ctx=0.2, merge=0.9),
        "CP(100, 200, 5), EM 5, ctx 0.2, merge 0.9": centred(100, 200, 5, ctx=0.2, merge=0.9),
        "CP(150, 150, 5), EM 5, ctx 0.2, merge 0.9": centred(150, 150, 5, ctx=0.2, merge=0.9),
        "CP(150, 300, 5), EM 5, ctx 0.2, merge 0.9": centred(150, 300, 5, ctx=0.2, merge=0.9),
        "CP(150, 200, 3), EM 5, ctx 0.2, merge 0.9": centred(150, 200, 3, ctx=0.2, merge=0.9),
        "CP(150, 200, 8), EM 5, ctx 0.2, merge 0.9": centred(150, 200, 8, ctx=0.2, merge=0.9),
        "CP(150, 200, 5), EM 5, ctx 0, merge 0.9": centred(150, 200, 5, merge=0.9),
        "CP(150, 200, 5), EM 5, ctx 0.1, merge 0.9": centred(150, 200, 5, ctx=0.1, merge=0.9),
        "CP(150, 200, 5), EM 5, ctx 0.3, merge 0.9": centred(150, 200, 5, ctx=0.3, merge=0.9),
        "CP(150, 200, 5), EM 5, ctx 0.2, no merge": centred(150, 200, 5, ctx=0.2),
        "CP(150, 200, 5), EM 5, ctx 0.2, merge 0.8": centred(150, 200, 5, ctx=0.2, merge=0.8),
        "CP(150, 200, 5), EM 5, ctx 0.2, merge 0.95": centred(150, 200, 5, ctx=0.2, merge=0.95),
        "DEFAULT BPSeg(): CP(150, 200, 5), EM 5, ctx auto (0.2), merge 0.9": lambda n, g: BPSeg(),
        "k-means, k = min(20, n)": lambda n, g: make_estimator("kmeans", n, 0),
        "k-means given the true k (oracle)": lambda n, g: make_estimator("kmeans-true-k", n, 0, gold_k=g),
    }


#: set by main() before each candidate's worker pool forks: (factory, documents, vectors)
_JOB = None


def _score(i: int) -> float:
    make, docs, vecs = _JOB
    doc = docs[i]
    labels = make(len(doc), doc.n_segments).fit_predict(vecs[i])
    return evaluate(doc.labels, labels)["ari"]


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--stride", type=int, default=1, help="use every N-th set-1 Choi document (default 1: all)")
    ap.add_argument("--docs", type=int, default=60, help="interleaved documents (default 60)")
    ap.add_argument("--only", nargs="*", help="substrings: run only candidates whose name contains one")
    ap.add_argument("--out", type=Path, help="also write the Markdown table here")
    ap.add_argument("--jobs", type=int, default=2, help="worker processes (default 2)")
    args = ap.parse_args(argv)

    choi = load_choi(sets=[1])
    inter = make_interleaved(choi, n_docs=args.docs, seed=0)
    choi = choi[:: args.stride]
    emb = Embedder(show_progress=False)
    docs = [*choi, *inter]
    vecs = [emb.encode(list(doc.sentences)) for doc in docs]

    global _JOB
    rows = []
    for name, make in candidates().items():
        if args.only and not any(s in name for s in args.only):
            continue
        t0 = time.perf_counter()
        _JOB = (make, docs, vecs)
        # documents are independent: one worker per core (fork: the factory is inherited)
        with multiprocessing.get_context("fork").Pool(args.jobs) as pool:
            aris = pool.map(_score, range(len(docs)), chunksize=4)
        scores = {}
        for doc, a in zip(docs, aris):
            scores.setdefault(doc.range, []).append(a)
        seconds = time.perf_counter() - t0
        row = {r: float(np.mean(v)) for r, v in scores.items()}
        row["choi set 1"] = float(np.mean([a for r, v in scores.items() if r != "interleaved" for a in v]))
        rows.append((name, row, seconds))
        print(f"{name}: " + ", ".join(f"{k} {v:.3f}" for k, v in row.items()) + f" ({seconds:.0f} s)", flush=True)

    cols = ["3-5", "6-8", "9-11", "3-11", "choi set 1", "interleaved"]
    lines = [
        f"Mean ARI on Choi set 1 ({len(choi)} documents) and {len(inter)} set-1 interleaved documents. "
        "Seconds: wall time for all of them with --jobs worker processes.",
        "",
        "| candidate | " + " | ".join(cols) + " | seconds |",
        "|---|" + "---:|" * (len(cols) + 1),
    ]
    for name, row, sec in rows:
        lines.append(f"| {name} | " + " | ".join(f"{row.get(c, float('nan')):.3f}" for c in cols) + f" | {sec:.0f} |")
    table = "\n".join(lines) + "\n"
    print(table)
    if args.out:
        args.out.parent.mkdir(parents=True, exist_ok=True)
        args.out.write_text(table)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
