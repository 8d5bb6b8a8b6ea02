"""Embedding backends on CPU: PyTorch against ONNX Runtime (fp32) and ONNX int8, speed and segmentation quality.

Two measurements:

* **speed**: sentences/s of ``Embedder(backend=B).encode`` on the same sample of unique units (Choi
  sentences and QMSum val turns, ``--speed-units`` of them), each backend embedding into a fresh,
  empty cache, the model already loaded (a 64-sentence warm-up first); backends are run in turn,
  ``--rounds`` times, and the median is reported, so that load from other processes on a shared
  machine falls on all of them alike;
* **quality**: mean ARI of the default BP-Seg (``bpseg`` in :mod:`bpseg_bench.methods`) on
  Choi sets 2-4 and on QMSum val, each backend's own embeddings, through the same path as
  ``bpseg bench corpus``. The issue's rule: a backend may become an option (and the default, if
  fastest) when both ARIs stay within 0.01 of PyTorch's.

Usage (what RESULTS.md reports)::

    cp ~/.cache/bpseg_pgm/embeddings.sqlite3 /tmp/bpseg_backends_cache/   # optional: PyTorch rows warm
    python research/2026-11-23-embedding-backends/bench_backends.py --cache-dir /tmp/bpseg_backends_cache --out research/2026-11-23-embedding-backends/results

``--choi-limit N`` keeps N Choi documents spread over sets 2-4 (default: all 720).
Writes ``embedding_backends.md`` and ``.json`` into ``--out``.
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import statistics
import sys
import tempfile
import time
from pathlib import Path

from bpseg_bench.bench_corpus import load_dataset, run_corpus_benchmark
from bpseg_bench.report import machine_info
from bpseg_pgm.embeddings import Embedder
from bpseg_pgm.embeddings.onnx_backend import BACKENDS

TOLERANCE = 0.01


def speed(units: list[str], rounds: int) -> dict:
    """Median sentences/s of each backend on ``units``, fresh cache each time, model loaded."""
    times: dict[str, list[float]] = {b: [] for b in BACKENDS}
    loaded = {}
    with tempfile.TemporaryDirectory() as export_cache:
        for b in BACKENDS:  # load (and export) once, outside the timing
            e = Embedder(cache_dir=export_cache, backend=b, show_progress=False)
            e.encode(units[:64])
            loaded[b] = e
        for r in range(rounds):
            for b in BACKENDS:
                with tempfile.TemporaryDirectory() as fresh:
                    e = loaded[b]
                    e.cache_dir = fresh
                    t0 = time.perf_counter()
                    e.encode(units)
                    times[b].append(time.perf_counter() - t0)
                    print(f"  round {r + 1} {b}: {len(units) / times[b][-1]:.1f} units/s", file=sys.stderr, flush=True)
    return {
        b: {"seconds": [round(t, 2) for t in ts], "units_per_s": round(len(units) / statistics.median(ts), 1)}
        for b, ts in times.items()
    }


def quality(datasets: dict, cache_dir: str | None) -> dict:
    out = {}
    for b in BACKENDS:
        t0 = time.perf_counter()
        res = run_corpus_benchmark(
            datasets, methods=["bpseg"], embedder=Embedder(cache_dir=cache_dir, backend=b), progress=False
        )
        out[b] = {
            ds: {
                "ari": res["summary"][ds]["bpseg"]["ari"]["mean"],
                "nmi": res["summary"][ds]["bpseg"]["nmi"]["mean"],
                "documents": res["config"]["datasets"][ds]["documents"],
            }
            for ds in datasets
        }
        out[b]["seconds"] = round(time.perf_counter() - t0, 1)
        print(f"  {b}: {out[b]}", file=sys.stderr, flush=True)
    return out


def render(result: dict) -> str:
    q, s = result["quality"], result["speed"]
    datasets = [k for k in q["torch"] if k != "seconds"]
    lines = [
        "| backend | " + " | ".join(f"ARI {d}" for d in datasets) + " | within 0.01 of torch | units/s (median) |",
        "|---|" + "---|" * (len(datasets) + 2),
    ]
    for b in BACKENDS:
        aris = [q[b][d]["ari"] for d in datasets]
        ok = all(abs(q[b][d]["ari"] - q["torch"][d]["ari"]) <= TOLERANCE for d in datasets)
        lines.append(
            f"| {b} | " + " | ".join(f"{a:.4f}" for a in aris) + f" | {'yes' if ok else 'no'} | "
            f"{s[b]['units_per_s']:.1f} |"
        )
    m = result["machine"]
    lines += [
        "",
        f"Speed: {result['speed_units']} unique units (Choi sentences + QMSum val turns), "
        f"{result['rounds']} rounds, fresh cache each time. Machine: {m['cpu']}, {m['cores']} cores; "
        f"load average at start {result['load_start']}, at end {result['load_end']}.",
        f"Command: `{result['command']}`",
    ]
    return "\n".join(lines) + "\n"


def main(argv=None) -> int:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--cache-dir", default=None, help="embedding cache for the quality runs (default: the user's)")
    p.add_argument("--choi-limit", type=int, default=None, help="Choi documents spread over sets 2-4 (default all)")
    p.add_argument("--qmsum-limit", type=int, default=None, help="first N QMSum val meetings (default all 35)")
    p.add_argument("--speed-units", type=int, default=1000)
    p.add_argument("--rounds", type=int, default=3)
    p.add_argument("--skip-quality", action="store_true")
    p.add_argument("--out", default="research/2026-11-23-embedding-backends/results")
    args = p.parse_args(argv)
    datasets = {
        "choi-234": load_dataset("choi-234", limit=args.choi_limit),
        "qmsum-val": load_dataset("qmsum-val", limit=args.qmsum_limit),
    }
    choi_units = list(dict.fromkeys(u for d in datasets["choi-234"] for u in d.units))
    qm_units = list(dict.fromkeys(u for d in datasets["qmsum-val"] for u in d.units if u.strip()))
    half = args.speed_units // 2
    units = choi_units[:half] + qm_units[: args.speed_units - half]
    result = {
        "command": "python " + " ".join([sys.argv[0], *(argv if argv is not None else sys.argv[1:])]),
        "machine": {**machine_info(), "platform": platform.platform()},
        "load_start": os.getloadavg(),
        "speed_units": len(units),
        "rounds": args.rounds,
    }
    print("speed", file=sys.stderr)
    result["speed"] = speed(units, args.rounds)
    if not args.skip_quality:
        print("quality", file=sys.stderr)
        result["quality"] = quality(datasets, args.cache_dir)
    result["load_end"] = os.getloadavg()
    out = Path(args.out)
    out.mkdir(parents=True, exist_ok=True)
    (out / "embedding_backends.json").write_text(json.dumps(result, indent=2) + "\n")
    if "quality" in result:
        (out / "embedding_backends.md").write_text(render(result))
        print(render(result))
    else:
        print(json.dumps(result["speed"], indent=2))
    return 0


if __name__ == "__main__":
    sys.exit(main())
