"""What the first and a repeat ``bpseg segment FILE`` spend their time on: imports, model load, compile, embedding, fit.

Each run is a fresh interpreter that runs the command line's ``main(["segment", FILE])`` with timers around
the import statements, the model load (``Embedder._load``, with its imports of torch and
sentence-transformers), the embedding (``Embedder.encode``, cache look-ups
included), numba's compilation (``Dispatcher.compile``: loading a compiled kernel from numba's cache is
counted here too) and ``BPSeg.fit``. Times are exclusive: an import inside the fit counts as import, not as
fit (but torch's and sentence-transformers' imports count as the model load). "other" is the rest of the command (reading the text, splitting it, keywords, writing the output);
"start-up and exit" is the interpreter's own start and exit (with torch loaded, the exit takes a while).

The first run starts with an empty embeddings cache and an empty numba cache (both in a temporary
directory); the repeats reuse them, as a second ``bpseg segment`` of the same file does. The operating
system's file cache is not emptied, so the first run here is a first run after installation, warm disk.
Besides, it times ``import numpy`` and ``from bpseg_pgm.text import segment_text`` in fresh interpreters
(medians of at least 5), the import-cost target's reference.

    python benchmarks/first_run_cost.py examples/notes.txt
    python benchmarks/first_run_cost.py examples/notes.txt --tree before=/path/to/old/checkout --tree after=.

With ``--tree``, each checkout's package is put first on ``PYTHONPATH`` in turn, so that two versions are
measured in one run, on one machine, under the same load.
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

PHASES = ("start-up and exit", "import", "model load", "embedding", "numba compile", "fit", "other")


def _child(file: str, out: str) -> None:
    """Run ``bpseg segment FILE`` here with the phase timers; write the phase totals to ``out`` (JSON)."""
    import builtins
    import functools
    import importlib

    t0 = time.perf_counter()
    totals = dict.fromkeys(PHASES[1:], 0.0)
    stack: list[float] = []
    patched: set[str] = set()

    categories: list[str] = []

    def span(category, fn):
        @functools.wraps(fn)
        def wrapper(*args, **kwargs):
            if category == "import" and "model load" in categories:
                return fn(*args, **kwargs)  # torch and sentence-transformers are the model load's
            categories.append(category)
            stack.append(0.0)
            start = time.perf_counter()
            try:
                return fn(*args, **kwargs)
            finally:
                elapsed = time.perf_counter() - start
                categories.pop()
                totals[category] += elapsed - stack.pop()
                if stack:
                    stack[-1] += elapsed
                if category == "import":
                    patch()

        return wrapper

    def patch() -> None:
        # each timer goes on as soon as its module is imported (importing nothing earlier than the command would)
        targets = {
            "bpseg_pgm.embeddings.embedder": lambda m: [
                (m.Embedder, "_load", "model load"),
                (m.Embedder, "encode", "embedding"),
                (m.Embedder, "encode_documents", "embedding"),
            ],
            "bpseg_pgm.estimator": lambda m: [(m.BPSeg, "fit", "fit")],
            "numba.core.dispatcher": lambda m: [(m.Dispatcher, "compile", "numba compile")],
        }
        for name, where in targets.items():
            module = sys.modules.get(name)
            if name not in patched and module is not None and not getattr(module.__spec__, "_initializing", False):
                patched.add(name)
                for owner, attr, category in where(sys.modules[name]):
                    setattr(owner, attr, span(category, getattr(owner, attr)))

    builtins.__import__ = span("import", builtins.__import__)
    importlib.import_module = span("import", importlib.import_module)
    from bpseg_pgm.cli.main import main

    rc = main(["segment", file])
    totals["other"] = time.perf_counter() - t0 - sum(totals.values())
    Path(out).write_text(json.dumps({"rc": rc, **totals}), "utf-8")


def _run_child(file: str, env: dict) -> dict:
    with tempfile.TemporaryDirectory() as tmp:
        out = Path(tmp) / "phases.json"
        start = time.perf_counter()
        proc = subprocess.run(
            [sys.executable, __file__, "--child", str(Path(file).resolve()), str(out)],
            env=env,
            stdout=subprocess.DEVNULL,
            stderr=subprocess.PIPE,
            text=True,
        )
        wall = time.perf_counter() - start
        if proc.returncode != 0 or not out.exists():
            sys.exit(f"the measured run failed:\n{proc.stderr[-2000:]}")
        phases = json.loads(out.read_text("utf-8"))
    phases.pop("rc")
    phases["start-up and exit"] = wall - sum(phases.values())
    phases["total"] = wall
    return phases


def _import_time(statement: str, env: dict) -> float:
    start = time.perf_counter()
    # not in the current directory: ``python -c`` would import a checkout found there, not PYTHONPATH's
    subprocess.run([sys.executable, "-c", statement], env=env, check=True, cwd=tempfile.gettempdir())
    return time.perf_counter() - start


def measure(file: str, trees: dict[str, Path | None], repeats: int) -> dict:
    """Each checkout's first run, the median of its ``repeats`` repeats, and its import medians.

    The checkouts take turns at each step (first runs, then each round of repeats, then each round of imports),
    so that a change in the machine's load falls on all of them alike.
    """
    with tempfile.TemporaryDirectory() as caches:
        envs = {}
        for i, (label, tree) in enumerate(trees.items()):
            env = dict(os.environ)
            if tree is not None:
                env["PYTHONPATH"] = os.pathsep.join(filter(None, [str(tree), env.get("PYTHONPATH", "")]))
            env["BPSEG_CACHE_DIR"] = str(Path(caches) / f"embeddings-{i}")
            env["NUMBA_CACHE_DIR"] = str(Path(caches) / f"numba-{i}")
            env["TQDM_DISABLE"] = "1"
            envs[label] = env
        first = {label: _run_child(file, env) for label, env in envs.items()}
        again: dict[str, list[dict]] = {label: [] for label in envs}
        for _ in range(repeats):
            for label, env in envs.items():
                again[label].append(_run_child(file, env))
    statements = ("import numpy", "from bpseg_pgm.text import segment_text")
    imports = {label: {s: [] for s in statements} for label in envs}
    for _ in range(max(repeats, 5)):
        for label, env in envs.items():
            for statement in statements:
                imports[label][statement].append(_import_time(statement, env))
    return {
        label: {
            "first": first[label],
            "repeat": {k: statistics.median(r[k] for r in again[label]) for k in first[label]},
            "imports": {k: statistics.median(v) for k, v in imports[label].items()},
        }
        for label in envs
    }


def _table(results: dict[str, dict], repeats: int) -> str:
    labels = list(results)
    head = ["phase (s)"] + [f"{label}: {run}" for label in labels for run in ("first", f"repeat (median of {repeats})")]
    rows = [head]
    for phase in (*PHASES, "total"):
        rows.append([phase] + [f"{results[lab][run][phase]:.2f}" for lab in labels for run in ("first", "repeat")])
    for statement in ("import numpy", "from bpseg_pgm.text import segment_text"):
        rows.append([statement] + [f"{results[lab]['imports'][statement]:.2f}" for lab in labels for _ in "ab"])
    widths = [max(len(r[i]) for r in rows) for i in range(len(head))]
    lines = [" | ".join(c.ljust(w) for c, w in zip(r, widths)) for r in rows]
    lines.insert(1, "-|-".join("-" * w for w in widths))
    return "\n".join(lines)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("file", help="a small text file to segment")
    parser.add_argument("--repeats", type=int, default=3, help="repeat runs (median shown; default 3)")
    parser.add_argument(
        "--tree", action="append", default=[], metavar="LABEL=DIR", help="a checkout to measure (repeatable)"
    )
    args = parser.parse_args(argv)
    trees = {}
    for item in args.tree:
        label, sep, path = item.partition("=")
        if not sep or not Path(path, "bpseg_pgm").is_dir():
            parser.error(f"--tree wants LABEL=DIR with DIR a checkout (holding bpseg_pgm/), got {item!r}")
        trees[label] = Path(path).resolve()
    results = measure(args.file, trees or {"this": None}, args.repeats)
    print(_table(results, args.repeats))
    return 0


if __name__ == "__main__":
    if sys.argv[1:2] == ["--child"]:
        _child(sys.argv[2], sys.argv[3])
    else:
        sys.exit(main())
