"""Benchmark the BP-Seg inference engines: wall time and peak memory per case.

Each case runs in a fresh Python subprocess, so that its peak memory can be read from
``resource.getrusage(RUSAGE_SELF).ru_maxrss`` of that child alone. A baseline child that only
imports the same modules is measured the same way, and the table reports

    peak memory of a case = ru_maxrss(case child) - ru_maxrss(import-only child).

This counts everything the case allocates at its peak: the (n, 384) float64 input matrix
(15 MB at n = 5000), the edge list, the messages, the pgmpy network for ``engine="loopy"``,
and a tiny warm-up fit (n = 8) run first so that the timed fit does not pay for lazy
imports. Wall time is ``time.perf_counter()`` around ``BPSeg(...).fit(X)`` only (input
generation excluded; neighbour search and, for "loopy", building the pgmpy network
included), the median of ``--repeat`` fits in that child.

The model is the paper's (eq. 1-2, lam = 0.12, no distance decay), spelled out so that the
numbers do not move with the estimator's defaults; inputs are seeded random unit vectors,
d = 384 (the size of all-MiniLM-L6-v2 embeddings).

    python benchmarks/bench_engines.py                    # prints the table
    python benchmarks/bench_engines.py --out engines.md    # and writes the full report
"""

from __future__ import annotations

import argparse
import datetime
import json
import os
import platform
import resource
import statistics
import subprocess
import sys
import time

DIM = 384
LAM = 0.12

# name: (engine, n, k, neighbours, target text or "")
CASES = {
    "potts-100-10": ("potts", 100, 10, "all", ""),
    "potts-1000-20": ("potts", 1000, 20, "all", "converged, < 1 s, < 1 GB"),
    "potts-1000-20-sparse": ("potts", 1000, 20, "sparse", ""),
    "potts-5000-20-sparse": ("potts", 5000, 20, "sparse", ""),
    "loopy-70-10": ("loopy", 70, 10, "all", ""),
    "loopy-300-20": ("loopy", 300, 20, "all", "< 3 s end to end"),
    "exact-13-3": ("exact", 13, 3, "all", ""),
    # not an engine: the neighbour search alone, to show its share of the sparse rows
    "sparse-pairs-5000": ("sparse_pairs only", 5000, 20, "sparse", ""),
}

IMPORTS = (
    "import numpy, scipy, sklearn.neighbors, pgmpy.models, pgmpy.inference, bpseg_pgm, bpseg_pgm.graph, "
    "bpseg_pgm.inference.kernels.potts.dense"  # loads numba, as the warm-up fit does
)


def sparse_neighbors(X):
    from bpseg_pgm.graph import sparse_pairs

    return sparse_pairs(X, window=5, n_neighbors=10)


def make_X(n: int, seed: int):
    import numpy as np

    X = np.random.default_rng(seed).normal(size=(n, DIM))
    return X / np.linalg.norm(X, axis=1, keepdims=True)


def make_estimator(engine: str, k: int, neighbors: str, seed: int):
    from bpseg_pgm import BPSeg

    return BPSeg(
        n_segments=k,
        lam=LAM,
        sigma=None,
        engine=engine,
        init="random",
        potentials="paper",  # the paper's eq. (1)-(2)
        neighbors=sparse_neighbors if neighbors == "sparse" else None,
        max_iter=100,
        tol=1e-6,
        damping=0.0,
        random_state=seed,
    )


def peak_rss_bytes() -> int:
    # Linux reports ru_maxrss in KiB (macOS in bytes)
    rss = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
    return rss if sys.platform == "darwin" else rss * 1024


def worker(name: str, repeat: int, seed: int) -> dict:
    """Run one case in this (fresh) process and return its measurements."""
    exec(IMPORTS)
    if name == "baseline":
        return {"case": name, "peak_rss": peak_rss_bytes(), "torch": "torch" in sys.modules}
    engine, n, k, neighbors, _ = CASES[name]
    if engine == "sparse_pairs only":
        sparse_neighbors(make_X(8, seed + 1))
        X = make_X(n, seed)
        times = []
        for _ in range(repeat):
            t0 = time.perf_counter()
            pairs = sparse_neighbors(X)
            times.append(time.perf_counter() - t0)
        return {"case": name, "engine": engine, "n": n, "k": "-", "neighbors": neighbors, "edges": len(pairs),
                "times": times, "n_iter": "-", "converged": "-", "peak_rss": peak_rss_bytes()}  # fmt: skip
    # warm-up on a tiny input: lazy imports (pgmpy models, sklearn neighbours) happen here
    make_estimator(engine, min(k, 3), neighbors, seed).fit(make_X(8, seed + 1))
    X = make_X(n, seed)
    times = []
    for _ in range(repeat):
        est = make_estimator(engine, k, neighbors, seed)
        t0 = time.perf_counter()
        est.fit(X)
        times.append(time.perf_counter() - t0)
    n_edges = n * (n - 1) // 2 if neighbors == "all" else len(sparse_neighbors(X))
    return {
        "case": name,
        "engine": engine,
        "n": n,
        "k": k,
        "neighbors": neighbors,
        "edges": n_edges,
        "times": times,
        "n_iter": int(est.n_iter_),
        "converged": bool(est.converged_),
        "peak_rss": peak_rss_bytes(),
    }


