"""Choose BPSeg's defaults on the tuning data only: Choi set 1 and set-1 interleaved documents.

Every candidate is scored by mean ARI on (a) all 200 Choi set-1 documents (or every
``--stride``-th one) and (b) ``--docs`` interleaved-topic documents built from set 1 (topics
return: A B A C B ...). The report sets 2-4 are never read here. Prints a Markdown table and
writes it to ``--out``.

    python benchmarks/tune_defaults.py --stride 2 --out benchmarks/out/tuning.md
"""

from __future__ import annotations

import argparse
import time
import warnings
from pathlib import Path

import numpy as np

warnings.filterwarnings("ignore", category=FutureWarning)

from bpseg_pgm import BPSeg  # noqa: E402
from bpseg_pgm.evaluation.choi import load_choi  # noqa: E402
from bpseg_pgm.evaluation.interleaved import make_interleaved  # noqa: E402
from bpseg_pgm.evaluation.methods import make_estimator  # noqa: E402
from bpseg_pgm.evaluation.metrics import evaluate  # noqa: E402
from bpseg_pgm.potentials import CenteredPottsPotentials as CP  # noqa: E402
from bpseg_pgm.text.embeddings import Embedder  # noqa: E402


def candidates():
    """name -> factory(n_sentences, gold_k) of the configurations compared."""
    return {
        "paper eq.(1)-(2), lam 0.12, k = min(20, n), random init": lambda n, g: BPSeg(
            min(20, n), potentials="paper", init="random", random_state=0
        ),
        "paper eq.(1)-(2), lam 0.12, k = 10, farthest": lambda n, g: BPSeg(min(10, n), potentials="paper"),
        "appendix Algorithm 2 (fast), sigma 10": lambda n, g: BPSeg(engine="fast", init="all"),
        "appendix Algorithm 2 (fast), sigma 30": lambda n, g: BPSeg(engine="fast", init="all", sigma=30),
        "centred lam 100 sigma 30, k = 10, no EM": lambda n, g: BPSeg(
            min(10, n), potentials=CP(lam=100, sigma=30, unary_scale=1), em_rounds=0
        ),
        "centred lam 300 sigma 100 u1, auto k, EM 5": lambda n, g: BPSeg(potentials=CP(300, 100, 1)),
        "centred lam 300 sigma 100 u3, auto k, EM 5 (DEFAULT)": lambda n, g: BPSeg(),
        "centred lam 300 sigma 60 u3, auto k, EM 5": lambda n, g: BPSeg(potentials=CP(300, 60, 3)),
        "centred lam 300 sigma 300 u1, auto k, EM 5": lambda n, g: BPSeg(potentials=CP(300, 300, 1)),
        "centred lam 1000 sigma 100 u1, auto k, EM 5": lambda n, g: BPSeg(potentials=CP(1000, 100, 1)),
        "centred, k = n (init all), lam 100 sigma 30 u10": lambda n, g: BPSeg(
            init="all", potentials=CP(100, 30, 10), em_rounds=0
        ),
        "k-means, k = min(20, n)": lambda n, g: make_estimator("kmeans", n, 0),
        "k-means given the true k (oracle)": lambda n, g: make_estimator("kmeans-true-k", n, 0, gold_k=g),
    }


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--stride", type=int, default=1, help="use every N-th set-1 Choi document (default 1: all)")
    ap.add_argument("--docs", type=int, default=60, help="interleaved documents (default 60)")
    ap.add_argument("--only", nargs="*", help="substrings: run only candidates whose name contains one")
    ap.add_argument("--out", type=Path, help="also write the Markdown table here")
    args = ap.parse_args(argv)

    choi = load_choi(sets=[1])
    inter = make_interleaved(choi, n_docs=args.docs, seed=0)
    choi = choi[:: args.stride]
    emb = Embedder(show_progress=False)
    cache = {}

    def vectors(doc):
        key = doc.sentences
        if key not in cache:
            cache[key] = emb.encode(list(doc.sentences))
        return cache[key]

    rows = []
    for name, make in candidates().items():
        if args.only and not any(s in name for s in args.only):
            continue
        t0 = time.perf_counter()
        scores = {}
        for doc in [*choi, *inter]:
            X = vectors(doc)
            labels = make(len(doc), doc.n_segments).fit_predict(X)
            scores.setdefault(doc.range, []).append(evaluate(doc.labels, labels)["ari"])
        seconds = time.perf_counter() - t0
        row = {r: float(np.mean(v)) for r, v in scores.items()}
        row["choi set 1"] = float(np.mean([a for r, v in scores.items() if r != "interleaved" for a in v]))
        rows.append((name, row, seconds))
        print(f"{name}: " + ", ".join(f"{k} {v:.3f}" for k, v in row.items()) + f" ({seconds:.0f} s)", flush=True)

    cols = ["3-5", "6-8", "9-11", "3-11", "choi set 1", "interleaved"]
    lines = [
        f"Mean ARI on Choi set 1 ({len(choi)} documents) and {len(inter)} set-1 interleaved documents.",
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
