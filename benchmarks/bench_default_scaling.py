"""Time and peak memory of the default ``BPSeg`` fit against the number of units (issue 20).

What is measured: ``BPSeg(random_state=0).fit(X, sample_weight=w, word_counts=unit_word_counts(units))``
(every other parameter at its default) with the embeddings ``X`` given, so no embedding time is counted;
``w`` is :func:`bpseg_pgm.features.weights.unit_weights` of the units; counting the units' words
(:func:`bpseg_pgm.features.words.unit_word_counts`, what the text pipeline does) is inside the timed part. Two inputs, each cut to the first n
units:

* ``qmsum``: the QMSum train meetings (``load_dataset("qmsum-train")``, ~88k turns) concatenated
  in order; real meeting text with gradual topic changes;
* ``choi``: the Choi set 1 documents (``load_dataset("choi-1")``, ~14k sentences) concatenated,
  repeated when n exceeds them; abrupt, Choi-like changes.

Both corpora are embedded once in this process (the default embedder, from its on-disk cache),
written to a temporary folder as ``.npy``, and every (size, input) runs in a fresh subprocess so
that peaks do not mix: the child imports the estimator, loads its n rows, records its RSS
(``baseline``), then times the fit with ``time.perf_counter``. Peak memory is the
child's peak RSS after the fit: Linux ``VmHWM`` (``/proc/self/status``), which is reset by exec,
rather than ``resource.getrusage(RUSAGE_SELF).ru_maxrss``, which Linux carries over from the
parent's RSS at fork (both are in the JSON; the parent is kept small, so they agree unless the
parent was larger than the child). The table gives the peak minus the baseline (what the fit
added) and absolute. A child that runs past ``--timeout`` seconds is killed and
reported as such. Targets (issue 20): 500 units <= 1 s; 10,000 units <= 10 s and <= 2 GiB;
50,000 units <= 120 s and <= 4 GiB (the memory targets are checked on the fit's peak, above the
baseline).

    python benchmarks/bench_default_scaling.py                      # all sizes, both inputs
    python benchmarks/bench_default_scaling.py --sizes 500 1000 --inputs choi --timeout 120
    python benchmarks/bench_default_scaling.py --profile 10000 50000   # also cProfile those sizes

Outputs go to ``~/.cache/bpseg_pgm/benchmarks/default_scaling.{md,json,png}`` (``$BPSEG_CACHE_DIR/benchmarks/``
when set; ``--out`` changes the stem). The snapshot that ``docs/benchmarks.md`` quotes is
``benchmarks/results/default_scaling.{md,json,png}`` (``--out benchmarks/results/default_scaling`` refreshes it).
``--profile N ...`` also writes the top of a cProfile (cumulative and total time) of the fit at
those sizes to ``<out>_profile_<input>_<n>.txt`` (a second, profiled child: slower than the timed one).
"""

from __future__ import annotations

import argparse
import datetime as _dt
import json
import os
import resource
import shlex
import subprocess
import sys
import tempfile
import time
import warnings
from pathlib import Path

import numpy as np

SIZES = (500, 1000, 2000, 5000, 10000, 20000, 50000)
INPUTS = ("qmsum", "choi")
DATASETS = {"qmsum": "qmsum-train", "choi": "choi-1"}
GIB = 1024**3
# n: (max seconds, max fit GiB or None)
TARGETS = {500: (1.0, None), 10000: (10.0, 2.0), 50000: (120.0, 4.0)}


def out_dir() -> Path:
    """Where results go unless ``--out`` says otherwise: ``$BPSEG_CACHE_DIR/benchmarks`` (default
    ``~/.cache/bpseg_pgm/benchmarks``), outside the working tree, as the embedding cache."""
    env = os.environ.get("BPSEG_CACHE_DIR")
    return (Path(env).expanduser() if env else Path.home() / ".cache" / "bpseg_pgm") / "benchmarks"


DEFAULT_OUT = out_dir() / "default_scaling"


def _rss_bytes() -> int:
    """Current resident set size of this process (Linux /proc; falls back to ru_maxrss)."""
    try:
        with open("/proc/self/statm") as f:
            return int(f.read().split()[1]) * os.sysconf("SC_PAGE_SIZE")
    except OSError:
        return _maxrss_bytes()


def _maxrss_bytes() -> int:
    r = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
    return r if sys.platform == "darwin" else r * 1024  # kB on Linux


def _hwm_bytes() -> int | None:
    """Peak RSS of this process image (Linux ``VmHWM``; reset by exec, unlike ``ru_maxrss``)."""
    try:
        for line in Path("/proc/self/status").read_text().splitlines():
            if line.startswith("VmHWM:"):
                return int(line.split()[1]) * 1024
    except OSError:
        pass
    return None


