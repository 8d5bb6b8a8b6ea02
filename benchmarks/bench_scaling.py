"""How the engines scale with the number of sentences: wall time against n, as a plot.

Left panel: ``BPSeg.fit`` end to end (the paper's model, k = 20, as in bench_engines.py)
for the Potts engine on the complete graph and on the sparse graph (a reading-order window
of 5 plus 10 nearest neighbours), and for the pgmpy-based loopy engine on the complete graph.
Right panel: one flooding sweep of the Potts kernel alone (potentials precomputed; the time
of a whole ``potts_bp`` call, set-up included, divided by the sweeps it ran), compiled (the
default) against the pure-NumPy backend (``backend="numpy"``: an edge list with gathers, also
on the complete graph), on both graphs: a sweep costs O(n^2 k) on the complete graph and
O(n k) on the sparse one.

Every point is the median of --repeat runs in this process, after a warm-up fit.

    python benchmarks/bench_scaling.py      # writes ~/.cache/bpseg_pgm/benchmarks/scaling/scaling.{md,png}
    python benchmarks/bench_scaling.py --out DIR
"""

from __future__ import annotations

import argparse
import os
import platform
import statistics
import time
import warnings
from pathlib import Path

import numpy as np

warnings.filterwarnings("ignore", category=FutureWarning)
# the engine cases are bench_engines.py's, in this folder (on the path when run as a script)

from bench_engines import make_estimator, make_X, sparse_neighbors  # noqa: E402

from bpseg_pgm.graph import all_pairs  # noqa: E402
from bpseg_pgm.inference.kernels.potts import potts_bp  # noqa: E402
from bpseg_pgm.potentials import PaperPotentials  # noqa: E402


def out_dir() -> Path:
    """Where results go unless ``--out`` says otherwise: ``$BPSEG_CACHE_DIR/benchmarks`` (default
    ``~/.cache/bpseg_pgm/benchmarks``), outside the working tree, as the embedding cache."""
    env = os.environ.get("BPSEG_CACHE_DIR")
    return (Path(env).expanduser() if env else Path.home() / ".cache" / "bpseg_pgm") / "benchmarks"


K = 20
FIT = {  # label: (engine, neighbours, sizes)
    "potts, all pairs": ("potts", "all", (100, 200, 400, 800, 1200, 1600)),
    "potts, sparse": ("potts", "sparse", (500, 1000, 2000, 5000, 10000, 20000)),
    "loopy (pgmpy network), all pairs": ("loopy", "all", (50, 100, 200, 300)),
}
SWEEP = {  # label: (backend, neighbours, sizes)
    "compiled, all pairs": ("compiled", "all", (100, 200, 400, 800, 1200, 1600)),
    "NumPy, all pairs": ("numpy", "all", (100, 200, 400, 800, 1200)),
    "compiled, sparse": ("compiled", "sparse", (1000, 2000, 5000, 10000, 20000)),
    "NumPy, sparse": ("numpy", "sparse", (1000, 2000, 5000, 10000, 20000)),
}


def median_time(fn, repeat: int) -> tuple[float, object]:
    times, out = [], None
    for _ in range(repeat):
        t0 = time.perf_counter()
        out = fn()
        times.append(time.perf_counter() - t0)
    return statistics.median(times), out


def time_fit(engine: str, neighbors: str, n: int, repeat: int) -> dict:
    X = make_X(n, seed=0)
    sec, est = median_time(lambda: make_estimator(engine, K, neighbors, seed=0).fit(X), repeat)
    return {"seconds": sec, "sweeps": est.n_iter_}


def time_sweep(backend: str, neighbors: str, n: int, repeat: int) -> dict:
    X = make_X(n, seed=0)
    edges = sparse_neighbors(X) if neighbors == "sparse" else all_pairs(n)
    u, v = edges[:, 0], edges[:, 1]
    pot = PaperPotentials(lam=0.12)
    C = X[np.random.default_rng(0).choice(n, K, replace=False)]
    log_unary, log_w = pot.log_unary(X, C), pot.log_coupling(X, u, v)
    sec, res = median_time(lambda: potts_bp(log_unary, u, v, log_w, max_iter=100, tol=1e-6, backend=backend), repeat)
    return {"seconds": sec / max(res.n_iter, 1), "sweeps": res.n_iter}


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--repeat", type=int, default=3)
    ap.add_argument("--out", type=Path, default=out_dir() / "scaling", help="output folder (default: %(default)s)")
    args = ap.parse_args(argv)
    args.out.mkdir(parents=True, exist_ok=True)
    load_start = os.getloadavg()

    make_estimator("potts", 3, "all", 0).fit(make_X(8, 0))  # warm-up: numba, lazy imports
    make_estimator("loopy", 3, "all", 0).fit(make_X(8, 0))
    rows = []
    for panel, cases, run in (("fit", FIT, time_fit), ("sweep", SWEEP, time_sweep)):
        for label, (how, neighbors, sizes) in cases.items():
            for n in sizes:
                r = run(how, neighbors, n, args.repeat)
                rows.append({"panel": panel, "case": label, "n": n, **r})
                print(f"{panel:5s} {label:34s} n={n:6d} {r['seconds']:9.4f} s  ({r['sweeps']} sweeps)", flush=True)

    when = time.strftime("%Y-%m-%d %H:%M UTC", time.gmtime())
    lines = [
        "# Engine scaling",
        "",
        f"Command: `python benchmarks/bench_scaling.py --repeat {args.repeat} --out {args.out}`  ",
        f"Date: {when}  ",
        f"Machine: {os.cpu_count()} CPU cores, {platform.processor() or platform.machine()}; "
        f"load average at start {load_start[0]:.2f}, at end {os.getloadavg()[0]:.2f}  ",
        f"Input: random unit vectors, d = 384, the paper's potentials (lam = 0.12, no decay), k = {K}, "
        "tol 1e-6. Median of "
        f"{args.repeat} runs.",
        "",
        "| panel | case | n | seconds | sweeps |",
        "|---|---|---:|---:|---:|",
    ]
    lines += [f"| {r['panel']} | {r['case']} | {r['n']} | {r['seconds']:.4f} | {r['sweeps']} |" for r in rows]
    (args.out / "scaling.md").write_text("\n".join(lines) + "\n")

    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    fig, axes = plt.subplots(1, 2, figsize=(12, 4.6))
    for ax, panel, cases, title, ylabel in (
        (axes[0], "fit", FIT, "BPSeg.fit, end to end (k = 20)", "seconds per fit"),
        (axes[1], "sweep", SWEEP, "one sweep of the Potts kernel (k = 20)", "seconds per sweep"),
    ):
        for label in cases:
            pts = [(r["n"], r["seconds"]) for r in rows if r["panel"] == panel and r["case"] == label]
            style = "--" if label.startswith("NumPy") else "-"
            ax.loglog(*zip(*pts), style, marker="o", label=label)
        ax.set(title=title, xlabel="sentences n", ylabel=ylabel)
        ax.grid(True, which="both", alpha=0.3)
        ax.legend()
    fig.suptitle(f"Engine scaling on {os.cpu_count()} CPU cores ({when})")
    fig.tight_layout()
    fig.savefig(args.out / "scaling.png", dpi=110)
    print(f"wrote {args.out / 'scaling.md'} and {args.out / 'scaling.png'}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
