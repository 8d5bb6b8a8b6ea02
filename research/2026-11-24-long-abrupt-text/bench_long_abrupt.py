"""Quality of the default fit on long abrupt text: Choi set 1 concatenated to thousands of passages (issue 20).

Input: the Choi set 1 documents (``load_dataset("choi-1")``, 200 documents, 14,066 sentences, 2,000
passages of 3-11 sentences) concatenated in order and cut to the first n units, repeated when n exceeds
them (as ``bench_default_scaling.py`` does); embeddings from the default embedder's cache, unit weights of
the text pipeline. ``BPSeg(random_state=0).fit(X, sample_weight=w)`` (every parameter at its default) at
each n, timed with ``time.perf_counter`` (the machine may be shared: times are indicative).

Two golds:

* passages: every passage is its own segment (a repeated copy of set 1 is new passages); what a
  contiguous segmentation is scored against (Pk, WindowDiff, ARI of the runs);
* sources: Choi drew each passage from the start of one of 124 Brown corpus texts, each drawn 8-25 times
  (passages that share their first sentence come from one text), so a text's passages are one topic that
  returns; what the default's grouped labels (topics over runs, ``structure_ == "run-topics"``) are
  scored against.

Per n: the default's labels (ARI against both golds, Pk and WindowDiff against the passages' boundaries,
the runs they form against the gold passages), and its runs fit ``runs_`` (how many runs, their ARI and
Pk against the passages): the runs are what the number of candidates bounded.

    python research/2026-11-24-long-abrupt-text/bench_long_abrupt.py --tag after                       # 5k, 10k, 20k, 50k units
    PYTHONPATH=/old/checkout python research/2026-11-24-long-abrupt-text/bench_long_abrupt.py --tag before --sizes 5000 10000

Results are merged by ``--tag`` into ``research/2026-11-24-long-abrupt-text/results/long_abrupt.json`` and the table of every tag
is written to ``research/2026-11-24-long-abrupt-text/results/long_abrupt.md`` (``--out`` changes the stem).
"""

from __future__ import annotations

import argparse
import datetime as _dt
import json
import os
import subprocess
import sys
import time
import warnings
from pathlib import Path

import numpy as np

SIZES = (5000, 10000, 20000, 50000)
DEFAULT_OUT = Path(__file__).resolve().parent / "results" / "long_abrupt"


def corpus():
    """(X, w, passage gold, source gold) of Choi set 1 concatenated in order."""
    from bpseg_bench.bench_corpus import load_dataset
    from bpseg_bench.runner import embed_documents, make_embedder
    from bpseg_pgm.features.weights import unit_weights
    from bpseg_pgm.policy import DEFAULT_POLICY
    from bpseg_pgm.utils.labels import run_bounds

    docs = load_dataset("choi-1")
    rows, _ = embed_documents(docs, make_embedder(progress=False))
    X = np.concatenate(rows).astype(np.float64)
    w = np.concatenate([unit_weights(d.units, DEFAULT_POLICY.word_scale) for d in docs])
    passage, source, sources = [], [], {}
    for i, d in enumerate(docs):
        gold = np.asarray(d.gold)
        bounds = run_bounds(gold)
        for j, (a, b) in enumerate(zip(bounds[:-1], bounds[1:])):
            passage += [i * 1000 + j] * (b - a)
            source += [sources.setdefault(d.units[a], len(sources))] * (b - a)
    return X, w, np.asarray(passage), np.asarray(source)


