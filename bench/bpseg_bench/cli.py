"""``bpseg bench``: the paper's Tables 1 and 2 (``choi``, ``example``), ``interleaved``, ``corpus`` and ``export``.

:func:`register` adds the ``bench`` command to the ``bpseg`` parser. Each sub-command's
``func(args)`` returns an exit code and raises ValueError / OSError for bad input, which
the main CLI prints as one line (exit 2). Option values are checked before any work, and
report files are written all-or-nothing.
"""

from __future__ import annotations

import argparse
import sys

__all__ = ["register", "run_choi", "run_corpus", "run_example", "run_export", "run_interleaved"]

DEFAULT_CHOI_OUT = "benchmarks/out/choi"
DEFAULT_EXAMPLE_OUT = "benchmarks/out/example"
DEFAULT_INTERLEAVED_OUT = "benchmarks/out/interleaved"
DEFAULT_CORPUS_OUT = "benchmarks/out/corpus"
INTERLEAVED_METHODS = ("bpseg", "bpseg-paper", "bpseg-appendix", "kmeans", "kmeans-true-k", "graphseg", "texttiling")


def _split(values: list[str] | None) -> list[str] | None:
    """Flatten ``--x a b,c`` into ``[a, b, c]``."""
    if values is None:
        return None
    return [part for v in values for part in v.split(",") if part]


def _int(value: str, what: str) -> int:
    try:
        return int(value)
    except ValueError:
        raise ValueError(f"{what} must be an integer, got {value!r}") from None


def _report(result: dict, out, write, render) -> int:
    """Write the report files all-or-nothing, print the Markdown and where the files went."""
    paths = write(result, out)
    sys.stdout.write(render(result))
    sys.stdout.write("\nWrote " + ", ".join(str(p) for p in paths.values()) + "\n")
    return 0


def _check_bench_extra() -> None:
    """Before any work: the benchmarks' dependencies (matplotlib, ruptures) are installed, or a ValueError (one line, exit 2)."""
    from bpseg_bench.extras import check_bench

    try:
        check_bench("bpseg bench")
    except ImportError as exc:
        raise ValueError(str(exc)) from None


def _check_not_inputs(outputs, inputs) -> None:
    """Refuse, before any work, an output file that is one of the input files (through any link)."""
    from bpseg_pgm.io.output import check_not_input

    for out in outputs:
        check_not_input(out, inputs)


def _embedder(args: argparse.Namespace, progress: bool | None):
    """The ``Embedder`` of ``--model``, ``--embedding-context``/``--context-window`` and ``--cache-dir``, or None (the
    benchmark's default embedder: the bundled model, each unit alone, the default cache) when none is given."""
    model, context = getattr(args, "model", None), getattr(args, "embedding_context", None)
    window = getattr(args, "context_window", None)
    if window is not None and context is None:
        raise ValueError("--context-window needs --embedding-context")
    if args.cache_dir is None and model is None and context is None:
        return None
    from bpseg_pgm.embeddings import Embedder

    return Embedder(
        model,
        cache_dir=args.cache_dir,
        show_progress=progress,
        context=context,
        context_window=1 if window is None else _int(window, "--context-window"),
    )


def run_choi(args: argparse.Namespace) -> int:
    """``bpseg bench choi``: run the Choi benchmark and write Markdown, JSON and PNG to --out."""
    _check_bench_extra()
    from bpseg_bench.bench_choi import DEFAULT_METHODS, render_markdown, run_choi_benchmark, write_choi_report
    from bpseg_bench.choi import load_choi
    from bpseg_pgm.io.reports import check_output_dir

    sets = _split(args.sets)
    sets = None if sets is None else [_int(s, "--sets") for s in sets]
    ranges = _split(args.ranges)
    methods = _split(args.methods) or list(DEFAULT_METHODS)
    limit = None if args.limit is None else _int(args.limit, "--limit")
    if limit is not None and limit < 1:
        raise ValueError(f"--limit must be a positive integer, got {limit}")
    seed = _int(args.seed, "--seed")
    out = check_output_dir(args.out)
    load_choi(args.data, sets=sets, ranges=ranges, limit=1)  # fail fast on bad data/sets/ranges
    embedder = _embedder(args, False if args.no_progress else None)
    result = run_choi_benchmark(
        args.data, sets=sets, ranges=ranges, methods=methods, limit=limit, seed=seed,
        embedder=embedder, progress=False if args.no_progress else None,
    )  # fmt: skip
    return _report(result, out, write_choi_report, render_markdown)


def run_interleaved(args: argparse.Namespace) -> int:
    """``bpseg bench interleaved``: documents whose topics return, built from Choi set 1."""
    _check_bench_extra()
    from bpseg_bench.bench_choi import render_markdown, run_choi_benchmark, write_choi_report
    from bpseg_bench.choi import load_choi
    from bpseg_bench.interleaved import make_interleaved
    from bpseg_pgm.io.reports import check_output_dir

    n_docs = _int(args.docs, "--docs")
    seed = _int(args.seed, "--seed")
    methods = _split(args.methods) or list(INTERLEAVED_METHODS)
    out = check_output_dir(args.out)
    docs = make_interleaved(load_choi(args.data, sets=[1]), n_docs=n_docs, seed=seed)
    result = run_choi_benchmark(
        args.data, methods=methods, seed=seed, docs=docs, progress=False if args.no_progress else None,
        title="Interleaved-topic documents from Choi set 1 (development set)",
    )  # fmt: skip
    return _report(result, out, lambda r, o: write_choi_report(r, o, stem="interleaved_results"), render_markdown)


