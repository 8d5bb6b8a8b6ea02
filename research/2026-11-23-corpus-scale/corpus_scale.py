"""End to end, cold cache: ``bpseg corpus`` against today's one-file-at-a-time ``bpseg segment`` loop.

The corpus is Choi (sets 1-4, 920 documents, one sentence per line) and the QMSum train meetings
(162, one turn per line), written as ``.txt`` files into a temporary folder; every approach segments
the same files with ``--lines`` and the default options, each from its **own empty embedding cache**
(``BPSEG_CACHE_DIR`` pointed at a new temporary folder: the user's cache is neither used nor
changed), as separate ``bpseg`` processes, timed from start to exit, one after the other:

* ``loop``: ``bpseg segment FILE --lines --format json -o OUT/FILE.json`` for every file in turn (the
  cache fills as it goes, as it would for a user);
* ``corpus <backend> w<N>``: ``bpseg corpus FOLDER --lines -o OUT.parquet --backend B --workers N``
  (the ONNX backends' export into the empty cache is part of their time).

Reported per run: seconds, documents/s, units/s (units = rows written: sentences or turns), and
the speed-up over the loop; then whether every document got the same labels in every run as in the
loop (embeddings of a sentence can differ in the last float bits with its batch, so this is
checked, not assumed; ONNX int8 embeddings differ by design and are compared for information).

The full corpus takes hours for the loop on 2 cores (3.5 s of start-up per file, 1,082 files);
``--every K`` keeps every K-th Choi document and every K-th meeting (sorted by id, deterministic)::

    python research/2026-11-23-corpus-scale/corpus_scale.py --every 40 --name corpus_scale_every40 --out research/2026-11-23-corpus-scale/results  # RESULTS.md
    python research/2026-11-23-corpus-scale/corpus_scale.py --out research/2026-11-23-corpus-scale/results                   # the full run

Writes ``<name>.md`` and ``<name>.json`` (``--name``, default ``corpus_scale``) into ``--out``.
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path

BPSEG = [sys.executable, "-m", "bpseg_pgm.cli.main"]


def write_corpus(root: Path, every: int) -> dict[str, int]:
    """Choi sets 1-4 and QMSum train as one-unit-per-line files under ``root``; returns units per file id."""
    from bpseg_bench.choi import load_choi
    from bpseg_bench.qmsum import load_qmsum

    docs = [(f"choi/{d.doc_id}", d.sentences) for d in load_choi(sets=[1, 2, 3, 4])]
    docs = docs[::every]
    meetings = [(m.doc_id, m.units) for m in load_qmsum(splits=["train"])][::every]
    sizes = {}
    for doc_id, units in [*docs, *meetings]:
        name = doc_id.replace("/", "__") + ".txt"
        lines = [" ".join(u.split()) for u in units]
        (root / name).write_text("\n".join(lines) + "\n", encoding="utf-8")
        sizes[name] = sum(1 for u in lines if u)
    return sizes


def timed(cmd: list[str], env: dict) -> tuple[float, subprocess.CompletedProcess]:
    t0 = time.perf_counter()
    proc = subprocess.run(cmd, env=env, capture_output=True, text=True)
    seconds = time.perf_counter() - t0
    if proc.returncode != 0:
        raise SystemExit(f"{' '.join(cmd[:6])} ... failed ({proc.returncode}): {proc.stderr.strip()[-2000:]}")
    return seconds, proc


def run_loop(folder: Path, out: Path, env: dict) -> tuple[float, dict]:
    out.mkdir()
    total, labels = 0.0, {}
    files = sorted(folder.iterdir())
    for i, f in enumerate(files):
        seconds, _ = timed(
            [*BPSEG, "segment", str(f), "--lines", "--format", "json", "-o", str(out / f"{f.name}.json")], env
        )
        total += seconds
        labels[f.name] = json.loads((out / f"{f.name}.json").read_text())["labels"]
        if (i + 1) % 10 == 0 or i + 1 == len(files):
            print(f"  loop: {i + 1}/{len(files)} files, {total:.0f} s", file=sys.stderr, flush=True)
    return total, labels


def run_corpus(folder: Path, out: Path, env: dict, backend: str, workers: int) -> tuple[float, dict, int]:
    import pyarrow.parquet as pq

    seconds, _ = timed(
        [*BPSEG, "corpus", str(folder), "--lines", "-o", str(out), "--backend", backend, "--workers", str(workers)], env
    )
    table = pq.read_table(out).sort_by([("doc", "ascending"), ("sentence", "ascending")])
    labels: dict[str, list] = {}
    for doc, label, error in zip(*(table.column(c).to_pylist() for c in ("doc", "label", "error"))):
        labels.setdefault(doc, [])
        if error is None:
            labels[doc].append(label)
    return seconds, labels, table.num_rows


def main(argv=None) -> int:
    from bpseg_bench.report import machine_info

    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--every", type=int, default=1, help="keep every K-th Choi document and meeting (default 1: all)")
    p.add_argument(
        "--runs",
        nargs="+",
        default=["loop", "corpus-torch-w1", "corpus-torch-w2", "corpus-onnx-w1", "corpus-onnx-int8-w1"],
        help="which runs, in this order: loop and corpus-<backend>-w<workers>",
    )
    p.add_argument("--out", default="research/2026-11-23-corpus-scale/results")
    p.add_argument("--name", default="corpus_scale", help="file names of the report (default corpus_scale)")
    args = p.parse_args(argv)
    work = Path(tempfile.mkdtemp(prefix="bpseg_bench_corpus_"))
    try:
        folder = work / "docs"
        folder.mkdir()
        sizes = write_corpus(folder, args.every)
        n_docs, n_units = len(sizes), sum(sizes.values())
        print(f"{n_docs} files, {n_units} units in {folder}", file=sys.stderr)
        result = {
            "command": "python " + " ".join([sys.argv[0], *(argv if argv is not None else sys.argv[1:])]),
            "machine": machine_info(),
            "documents": n_docs,
            "units": n_units,
            "choi_documents": sum(1 for k in sizes if k.startswith("choi")),
            "runs": {},
        }
        labels = {}
        for run in args.runs:
            cache = work / f"cache-{run}"
            cache.mkdir()
            env = dict(os.environ, BPSEG_CACHE_DIR=str(cache))
            load = os.getloadavg()[0]
            if run == "loop":
                seconds, labels[run] = run_loop(folder, work / "loop-out", env)
                rows = n_units
            else:
                backend, workers = run[len("corpus-") :].rsplit("-w", 1)  # corpus-onnx-int8-w2 -> onnx-int8, 2
                workers = int(workers)
                seconds, labels[run], rows = run_corpus(folder, work / f"{run}.parquet", env, backend, workers)
            result["runs"][run] = {
                "seconds": round(seconds, 1),
                "docs_per_s": round(n_docs / seconds, 3),
                "units_per_s": round(rows / seconds, 1),
                "rows": rows,
                "load_average_1min_at_start": round(load, 2),
            }
            print(f"  {run}: {result['runs'][run]}", file=sys.stderr, flush=True)
            shutil.rmtree(cache, ignore_errors=True)
        base = result["runs"].get("loop", {}).get("seconds")
        ref = "loop" if "loop" in labels else next(iter(labels))
        for run, r in result["runs"].items():
            if base:
                r["speedup_vs_loop"] = round(base / r["seconds"], 2)
            same = sum(labels[run].get(d) == labels[ref].get(d) for d in labels[ref])
            r[f"documents_with_labels_identical_to_{ref}"] = f"{same}/{len(labels[ref])}"
        out = Path(args.out)
        out.mkdir(parents=True, exist_ok=True)
        (out / f"{args.name}.json").write_text(json.dumps(result, indent=2) + "\n")
        (out / f"{args.name}.md").write_text(render(result))
        print(render(result))
    finally:
        shutil.rmtree(work, ignore_errors=True)
    return 0


def render(result: dict) -> str:
    m = result["machine"]
    key = next(k for k in next(iter(result["runs"].values())) if k.startswith("documents_with_labels"))
    lines = [
        f"{result['documents']} documents ({result['choi_documents']} Choi, "
        f"{result['documents'] - result['choi_documents']} QMSum train meetings), {result['units']} units; "
        f"cold cache per run. Machine: {m['cpu']}, {m['cores']} cores.",
        "",
        f"| run | seconds | documents/s | units/s | speed-up vs loop | {key.replace('_', ' ')} | load (1 min) at start |",
        "|---|---|---|---|---|---|---|",
    ]
    for run, r in result["runs"].items():
        lines.append(
            f"| {run} | {r['seconds']} | {r['docs_per_s']} | {r['units_per_s']} | "
            f"{r.get('speedup_vs_loop', '')} | {r[key]} | {r['load_average_1min_at_start']} |"
        )
    lines += ["", f"Command: `{result['command']}`"]
    return "\n".join(lines) + "\n"


if __name__ == "__main__":
    sys.exit(main())