def run_child(name: str, repeat: int, seed: int, timeout: float) -> dict:
    cmd = [sys.executable, os.path.abspath(__file__), "--worker", name, "--repeat", str(repeat), "--seed", str(seed)]
    load = os.getloadavg()[0]
    proc = subprocess.run(cmd, capture_output=True, text=True, timeout=timeout)
    if proc.returncode != 0:
        raise RuntimeError(f"case {name} failed (exit {proc.returncode}):\n{proc.stderr[-3000:]}")
    result = json.loads(proc.stdout.strip().splitlines()[-1])
    result["load_before"] = load
    return result


def machine_info() -> dict:
    info = {"nproc": os.cpu_count(), "python": platform.python_version()}
    try:
        info["nproc"] = int(subprocess.run(["nproc"], capture_output=True, text=True).stdout.strip())
    except (OSError, ValueError):
        pass
    try:
        out = subprocess.run(["lscpu"], capture_output=True, text=True).stdout
        info["cpu"] = next(line.split(":", 1)[1].strip() for line in out.splitlines() if line.startswith("Model name"))
    except (OSError, StopIteration):
        info["cpu"] = platform.processor() or "unknown"
    try:
        with open("/proc/meminfo") as fh:
            kb = int(next(line.split()[1] for line in fh if line.startswith("MemTotal")))
        info["ram_gib"] = kb / 2**20
    except (OSError, StopIteration):
        info["ram_gib"] = float("nan")
    import numpy
    import pgmpy

    info["numpy"] = numpy.__version__
    info["pgmpy"] = pgmpy.__version__
    return info


def fmt_mb(b: float) -> str:
    return f"{b / 2**20:,.0f}"


def target_met(r: dict) -> str:
    t = statistics.median(r["times"])
    mem = r["peak_rss_delta"]
    if r["case"] == "potts-1000-20":
        ok = r["converged"] and t < 1.0 and mem < 2**30
        return (
            "yes" if ok else "**no**"
        ) + f" ({'converged' if r['converged'] else 'NOT converged'}, {t:.2f} s, {fmt_mb(mem)} MB)"
    if r["case"] == "loopy-300-20":
        return ("yes" if t < 3.0 else "**no**") + f" ({t:.2f} s)"
    return ""


def table(results: list[dict]) -> str:
    head = (
        "| engine | n | k | neighbours | edges | wall time, median (s) | min (s) | peak memory above baseline (MB) "
        "| iterations | converged | 1-min load before | target | met? |\n"
        "|---|---:|---:|---|---:|---:|---:|---:|---:|---|---:|---|---|\n"
    )
    rows = []
    for r in results:
        nb = "all pairs" if r["neighbors"] == "all" else "sparse (window 5 + 10-NN)"
        engine = "exact (pgmpy BeliefPropagation)" if r["engine"] == "exact" else r["engine"]
        rows.append(
            f"| {engine} | {r['n']} | {r['k']} | {nb} | {r['edges']:,} | {statistics.median(r['times']):.3f} "
            f"| {min(r['times']):.3f} | {fmt_mb(r['peak_rss_delta'])} | {r['n_iter']} | {r['converged']} "
            f"| {r['load_before']:.2f} | {CASES[r['case']][4]} | {target_met(r)} |"
        )
    return head + "\n".join(rows) + "\n"