def run_example(args: argparse.Namespace) -> int:
    """``bpseg bench example``: Table 2 on the illustrative example; Markdown and JSON to --out."""
    _check_bench_extra()
    from bpseg_bench.bench_example import render_example_markdown, run_example_benchmark, write_example_report
    from bpseg_pgm.io.reports import check_output_dir

    seeds = _int(args.seeds, "--seeds")
    out = check_output_dir(args.out)
    embedder = _embedder(args, False)
    result = run_example_benchmark(n_seeds=seeds, embedder=embedder)
    return _report(result, out, write_example_report, render_example_markdown)


def run_corpus(args: argparse.Namespace) -> int:
    """``bpseg bench corpus DATASET ...``: one table per dataset, baselines beside the library."""
    _check_bench_extra()
    from bpseg_bench.bench_corpus import (
        CORPUS_METHODS,
        OUTPUT_STEM,
        load_dataset,
        render_corpus_markdown,
        run_corpus_benchmark,
        write_corpus_report,
    )  # fmt: skip
    from bpseg_bench.methods import check_methods
    from bpseg_pgm.io.reports import check_output_dir

    methods = check_methods(_split(args.methods) or CORPUS_METHODS)  # before loading (and embedding) anything
    limit = None if args.limit is None else _int(args.limit, "--limit")
    seed = _int(args.seed, "--seed")
    out = check_output_dir(args.out)
    specs = list(dict.fromkeys(args.datasets))
    _check_not_inputs([out / f"{OUTPUT_STEM}{ext}" for ext in (".md", ".json", ".png")], specs)
    datasets = {spec: load_dataset(spec, limit=limit) for spec in specs}
    embedder = _embedder(args, False if args.no_progress else None)
    result = run_corpus_benchmark(
        datasets, methods=methods, seed=seed, embedder=embedder, progress=False if args.no_progress else None
    )
    return _report(result, out, write_corpus_report, render_corpus_markdown)


def run_export(args: argparse.Namespace) -> int:
    """``bpseg bench export DATASET -o FILE.jsonl``: a dataset in the corpus format."""
    _check_bench_extra()
    from bpseg_bench.bench_corpus import load_dataset
    from bpseg_bench.corpus import write_corpus

    limit = None if args.limit is None else _int(args.limit, "--limit")
    _check_not_inputs([args.output], [args.dataset])
    docs = load_dataset(args.dataset, limit=limit)
    path = write_corpus(docs, args.output)
    sys.stdout.write(f"Wrote {len(docs)} documents to {path}\n")
    return 0


#: Each sub-command's (help, description).
_TEXTS = {
    "choi": (
        "Table 1: ARI, NMI, AMI, Pk, WindowDiff on the Choi corpus",
        "Run BP-Seg and the baselines on Choi documents; write mean ± std per range and method "
        "as Markdown and JSON, and a PNG chart.",
    ),
    "interleaved": (
        "documents whose topics return (A B A C B ...), built from Choi set 1",
        "Build documents from chunks of 3-5 Choi set-1 segments, interleaved so that topics "
        "return; gold = source segment. The development benchmark for non-contiguous grouping.",
    ),
    "corpus": (
        "any corpus (JSONL, or qmsum-train/-val, peps-train/-val[-sub], choi-N, interleaved[-234], choi-1-rr, "
        "choi-234-rr, ...): one table per dataset",
        "Run BP-Seg and the baselines (one segment, equal blocks, TextTiling, k-means, KernelCPD) "
        "on each dataset; write a table per dataset (ARI, NMI, AMI, Pk, WindowDiff, runs per "
        "gold run, segments found, purity of returning topics) as Markdown and JSON, and a PNG. "
        "JSONL format: one {\"id\", \"units\": [...], \"labels\": [... or null]} per line.",
    ),
    "export": (
        "write a dataset (qmsum-train, peps-val, choi-1, interleaved, ...) as a JSONL corpus",
        "Write a dataset in the corpus format read by `bpseg bench corpus`.",
    ),
    "example": (
        "Table 2: tennis sentences together on the illustrative example, k = 2..7",
        "For k = 2..7, check whether BP-Seg, k-means and GraphSeg group the three tennis "
        "sentences of the paper's illustrative example and find more than one segment.",
    ),
}  # fmt: skip


def _command(sub, func, name: str) -> argparse.ArgumentParser:
    """The sub-command ``name`` (its texts from ``_TEXTS``), run by ``func(args)``."""
    help, description = _TEXTS[name]
    parser = sub.add_parser(name, help=help, description=description)
    parser.set_defaults(func=func)
    return parser