def first_units(arrays, n: int, copy_offset: int | None = None):
    """The first n rows of each array, repeated when n exceeds them; ``copy_offset`` renumbers the labels of
    each repeat (the passage gold: a repeat is new passages)."""
    out = []
    for a in arrays:
        reps = -(-n // a.shape[0])
        parts = [
            a + (c * copy_offset if copy_offset is not None and a.ndim == 1 and a.dtype.kind == "i" else 0)
            for c in range(reps)
        ]
        out.append(np.concatenate(parts)[:n])
    return out


def measure(n: int, data) -> dict:
    from bpseg_pgm.estimator import BPSeg
    from bpseg_pgm.evaluation.metrics import evaluate
    from bpseg_pgm.utils.labels import n_runs

    X_all, w_all, passage_all, source_all = data
    X, w, source = first_units([X_all, w_all, source_all], n)
    (passage,) = first_units([passage_all], n, copy_offset=10**7)
    est = BPSeg(random_state=0)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        t0 = time.perf_counter()
        est.fit(X, sample_weight=w)
        seconds = time.perf_counter() - t0
    labels = np.asarray(est.labels_)
    by_passage = evaluate(passage, labels)
    out = {
        "n": n, "repeats": -(-n // X_all.shape[0]), "seconds": round(seconds, 2), "structure": est.structure_,
        "n_segments": int(est.n_segments_), "gold_passages": n_runs(passage), "gold_sources": len(np.unique(source)),
        "runs_found": n_runs(labels), "ari_sources": evaluate(source, labels)["ari"], "ari_passages": by_passage["ari"],
        "pk": by_passage["pk"], "windowdiff": by_passage["windowdiff"],
    }  # fmt: skip
    if est.runs_ is not None:
        runs = np.asarray(est.runs_.labels)
        scored = evaluate(passage, runs)
        out.update({"runs_k": int(runs.max()) + 1, "runs_max": int(est.runs_.levels.max_runs),
                    "runs_ari_passages": scored["ari"], "runs_pk": scored["pk"]})  # fmt: skip
    return out


def render(store: dict) -> str:
    lines = [
        "# Default BPSeg fit on long abrupt text: Choi set 1 concatenated (issue 20)",
        "",
        "Produced by `research/2026-11-24-long-abrupt-text/bench_long_abrupt.py` (its docstring says what is measured). Golds: *passages* (each "
        "passage its own segment; Pk, WindowDiff and the runs' ARI) and *sources* (the 124 Brown texts Choi drew the "
        "passages from, a returning topic each; the default's grouped labels). `runs found`: contiguous runs of the "
        "default's labels; `runs_`: the runs fit (its k, the most runs its levels hold, its ARI and Pk against the "
        "passages). Seconds on a shared 2-core machine (indicative).",
        "",
    ]
    for tag, entry in store.items():
        meta = entry["meta"]
        lines += [f"## {tag}", "", f"- Date: {meta['date']}; commit `{meta['commit']}`; command `{meta['command']}`", "",
                  "| n | seconds | structure_ | n_segments_ | gold passages | runs found | ARI sources | ARI passages | Pk | WD "
                  "| runs_ k | runs_ max | runs_ ARI passages | runs_ Pk |",
                  "|---:|---:|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|"]  # fmt: skip
        for r in entry["results"]:
            rep = f" (x{r['repeats']})" if r["repeats"] > 1 else ""
            lines.append(
                f"| {r['n']}{rep} | {r['seconds']:.1f} | {r['structure']} | {r['n_segments']} | {r['gold_passages']} | "
                f"{r['runs_found']} | {r['ari_sources']:.3f} | {r['ari_passages']:.3f} | {r['pk']:.3f} | {r['windowdiff']:.3f} | "
                f"{r.get('runs_k', '')} | {r.get('runs_max', '')} | {r.get('runs_ari_passages', float('nan')):.3f} | "
                f"{r.get('runs_pk', float('nan')):.3f} |"
            )
        lines.append("")
    return "\n".join(lines)


def _commit() -> str:
    import bpseg_pgm

    root = Path(bpseg_pgm.__file__).resolve().parent.parent
    try:
        return subprocess.run(["git", "-C", str(root), "rev-parse", "--short", "HEAD"], capture_output=True, text=True,
                              check=True).stdout.strip() + f" ({root})"  # fmt: skip
    except (OSError, subprocess.CalledProcessError):
        return f"unknown ({root})"


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--sizes", type=int, nargs="+", default=list(SIZES))
    ap.add_argument("--tag", default="current", help="name of this run in the JSON and the table (e.g. before, after)")
    ap.add_argument("--out", type=Path, default=DEFAULT_OUT, help="output stem (.md and .json added)")
    args = ap.parse_args(argv)
    if any(n < 2 for n in args.sizes):
        ap.error("sizes must be at least 2")
    data = corpus()
    meta = {"date": _dt.datetime.now().astimezone().isoformat(timespec="seconds"), "commit": _commit(),
            "command": "python " + " ".join([os.path.relpath(__file__)] + (sys.argv[1:] if argv is None else list(argv)))}  # fmt: skip
    results = []
    for n in sorted(set(args.sizes)):
        r = measure(n, data)
        results.append(r)
        print(json.dumps(r), flush=True)
    path = args.out.with_suffix(".json")
    store = json.loads(path.read_text()) if path.is_file() else {}
    store[args.tag] = {"meta": meta, "results": results}
    args.out.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(json.dumps(store, indent=1) + "\n")
    args.out.with_suffix(".md").write_text(render(store))
    print(f"wrote {path} and {args.out.with_suffix('.md')}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
