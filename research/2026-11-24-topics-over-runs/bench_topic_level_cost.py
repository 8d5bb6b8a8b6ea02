"""What the topic level (topics over runs, issue 21) adds to the default fit's time.

The default ``BPSeg(random_state=0).fit(X, sample_weight=w)`` (embeddings given) is timed at each size, and
so is the grouping of its runs inside it (``bpseg_pgm.runtopics.fit_run_topics`` as the decision layer's
``bpseg_pgm.decisions.grouping`` calls it, wrapped with a timer; it was called from ``bpseg_pgm.estimator`` when
this study was made): the
topic level's share is that time over the rest of the fit (the runs-only fit). Inputs as in
``bench_default_scaling.py``: QMSum train meetings concatenated (gradual) and Choi set 1 concatenated
(abrupt), the first n units. Each size is fitted ``--repeats`` times after a warm-up fit; the fastest is
kept. Target (issue 21): at most 20% at 10,000 units.

    python research/2026-11-24-topics-over-runs/bench_topic_level_cost.py                     # 1,000 / 10,000 / 50,000 units
    python research/2026-11-24-topics-over-runs/bench_topic_level_cost.py --sizes 10000 --repeats 5

Writes ``research/2026-11-24-topics-over-runs/results/topic_level_cost.md``.
"""

from __future__ import annotations

import argparse
import os
import platform
import sys
import time
import warnings
from pathlib import Path

import numpy as np

OUT = Path(__file__).resolve().parent / "results" / "topic_level_cost.md"
DATASETS = {"qmsum": "qmsum-train", "choi": "choi-1"}


def load(name: str, n: int) -> tuple[np.ndarray, np.ndarray]:
    from bpseg_bench.bench_corpus import load_dataset
    from bpseg_bench.runner import embed_documents, make_embedder
    from bpseg_pgm.features.weights import unit_weights
    from bpseg_pgm.policy import DEFAULT_POLICY

    docs = load_dataset(DATASETS[name])
    Xs, _ = embed_documents(docs, make_embedder(progress=False))
    X = np.concatenate([np.asarray(x, dtype=np.float64) for x in Xs])
    w = np.concatenate([unit_weights(d.units, DEFAULT_POLICY.word_scale) for d in docs])
    reps = -(-n // X.shape[0])
    return np.tile(X, (reps, 1))[:n], np.tile(w, reps)[:n]


def main(argv=None) -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--sizes", type=int, nargs="+", default=[1000, 10000, 50000])
    ap.add_argument("--repeats", type=int, default=3)
    ap.add_argument("--out", type=Path, default=OUT)
    args = ap.parse_args(argv)
    warnings.filterwarnings("ignore")
    import bpseg_pgm.decisions.grouping as grouping
    import bpseg_pgm.estimator as estimator

    inner = grouping.fit_run_topics
    spent: list[float] = []

    def timed(*a, **k):
        t0 = time.perf_counter()
        try:
            return inner(*a, **k)
        finally:
            spent.append(time.perf_counter() - t0)

    grouping.fit_run_topics = timed
    rows = []
    for name in DATASETS:
        X_all, w_all = load(name, max(args.sizes))
        estimator.BPSeg(random_state=0).fit(X_all[:500], sample_weight=w_all[:500])  # warm-up
        for n in sorted(args.sizes):
            X, w = X_all[:n], w_all[:n]
            best = None
            for _ in range(args.repeats):
                spent.clear()
                t0 = time.perf_counter()
                model = estimator.BPSeg(random_state=0).fit(X, sample_weight=w)
                total = time.perf_counter() - t0
                if best is None or total < best[0]:
                    best = (
                        total,
                        sum(spent),
                        model.structure_,
                        int(model.runs_.labels.max()) + 1 if model.runs_ is not None else 0,
                        model.n_segments_,
                    )
            total, topic, structure, n_runs, n_topics = best
            rest = total - topic
            rows.append(
                (name, n, total, topic, rest, topic / rest if rest > 0 else float("nan"), structure, n_runs, n_topics)
            )
            print(
                f"{name:6s} n={n:6d}: fit {total:6.2f} s, grouping {topic:5.2f} s = {100 * topic / rest:5.1f}% of the "
                f"runs-only {rest:6.2f} s; {structure}, {n_runs} runs -> {n_topics} topics",
                flush=True,
            )
    cpu = platform.processor() or platform.machine()
    try:  # Linux: the CPU's name
        cpu = next(line.split(":", 1)[1].strip() for line in open("/proc/cpuinfo") if line.startswith("model name"))
    except (OSError, StopIteration):
        pass
    lines = [
        "# Topic level's share of the default fit (issue 21)",
        "",
        "- Command: `"
        + " ".join(
            [
                "python research/2026-11-24-topics-over-runs/bench_topic_level_cost.py",
                *(sys.argv[1:] if argv is None else argv),
            ]
        )
        + "`",
        f"- Machine: {cpu}, {os.cpu_count()} cores; best of {args.repeats} fits after a warm-up; embeddings given",
        "- grouping = time in `fit_run_topics` inside `BPSeg(random_state=0).fit`; runs-only = the rest of the fit",
        "- Target: grouping <= 20% of the runs-only fit at 10,000 units",
        "",
        "| input | n | fit (s) | grouping (s) | runs-only (s) | grouping / runs-only | structure_ | runs | topics |",
        "|---|---:|---:|---:|---:|---:|---|---:|---:|",
    ]
    for name, n, total, topic, rest, share, structure, n_runs, n_topics in rows:
        lines.append(
            f"| {name} | {n} | {total:.2f} | {topic:.2f} | {rest:.2f} | {100 * share:.1f}% | {structure} | {n_runs} | {n_topics} |"
        )
    args.out.parent.mkdir(parents=True, exist_ok=True)
    args.out.write_text("\n".join(lines) + "\n")
    print(f"wrote {args.out}")


if __name__ == "__main__":
    main()