def _add_out(parser: argparse.ArgumentParser, default: str, files: str = "") -> None:
    parser.add_argument(
        "--out",
        default=default,
        metavar="DIR",
        help=f"output folder, created with its parents if missing (default {default}){files}",
    )


def _add_cache_dir(parser: argparse.ArgumentParser) -> None:
    """The embedder's options: --cache-dir, --model, --embedding-context and --context-window."""
    parser.add_argument("--cache-dir", metavar="DIR", help="embedding cache folder (default: the Embedder's)")
    parser.add_argument(
        "--model",
        metavar="DIR",
        help="a local sentence-transformers model folder (default: the bundled all-MiniLM-L6-v2); the report names it",
    )
    parser.add_argument(
        "--embedding-context",
        choices=("window", "late", "mix"),
        help="embed each unit with its neighbours (Embedder(context=...); default: each unit alone): "
        "window (their text), late (late chunking) or mix (their embeddings' mean mixed in)",
    )
    parser.add_argument(
        "--context-window", metavar="N", help="neighbours each side for --embedding-context (default 1)"
    )


def _add_run_options(
    parser: argparse.ArgumentParser,
    methods,
    out: str,
    files: str = "",
    seed: str = "random_state of the seeded methods (default 0)",
    cache_dir: bool = True,
) -> None:
    """The options every table benchmark shares: --methods, --out, --seed, --cache-dir, --no-progress."""
    parser.add_argument("--methods", nargs="+", metavar="METHOD", help=f"methods (default: {' '.join(methods)})")
    _add_out(parser, out, files)
    parser.add_argument("--seed", default="0", metavar="N", help=seed)
    if cache_dir:
        _add_cache_dir(parser)
    parser.add_argument("--no-progress", action="store_true", help="no progress bars")


def register(subparsers) -> argparse.ArgumentParser:
    """Add ``bench`` (``choi``, ``interleaved``, ``corpus``, ``export``, ``example``) to argparse sub-parsers."""
    from bpseg_bench.choi import CHOI_RANGES, CHOI_SETS, ENV_VAR
    from bpseg_bench.defaults import CORPUS_METHODS, DATASET_NAMES, DEFAULT_METHODS

    bench = subparsers.add_parser(
        "bench", help="reproduce the paper's benchmarks (Choi table, illustrative example)",
        description="Reproduce the BP-Seg paper's Table 1 (Choi corpus) and Table 2 (illustrative example). "
        "Needs the benchmarks installed (bench/ in the repository, with matplotlib and ruptures): "
        "pip install -e ./bench.",
    )  # fmt: skip
    sub = bench.add_subparsers(title="benchmarks", dest="benchmark", required=True, metavar="BENCHMARK")

    choi = _command(sub, run_choi, "choi")
    choi.add_argument(
        "--ranges", nargs="+", metavar="RANGE", help=f"ranges to run (default all: {' '.join(CHOI_RANGES)})"
    )
    choi.add_argument(
        "--sets",
        nargs="+",
        metavar="SET",
        help=f"Choi sets to run (default all: {' '.join(map(str, CHOI_SETS))}); "
        "parameters were chosen on set 1, so report sets 2-4",
    )
    choi.add_argument("--limit", metavar="N", help="at most N documents per set/range folder")
    choi.add_argument(
        "--data",
        metavar="DIR",
        help=f"Choi data folder (default ${ENV_VAR}, else shared/data/choi found above "
        "the current directory or the package)",
    )
    _add_run_options(choi, DEFAULT_METHODS, DEFAULT_CHOI_OUT)

    inter = _command(sub, run_interleaved, "interleaved")
    inter.add_argument("--docs", default="60", metavar="N", help="number of documents (default 60)")
    inter.add_argument("--data", metavar="DIR", help="Choi data folder (as for `bench choi`)")
    _add_run_options(
        inter,
        INTERLEAVED_METHODS,
        DEFAULT_INTERLEAVED_OUT,
        seed="seed for building documents and methods",
        cache_dir=False,
    )

    corpus = _command(sub, run_corpus, "corpus")
    corpus.add_argument(
        "datasets", nargs="+", metavar="DATASET", help=f"a .jsonl corpus or one of {', '.join(DATASET_NAMES)}"
    )
    corpus.add_argument("--limit", metavar="N", help="at most N documents per dataset")
    _add_run_options(corpus, CORPUS_METHODS, DEFAULT_CORPUS_OUT, files="; files corpus_results.*")

    export = _command(sub, run_export, "export")
    export.add_argument("dataset", metavar="DATASET", help=f"one of {', '.join(DATASET_NAMES)}")
    export.add_argument("-o", "--output", required=True, metavar="FILE", help="the .jsonl file to write")
    export.add_argument("--limit", metavar="N", help="at most N documents")

    example = _command(sub, run_example, "example")
    example.add_argument("--seeds", default="20", metavar="N", help="seeds for the seeded methods (default 20)")
    _add_out(example, DEFAULT_EXAMPLE_OUT)
    _add_cache_dir(example)
    return bench