def report(results, baseline, info, args, started, load_start, load_end) -> str:
    cmd = "python benchmarks/bench_engines.py " + " ".join(sys.argv[1:])
    lines = [
        "# Engine benchmark",
        "",
        f"Command: `{cmd}`  ",
        f"Date: {started:%Y-%m-%d %H:%M} UTC  ",
        f"Machine: {info['nproc']} CPU cores (`nproc`), {info['cpu']} (`lscpu`), {info['ram_gib']:.1f} GiB RAM; "
        f"Python {info['python']}, NumPy {info['numpy']}, pgmpy {info['pgmpy']}  ",
        f"Load average (1, 5, 15 min) at start: {', '.join(f'{x:.2f}' for x in load_start)}; "
        f"at end: {', '.join(f'{x:.2f}' for x in load_end)}. The machine is shared with other jobs; "
        "each row gives the 1-minute load just before its case started, which includes the tail of this "
        "benchmark's own previous case (a case keeps up to 2 cores busy).",
        "",
        f"Input: random unit vectors, d = {DIM}, seed {args.seed}; the paper's potentials (lam = {LAM}, no decay), "
        "`init='random'`, `tol=1e-6`, `max_iter=100`, no damping. Wall time: median (and min) of "
        f"{args.repeat} fit(s) per case, `BPSeg.fit` only: neighbour search and, for `loopy`, building the pgmpy "
        "network with one `DiscreteFactor` per sentence and per edge are included; input generation is not.",
        "",
        "Peak memory: each case runs in a fresh subprocess; the column is that child's "
        "`resource.getrusage(RUSAGE_SELF).ru_maxrss` minus the same figure for a child that only imports the "
        f"same modules ({fmt_mb(baseline)} MB{', most of it PyTorch, which pgmpy imports' if args.baseline_has_torch else ''}). "
        f"It includes the input matrix (n x {DIM} float64: 0.3 MB at "
        "n = 100, 15 MB at n = 5000) and a warm-up fit at n = 8.",
        "",
        table(results),
        "The sparse rows include the neighbour search (`sparse_pairs`: a reading-order window of 5 plus the 10 "
        "nearest neighbours by cosine, scikit-learn `NearestNeighbors`); the `sparse_pairs only` row, when run, "
        "measures that search alone.",
        "",
        "Targets (2 CPU cores): Potts kernel at n = 1000, k = 20 converged in under 1 s and under 1 GB; "
        "loopy engine at n = 300, k = 20 under 3 s end to end.",
        "",
        "Exact inference for comparison: pgmpy's junction-tree `BeliefPropagation` on the fully connected graph "
        "works on one clique of all n variables, a table of k^n entries; the `exact` row is n = 13, k = 3 "
        "(1.6 million entries). Measured earlier, not run here: n = 13, k = 4 takes 28 s and 3 GB, and "
        "k = 5 runs out of 24 GB. `BPSeg(engine='exact')` refuses tables above 2 million entries.",
        "",
    ]
    return "\n".join(lines)


def main(argv=None):
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--out", help="write the Markdown report here")
    p.add_argument("--cases", nargs="+", choices=list(CASES), default=list(CASES), help="cases to run (default all)")
    p.add_argument("--repeat", type=int, default=3, help="timed fits per case (median reported)")
    p.add_argument("--seed", type=int, default=0)
    p.add_argument("--timeout", type=float, default=900.0, help="seconds allowed per case")
    p.add_argument("--worker", help=argparse.SUPPRESS)
    args = p.parse_args(argv)
    if args.repeat < 1:
        p.error("--repeat must be >= 1")

    if args.worker:
        print(json.dumps(worker(args.worker, args.repeat, args.seed)))
        return 0

    started = datetime.datetime.now(datetime.timezone.utc)
    load_start = os.getloadavg()
    base = [run_child("baseline", 1, args.seed, args.timeout) for _ in range(3)]
    baseline = statistics.median(b["peak_rss"] for b in base)
    args.baseline_has_torch = base[0]["torch"]
    results = []
    for name in args.cases:
        r = run_child(name, args.repeat, args.seed, args.timeout)
        r["peak_rss_delta"] = r["peak_rss"] - baseline
        results.append(r)
        print(
            f"{name}: {statistics.median(r['times']):.3f} s, {fmt_mb(r['peak_rss_delta'])} MB, "
            f"{r['n_iter']} iterations, converged={r['converged']}, load {r['load_before']:.2f}",
            file=sys.stderr,
        )
    text = report(results, baseline, machine_info(), args, started, load_start, os.getloadavg())
    print(table(results))
    if args.out:
        with open(args.out, "w") as fh:
            fh.write(text)
    return 0


if __name__ == "__main__":
    sys.exit(main())
