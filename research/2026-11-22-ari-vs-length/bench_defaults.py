"""ARI against document length for the default BPSeg, from 8 to 5,000 sentences.

Two panels in one PNG:
  * Choi sets 2-4 (held out): ARI of each document against its length, read from the JSON
    that `bpseg bench choi` writes (default benchmarks/out/choi/choi_results.json);
  * synthetic documents of 4 topics (random directions in 64-d plus noise 0.8, the same
    generator as tests/test_defaults.py), contiguous ("blocks") or returning (A B C D A B ...),
    at n = 8 .. 5000, for the default and for the paper's potentials as written.
Also prints a Markdown table (ARI, segments found, seconds after a warm-up fit) and writes
it to --out.

    python research/2026-11-22-ari-vs-length/bench_defaults.py --out benchmarks/out/defaults
"""

from __future__ import annotations

import argparse
import json
import time
import warnings
from pathlib import Path

import numpy as np

warnings.filterwarnings("ignore", category=FutureWarning)

from sklearn.metrics import adjusted_rand_score  # noqa: E402

from bpseg_pgm import BPSeg  # noqa: E402


def topics(n: int, n_topics: int, layout: str, seed: int = 0, d: int = 64, noise: float = 0.8):
    """n sentences on n_topics random topic directions; 'blocks' = contiguous, 'returning' = A B A C ...

    A copy of ``tests/test_defaults.py``'s generator (this study used to import it from there).
    """
    rng = np.random.default_rng(seed)
    centers = rng.normal(size=(n_topics, d))
    if layout == "blocks":
        y = np.repeat(np.arange(n_topics), -(-n // n_topics))[:n]
    else:  # chunks of ~n/(2 n_topics) sentences, topics cycling so that each returns
        chunk = max(1, n // (2 * n_topics))
        y = (np.arange(n) // chunk) % n_topics
    return centers[y] + noise * rng.normal(size=(n, d)), y


SIZES = (8, 20, 50, 100, 200, 500, 1000, 2000, 5000)


def plot(rows: list[dict], choi_json: Path, path: Path) -> None:
    """The two panels: Choi sets 2-4 per document (when ``choi_json`` exists) and the synthetic documents."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    fig, axes = plt.subplots(1, 2, figsize=(12, 4.5))
    if choi_json.exists():
        recs = [r for r in json.loads(choi_json.read_text())["records"] if r["set"] != 1]
        for method, colour in (("bpseg", "C0"), ("bpseg-paper", "C3"), ("bpseg-appendix", "C2"), ("kmeans", "C7")):
            pts = [(r["n_sentences"], r["ari"]) for r in recs if r["method"] == method]
            if pts:
                n_, a_ = np.array(pts).T
                axes[0].scatter(n_, a_, s=6, alpha=0.35, color=colour, label=method)
        axes[0].set_title("Choi sets 2-4 (held out): ARI per document")
        axes[0].legend(fontsize=8)
    else:
        axes[0].text(0.5, 0.5, f"no {choi_json}\n(run `bpseg bench choi` first)", ha="center")
    axes[0].set_xlabel("sentences in the document")
    axes[0].set_ylabel("ARI")
    for (layout, model), style in {
        ("blocks", "default"): "C0-o",
        ("returning", "default"): "C0--s",
        ("blocks", "paper, k = min(20, n)"): "C3-o",
        ("returning", "paper, k = min(20, n)"): "C3--s",
    }.items():
        pts = [(r["n"], r["ari"]) for r in rows if r["layout"] == layout and r["model"] == model]
        if pts:
            n_, a_ = np.array(pts).T
            axes[1].plot(n_, a_, style, label=f"{model}, {layout}")
    axes[1].set_xscale("log")
    axes[1].set_xlabel("sentences in the document (log scale)")
    axes[1].set_title("synthetic, 4 topics: ARI against length")
    axes[1].legend(fontsize=8)
    for ax in axes:
        ax.set_ylim(-0.05, 1.05)
        ax.grid(alpha=0.3)
    fig.tight_layout()
    fig.savefig(path, dpi=110)


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--choi-json", type=Path, default=Path("benchmarks/out/choi/choi_results.json"))
    ap.add_argument("--sizes", type=int, nargs="+", default=list(SIZES))
    ap.add_argument("--out", type=Path, default=Path("benchmarks/out/defaults"))
    args = ap.parse_args(argv)
    args.out.mkdir(parents=True, exist_ok=True)

    # warm-up: the first fit of a process loads numba and the compiled kernels (~0.5 s)
    for n in (8, 500):
        BPSeg().fit(topics(n, 4, "blocks", seed=0)[0])
    rows = []
    for layout in ("blocks", "returning"):
        for n in args.sizes:
            X, y = topics(n, 4, layout, seed=n)
            for name, est in (("default", BPSeg()), ("paper, k = min(20, n)", BPSeg(min(20, n), potentials="paper"))):
                t0 = time.perf_counter()
                labels = est.fit_predict(X)
                sec = time.perf_counter() - t0
                rows.append(
                    {
                        "layout": layout,
                        "n": n,
                        "model": name,
                        "ari": adjusted_rand_score(y, labels),
                        "segments": int(np.unique(labels).size),
                        "seconds": sec,
                    }
                )
                print(
                    f"{layout:9s} n={n:5d} {name:22s} ARI {rows[-1]['ari']:.3f} "
                    f"segments {rows[-1]['segments']:3d} {sec:7.2f} s",
                    flush=True,
                )

    lines = ["| layout | n | model | ARI | segments found (gold 4) | seconds |", "|---|---:|---|---:|---:|---:|"]
    lines += [
        f"| {r['layout']} | {r['n']} | {r['model']} | {r['ari']:.3f} | {r['segments']} | {r['seconds']:.2f} |"
        for r in rows
    ]
    table = "\n".join(lines) + "\n"
    (args.out / "defaults.md").write_text(table)
    print(table)

    plot(rows, args.choi_json, args.out / "ari_vs_length.png")
    print(f"wrote {args.out / 'defaults.md'} and {args.out / 'ari_vs_length.png'}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