# --------------------------------------------------------------------------- child


def child(data_dir: str, name: str, n: int, profile_path: str | None) -> None:
    """Fit the default BPSeg on the first ``n`` rows of input ``name``; print one JSON line."""
    warnings.filterwarnings("ignore")
    from bpseg_pgm.estimator import BPSeg
    from bpseg_pgm.features.words import unit_word_counts

    X_all = np.load(os.path.join(data_dir, f"{name}_X.npy"), mmap_mode="r")
    units_all = json.loads(Path(data_dir, f"{name}_units.json").read_text())
    w_all = np.load(os.path.join(data_dir, f"{name}_w.npy"), mmap_mode="r")
    reps = -(-n // X_all.shape[0])
    if reps > 1:
        X = np.ascontiguousarray(np.concatenate([X_all] * reps)[:n])
        w = np.ascontiguousarray(np.concatenate([w_all] * reps)[:n])
        units = (units_all * reps)[:n]
    else:
        X = np.array(X_all[:n])
        w = np.array(w_all[:n])
        units = units_all[:n]
    del X_all, w_all, units_all
    baseline = _rss_bytes()
    est = BPSeg(random_state=0)
    if profile_path:
        import cProfile
        import io
        import pstats

        prof = cProfile.Profile()
        t0 = time.perf_counter()
        prof.enable()
        est.fit(X, sample_weight=w, word_counts=unit_word_counts(units))
        prof.disable()
        seconds = time.perf_counter() - t0
        buf = io.StringIO()
        st = pstats.Stats(prof, stream=buf)
        buf.write(f"# BPSeg(random_state=0).fit, input {name}, n={n}, {seconds:.2f} s under cProfile\n\n")
        st.sort_stats("cumulative").print_stats(45)
        st.sort_stats("tottime").print_stats(30)
        Path(profile_path).write_text(buf.getvalue())
    else:
        t0 = time.perf_counter()
        est.fit(X, sample_weight=w, word_counts=unit_word_counts(units))
        seconds = time.perf_counter() - t0
    maxrss = _maxrss_bytes()
    hwm = _hwm_bytes()
    peak = hwm if hwm is not None else maxrss
    print(json.dumps({
        "input": name, "n": n, "d": int(X.shape[1]), "repeats": reps, "seconds": seconds,
        "baseline_rss_bytes": baseline, "peak_rss_bytes": peak, "fit_peak_bytes": max(peak - baseline, 0),
        "ru_maxrss_bytes": maxrss, "vmhwm_bytes": hwm,
        "structure": getattr(est, "structure_", None), "n_segments": int(getattr(est, "n_segments_", -1)),
        "status": "ok",
    }))  # fmt: skip


# --------------------------------------------------------------------------- parent


def prepare(data_dir: Path, inputs, max_n: int) -> dict:
    """Embed and save each input (concatenated documents, cut to ``max_n`` rows) and its weights."""
    from bpseg_bench.bench_corpus import load_dataset
    from bpseg_bench.runner import embed_documents, make_embedder
    from bpseg_pgm.features.weights import unit_weights
    from bpseg_pgm.policy import DEFAULT_POLICY

    embedder = make_embedder(progress=False)
    info = {}
    for name in inputs:
        docs = load_dataset(DATASETS[name])
        rows, seconds = embed_documents(docs, embedder)
        X = np.concatenate(rows).astype(np.float32, copy=False)
        w = np.concatenate([unit_weights(d.units, DEFAULT_POLICY.word_scale) for d in docs])
        info[name] = {"dataset": DATASETS[name], "documents": len(docs), "units": int(X.shape[0]), "dim": int(X.shape[1]),
                      "embed_seconds": round(seconds, 2)}  # fmt: skip
        np.save(data_dir / f"{name}_X.npy", X[:max_n])
        np.save(data_dir / f"{name}_w.npy", w[:max_n])
        (data_dir / f"{name}_units.json").write_text(json.dumps([u for d in docs for u in d.units][:max_n]))
        print(
            f"{name}: {len(docs)} documents, {X.shape[0]} units, d={X.shape[1]} ({seconds:.1f} s from the cache)",
            file=sys.stderr,
            flush=True,
        )
    return info


def run_child(data_dir: Path, name: str, n: int, timeout: float, profile_path: Path | None = None) -> dict:
    cmd = [sys.executable, __file__, "--child", str(data_dir), name, str(n)]
    if profile_path is not None:
        cmd += ["--profile-to", str(profile_path)]
    t0 = time.perf_counter()
    try:
        p = subprocess.run(cmd, capture_output=True, text=True, timeout=timeout)
    except subprocess.TimeoutExpired:
        return {"input": name, "n": n, "status": f"timeout (> {timeout:g} s)", "seconds": None}
    if p.returncode != 0:
        tail = (p.stderr or "").strip().splitlines()[-3:]
        status = "killed (out of memory?)" if p.returncode in (-9, 137) else f"error rc={p.returncode}"
        return {"input": name, "n": n, "status": status, "seconds": None, "stderr_tail": tail,
                "wall_seconds": time.perf_counter() - t0}  # fmt: skip
    return json.loads(p.stdout.strip().splitlines()[-1])


def target_check(r: dict) -> str:
    t = TARGETS.get(r["n"])
    if t is None:
        return ""
    max_s, max_gib = t
    if r.get("seconds") is None:
        return f"NOT MET ({r['status']})"
    parts = [f"time {'met' if r['seconds'] <= max_s else 'NOT MET'} (<= {max_s:g} s)"]
    if max_gib is not None:
        ok = r["fit_peak_bytes"] / GIB <= max_gib
        parts.append(f"memory {'met' if ok else 'NOT MET'} (<= {max_gib:g} GiB)")
    return "; ".join(parts)


def render_markdown(meta: dict, results: list[dict]) -> str:
    lines = [
        "# Default BPSeg fit: time and peak memory against n (issue 20)",
        "",
        f"- Date: {meta['date']}",
        f"- Machine: {meta['machine']['cpu']}, {meta['machine']['cores']} cores, {meta['machine']['memory_gib']:.1f} GiB, "
        f"Python {meta['machine']['python']}, NumPy {meta['machine']['numpy']}, {meta['machine']['note']}",
        f"- Command: `{meta['command']}`",
        "- Fit: `BPSeg(random_state=0).fit(X, sample_weight=unit_weights(units), word_counts=unit_word_counts(units))`, "
        "embeddings given (no embedding time), the words counted inside the timed part; "
        "each (size, input) in a fresh subprocess; time = `time.perf_counter` around `fit`; "
        "fit peak = peak RSS (`VmHWM`; `ru_maxrss` in the JSON) after the fit minus the RSS after loading the embeddings (imports included in the baseline).",
        "- Inputs: " + "; ".join(
            f"`{k}` = {v['dataset']} ({v['documents']} documents, {v['units']} units, d={v['dim']}) concatenated in order"
            + (", repeated when n exceeds it" if k == "choi" else "")
            for k, v in meta["inputs"].items()),
        "- Targets: 500 units <= 1 s; 10,000 units <= 10 s and <= 2 GiB; 50,000 units <= 120 s and <= 4 GiB "
        "(memory on the fit peak).",
        "",
        "| input | n | seconds | fit peak (MiB) | absolute peak (MiB) | baseline (MiB) | structure_ | n_segments_ | target |",
        "|---|---:|---:|---:|---:|---:|---|---:|---|",
    ]  # fmt: skip
    mib = 1024**2
    for r in results:
        if r.get("seconds") is None:
            lines.append(f"| {r['input']} | {r['n']} | {r['status']} | | | | | | {target_check(r)} |")
            continue
        rep = f" (x{r['repeats']})" if r.get("repeats", 1) > 1 else ""
        lines.append(
            f"| {r['input']}{rep} | {r['n']} | {r['seconds']:.2f} | {r['fit_peak_bytes'] / mib:.0f} | "
            f"{r['peak_rss_bytes'] / mib:.0f} | {r['baseline_rss_bytes'] / mib:.0f} | {r['structure']} | "
            f"{r['n_segments']} | {target_check(r)} |"
        )
    return "\n".join(lines) + "\n"


def plot(results: list[dict], path: Path, title: str) -> None:
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    fig, ax = plt.subplots(figsize=(7, 5))
    for name, marker in zip(INPUTS, "os"):
        pts = [(r["n"], r["seconds"]) for r in results if r["input"] == name and r.get("seconds") is not None]
        if pts:
            ax.plot(*zip(*pts), marker=marker, label=f"{name} ({DATASETS[name]})")
        for r in results:
            if r["input"] == name and r.get("seconds") is None:
                ax.annotate(r["status"], (r["n"], 1), fontsize=7, rotation=90)
    for n, (s, _) in TARGETS.items():
        ax.plot([n], [s], marker="v", color="red", markersize=10, linestyle="none")
        ax.annotate(f"target {s:g} s", (n, s), textcoords="offset points", xytext=(6, 4), color="red", fontsize=8)
    ax.plot([], [], marker="v", color="red", linestyle="none", label="time targets (<=)")
    ax.set_xscale("log")
    ax.set_yscale("log")
    ax.set_xlabel("units n")
    ax.set_ylabel("fit seconds")
    ax.set_title(title, fontsize=9)
    ax.grid(True, which="both", alpha=0.3)
    ax.legend()
    fig.tight_layout()
    fig.savefig(path, dpi=120)
    plt.close(fig)


def machine() -> dict:
    """The report's machine description (evaluation.report.machine_info) plus memory and load."""
    from bpseg_bench.report import machine_info

    mem = os.sysconf("SC_PAGE_SIZE") * os.sysconf("SC_PHYS_PAGES") / GIB
    return {**machine_info(), "memory_gib": mem, "load_average": os.getloadavg(),
            "note": "shared with other workers (timings may be inflated by concurrent load)"}  # fmt: skip


def main(argv=None) -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--sizes", type=int, nargs="+", default=list(SIZES))
    ap.add_argument("--inputs", nargs="+", choices=INPUTS, default=list(INPUTS))
    ap.add_argument("--timeout", type=float, default=600.0, help="seconds per (size, input) before it is killed")
    ap.add_argument("--out", type=Path, default=DEFAULT_OUT, help="output stem (.md, .json, .png added)")
    ap.add_argument("--profile", type=int, nargs="*", default=[], help="sizes to also cProfile (one extra child each)")
    args = ap.parse_args(argv)
    sizes = sorted(set(args.sizes))
    if any(n < 1 for n in sizes):
        ap.error("sizes must be positive")
    args.out.parent.mkdir(parents=True, exist_ok=True)
    command = "python " + " ".join(
        shlex.quote(a) for a in [os.path.relpath(__file__)] + (sys.argv[1:] if argv is None else list(argv))
    )
    meta = {"date": _dt.datetime.now().astimezone().isoformat(timespec="seconds"), "command": command,
            "machine": machine(), "sizes": sizes, "timeout_s": args.timeout, "targets": {str(k): v for k, v in TARGETS.items()}}  # fmt: skip
    results: list[dict] = []
    with tempfile.TemporaryDirectory(prefix="bpseg_scaling_") as tmp:
        # embeddings are prepared in a child too, so that this process stays small: ru_maxrss
        # carries the parent's RSS at fork into its children
        p = subprocess.run([sys.executable, __file__, "--prepare", tmp, str(max(sizes)), *args.inputs],
                           stdout=subprocess.PIPE, text=True, check=True)  # fmt: skip
        meta["inputs"] = json.loads(p.stdout.strip().splitlines()[-1])
        for name in args.inputs:
            for n in sizes:
                r = run_child(Path(tmp), name, n, args.timeout)
                results.append(r)
                if r.get("seconds") is not None:
                    print(f"{name:6s} n={n:6d}: {r['seconds']:8.2f} s, fit peak {r['fit_peak_bytes'] / 2**20:7.0f} MiB, "
                          f"absolute {r['peak_rss_bytes'] / 2**20:7.0f} MiB, {r['structure']}, k={r['n_segments']}  "
                          f"{target_check(r)}", flush=True)  # fmt: skip
                else:
                    print(f"{name:6s} n={n:6d}: {r['status']}", flush=True)
                _write(args.out, meta, results)
        for n in args.profile:
            for name in args.inputs:
                path = Path(f"{args.out}_profile_{name}_{n}.txt")
                r = run_child(Path(tmp), name, n, args.timeout * 3, profile_path=path)
                print(f"profile {name} n={n}: {r['status']} -> {path}", flush=True)
    _write(args.out, meta, results)
    plot(
        results,
        args.out.with_suffix(".png"),
        f"BPSeg(random_state=0).fit, {meta['machine']['cpu']}, {meta['date'][:10]}",
    )
    print(f"wrote {args.out}.md, .json, .png")


def _write(out: Path, meta: dict, results: list[dict]) -> None:
    out.with_suffix(".json").write_text(json.dumps({**meta, "results": results}, indent=1) + "\n")
    out.with_suffix(".md").write_text(render_markdown(meta, results))


if __name__ == "__main__":
    if len(sys.argv) > 1 and sys.argv[1] == "--prepare":
        print(json.dumps(prepare(Path(sys.argv[2]), sys.argv[4:], int(sys.argv[3]))))
    elif len(sys.argv) > 1 and sys.argv[1] == "--child":
        prof = sys.argv[sys.argv.index("--profile-to") + 1] if "--profile-to" in sys.argv else None
        child(sys.argv[2], sys.argv[3], int(sys.argv[4]), prof)
    else:
        main()
