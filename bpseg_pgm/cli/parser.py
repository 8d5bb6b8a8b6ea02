"""The ``bpseg`` argument parser: its commands, their options and the argument types.

Usage errors are one line (:class:`_Parser`); the BP-Seg options are made from BPSeg's parameter table
(:mod:`bpseg_pgm.cli.options`); ``--format`` offers the registered formats with the options each declares.
Nothing here imports scikit-learn, so ``bpseg --help`` is quick.
"""

from __future__ import annotations

import argparse
import importlib
import math
import re
from typing import NoReturn

from bpseg_pgm.cli.commands import cmd_corpus, cmd_demo, cmd_prune, cmd_segment, flag
from bpseg_pgm.io.decoding import DEFAULT_MAX_BYTES
from bpseg_pgm.io.decoding import format_size as _format_size
from bpseg_pgm.policy import DEFAULT_POLICY
from bpseg_pgm.structure.detect import FORMATS

__all__ = ["build_parser", "byte_size"]


class _Parser(argparse.ArgumentParser):
    """ArgumentParser whose usage errors are one line, like every other ``bpseg`` error."""

    def error(self, message: str) -> NoReturn:
        self.exit(2, f"bpseg: error: {message} (see '{self.prog} --help')\n")


def _engine_options() -> argparse.ArgumentParser:
    """Options of ``segment``, ``corpus`` and ``demo``: the model, the BPSeg parameters (made from BPSeg's parameter
    table: :mod:`bpseg_pgm.cli.options`) and ``--policy FILE``.

    A new parser per sub-command: ``parents=`` shares action objects, so defaults set on one
    sub-command would otherwise leak into the other.
    """
    from bpseg_pgm.cli.options import add_engine_options

    p = _Parser(add_help=False, argument_default=argparse.SUPPRESS)  # absent unless given
    g = p.add_argument_group("BP-Seg options (defaults: those of bpseg_pgm.BPSeg)")
    add_engine_options(g)
    _add_policy(g)
    g.add_argument(
        "--model",
        help="sentence-transformers model name or local directory "
        "(default: the bundled all-MiniLM-L6-v2, works offline)",
    )
    return p


def _add_policy(group) -> None:
    group.add_argument(
        "--policy",
        metavar="FILE",
        help="a TOML or JSON file of Policy fields to change, e.g. run_scale = 2.0 (the tuned numbers of every "
        "decision; the others keep their shipped values)",
    )


def _int_at_least(low: int, what: str):
    """An argparse type: an int >= ``low`` (``what`` names the rule in the error)."""

    def parse(value: str) -> int:
        try:
            n = int(value)
        except ValueError:
            raise argparse.ArgumentTypeError(f"invalid int value: {value!r}") from None
        if n < low:
            raise argparse.ArgumentTypeError(f"must be {what}, got {n}")
        return n

    return parse


_positive_int = _int_at_least(1, "a positive integer")


_non_negative_int = _int_at_least(0, "an integer >= 0")


_SIZE = re.compile(r"(\d+(?:\.\d*)?)\s*([kmg]?)(?:i?b)?", re.IGNORECASE)


_SIZE_UNITS = {"": 1, "k": 2**10, "m": 2**20, "g": 2**30}


def byte_size(value: str) -> int:
    """A size in bytes: a number, optionally with K, M or G (binary: 1M = 2^20 bytes), at least 1."""
    match = _SIZE.fullmatch(value.strip())
    size = int(float(match[1]) * _SIZE_UNITS[match[2].lower()]) if match else 0
    if size < 1:
        raise argparse.ArgumentTypeError(f"expected a size in bytes such as 5000000, 50M or 1G, got {value!r}")
    return size


def _n_segments(value: str) -> int | str:
    return "auto" if value == "auto" else _positive_int(value)


def _positive_number(value: str) -> float:
    """A finite number > 0."""
    try:
        x = float(value)
    except ValueError:
        x = math.nan
    if not (math.isfinite(x) and x > 0):
        raise argparse.ArgumentTypeError(f"expected a number > 0, got {value!r}")
    return x


def _add_backend(p: argparse.ArgumentParser) -> None:
    from bpseg_pgm.embeddings.onnx_backend import BACKENDS

    p.add_argument(
        "--backend",
        choices=BACKENDS,
        default=None,
        help="how the model runs on CPU: torch (sentence-transformers on PyTorch, the default), onnx "
        "(exported once to ONNX, run by onnxruntime) or onnx-int8 (its weights quantized to int8); "
        "embeddings are cached per backend",
    )


def _add_quiet(p: argparse.ArgumentParser, short: bool = True) -> None:
    """``-q``/``--quiet`` (``--quiet`` alone where ``-q`` is taken: ``prune``'s ``--query``)."""
    p.add_argument(
        *(["-q"] if short else []),
        "--quiet",
        action="store_true",
        help="print no progress on standard error: neither the phase lines (loading the model, embedding N of M "
        "sentences, fitting ...), printed whether or not it is a terminal, nor a terminal's progress bars; errors "
        "and warnings still are",
    )


def _option_type(option):
    """The argparse type of a format option: an int at least its ``minimum``, or a str."""
    if option.type is int:
        return (
            _positive_int if option.minimum == 1 else _int_at_least(option.minimum, f"an integer >= {option.minimum}")
        )
    return str


def _add_format_options(p: argparse.ArgumentParser, kind: str) -> None:
    """The options of the formats of ``kind``: one group per format that declares any, and one per set of formats
    that share an option (each option once)."""
    from bpseg_pgm.formats import format_names, get_format

    takers: dict[str, list[str]] = {}
    declared: dict[str, object] = {}
    for name in format_names(kind):
        for option in get_format(name, kind).options:
            takers.setdefault(option.name, []).append(name)
            declared.setdefault(option.name, option)
    groups: dict[tuple[str, ...], object] = {}
    for option_name, names in takers.items():
        key = tuple(names)
        if key not in groups:
            title = " and ".join(get_format(name, kind).options_title for name in names)
            groups[key] = p.add_argument_group(f"{title} (with --format {' or '.join(names)})")
        group, option = groups[key], declared[option_name]
        if option.type is bool:
            group.add_argument(flag(option.name), action="store_true", help=option.help)
        else:
            group.add_argument(flag(option.name), type=_option_type(option), metavar=option.metavar, help=option.help)


def _version() -> str:
    """The package's ``__version__``.

    Read from the root package, which is already loaded (it is this module's parent) and defines
    ``__version__`` as a plain constant: nothing else is imported.  Not ``from bpseg_pgm import``:
    the layout keeps imports through the package root for its lazy top-level names.
    """
    return importlib.import_module("bpseg_pgm").__version__


def build_parser() -> argparse.ArgumentParser:
    """The ``bpseg`` argument parser, with ``bench`` added when ``bpseg_bench.cli`` exists."""
    from bpseg_pgm.formats import format_names

    parser = _Parser(
        prog="bpseg",
        description="Unsupervised, possibly non-contiguous text segmentation by belief propagation (BP-Seg).",
    )
    parser.add_argument("--version", action="version", version=f"bpseg {_version()}")
    sub = parser.add_subparsers(title="commands", dest="command", required=True, metavar="COMMAND")

    seg = sub.add_parser(
        "segment",
        parents=[_engine_options()],
        help="segment a text file",
        description="Split a UTF-8 text into sentences, embed them and group them into "
        "k possibly non-contiguous segments.",
    )
    seg.add_argument(
        "file",
        metavar="FILE",
        help="a text file (UTF-8, or UTF-16/UTF-32 with a byte-order mark), or - for standard input",
    )
    seg.add_argument(
        "-k",
        "--n-segments",
        dest="k",
        type=_n_segments,
        default="auto",
        help="number of segments k (labels: a segment may return, so it can span several runs of consecutive "
        "sentences), or 'auto' (the default) to let BP-Seg choose; ignored with --init all",
    )
    seg.add_argument(
        "--segment-length",
        type=_positive_number,
        metavar="N",
        help="target mean number of sentences per run: the fit stays automatic, then its runs are "
        "re-cut, without refitting, into round(sentences / N) runs (within the levels the fit "
        "kept); not with -k or --topics. A fit that chose the topic model keeps no runs to re-cut: "
        "add --contiguous",
    )
    seg.add_argument(
        "--lines", action="store_true", help="the input has one sentence per line (blank lines are skipped)"
    )
    seg.add_argument(
        "--markdown",
        action=argparse.BooleanOptionalAction,
        default=None,
        help="read the input as Markdown (code blocks, tables and headings one unit each; chunks never "
        "cut a code block, table or list item) or not; default: yes for a .md file, else guessed "
        "(a code fence, a # heading or a table)",
    )
    seg.add_argument(
        "--format-in",
        choices=FORMATS,
        default=None,
        help="the input's format, whose headings and blocks are read: markdown, rst, html, numbered (plain text with "
        "numbered headings) or plain; default: from the file's extension (.md/.markdown, .rst, .html/.htm), else "
        "guessed where the text is unambiguous (--markdown/--no-markdown, when given, decide as before)",
    )
    seg.add_argument(
        "--layout",
        action=argparse.BooleanOptionalAction,
        default=True,
        help="read the text's headings and paragraphs as evidence (default yes): with Markdown headings and no "
        "-k the segments are the top-level sections (with -k, sections split at their sub-headings, then "
        "paragraphs); with several paragraphs (blank lines) segments start only where a paragraph does; "
        "--no-layout ignores both",
    )
    _add_backend(seg)
    seg.add_argument(
        "--format",
        choices=format_names("segmentation"),
        default="text",
        help="output format (default text); chunks-jsonl: one JSON object per line and chunk, with "
        "text, start and end (character offsets into the input), sentences, segment, n_tokens, "
        "confidence",
    )
    _add_format_options(seg, "segmentation")
    seg.add_argument(
        "-o",
        "--output",
        metavar="OUT",
        help="write here instead of standard output (- is standard output; a symlink is followed and the "
        "file's permissions kept; a read-only file is refused; /dev/null, /dev/stdout and FIFOs are written directly)",
    )
    seg.add_argument(
        "--max-bytes",
        type=byte_size,
        default=DEFAULT_MAX_BYTES,
        metavar="SIZE",
        help=f"read at most this much input, e.g. 5000000, 200M or 1G (default {_format_size(DEFAULT_MAX_BYTES)})",
    )
    _add_quiet(seg)
    seg.set_defaults(func=cmd_segment)

    corpus = sub.add_parser(
        "corpus",
        parents=[_engine_options()],
        help="segment many documents into a Parquet dataset",
        description="Segment every document of a folder of .txt/.md files, a JSONL file "
        '({"id", "text"} or {"id", "units"} per line) or a Parquet file '
        "(columns id and text or units) on a Dask cluster, into a folder of Parquet "
        "parts with one row per sentence (doc, sentence, start, end, text, label, "
        "confidence, error). Documents already in OUT are skipped, so a rerun "
        "resumes; a document that cannot be segmented is an error row.",
    )
    corpus.add_argument("input", metavar="IN", help="a folder of .txt/.md files, a .jsonl or a .parquet file")
    corpus.add_argument(
        "-o",
        "--output",
        metavar="OUT",
        required=True,
        help="output folder of Parquet parts (e.g. out.parquet); created, or resumed if it holds "
        "the output of an earlier run with the same options",
    )
    corpus.add_argument(
        "-k",
        "--n-segments",
        dest="k",
        type=_n_segments,
        default="auto",
        help="number of segments k of every document, or 'auto' (the default)",
    )
    corpus.add_argument(
        "--lines", action="store_true", help="text documents have one sentence per line (units documents always do)"
    )
    _add_backend(corpus)
    where = corpus.add_mutually_exclusive_group()
    where.add_argument(
        "--workers",
        type=_non_negative_int,
        metavar="N",
        help="worker processes of the local Dask cluster (default: one per core, at most 8; "
        "capped at one per task and two per core; 0: run in this process without Dask)",
    )
    where.add_argument(
        "--scheduler",
        metavar="ADDRESS",
        help="run on the Dask cluster already running at ADDRESS (e.g. tcp://10.0.0.5:8786) instead "
        "of a local one; its workers need bpseg_pgm installed",
    )
    corpus.add_argument(
        "--task-chars",
        type=_positive_int,
        metavar="N",
        default=None,
        help="characters of documents per Dask task (default 100000, about 1000 sentences)",
    )
    corpus.add_argument(
        "--max-bytes",
        type=byte_size,
        default=DEFAULT_MAX_BYTES,
        metavar="SIZE",
        help=f"largest file of a folder read; larger ones are error rows (default {_format_size(DEFAULT_MAX_BYTES)})",
    )
    _add_quiet(corpus)
    corpus.set_defaults(func=cmd_corpus)

    prune = sub.add_parser(
        "prune",
        help="keep the parts of a text most relevant to a query",
        description="Keep the contiguous BP-Seg segments of a UTF-8 text most relevant to a "
        "query (whole, or their best parts when they do not fit) until the budget "
        "is filled; print them in reading order.",
    )
    prune.add_argument(
        "file",
        metavar="FILE",
        help="a text file (UTF-8, or UTF-16/UTF-32 with a byte-order mark), or - for standard input",
    )
    prune.add_argument("--query", "-q", required=True, help="the question the kept text should answer")
    size = prune.add_mutually_exclusive_group()
    size.add_argument(
        "--budget",
        type=float,
        metavar="F",
        help=f"keep at most this fraction of the words, in (0, 1] (default {DEFAULT_POLICY.prune_budget:g})",
    )
    size.add_argument(
        "--max-tokens",
        type=_positive_int,
        metavar="N",
        help="keep at most N tokens of the embedding model's tokenizer instead",
    )
    prune.add_argument("--lines", action="store_true", help="the input has one unit per line (e.g. meeting turns)")
    _add_policy(prune)
    prune.add_argument(
        "--format",
        choices=format_names("prune"),
        default="text",
        help="text: the kept text, runs of consecutive sentences as written, separated by a blank "
        "line (default); json: kept indices (0-based), spans, scores and segments",
    )
    _add_format_options(prune, "prune")
    prune.add_argument(
        "--model",
        help="sentence-transformers model name or local directory "
        "(default: the bundled all-MiniLM-L6-v2, works offline)",
    )
    prune.add_argument(
        "-o", "--output", metavar="OUT", help="write here instead of standard output (- is standard output)"
    )
    prune.add_argument(
        "--max-bytes",
        type=byte_size,
        default=DEFAULT_MAX_BYTES,
        metavar="SIZE",
        help=f"read at most this much input (default {_format_size(DEFAULT_MAX_BYTES)})",
    )
    _add_quiet(prune, short=False)
    prune.set_defaults(func=cmd_prune)

    demo = sub.add_parser(
        "demo",
        parents=[_engine_options()],
        help="run the paper's illustrative example",
        description="Segment the paper's 13-sentence illustrative example for k = 2..7 "
        "and check whether the three tennis sentences share a segment. Like "
        "the paper it uses --potentials paper, with --init farthest, unless "
        "you give other values.",
    )
    demo.add_argument("-k", "--n-segments", dest="k", type=_positive_int, default=3, help="k shown in full (default 3)")
    demo.add_argument(
        "-o", "--output", metavar="OUT", help="write the report here instead of standard output (as segment's -o)"
    )
    _add_quiet(demo)
    demo.set_defaults(func=cmd_demo)  # run_demo defaults to the paper's potentials and init="farthest"

    bench = _optional_bench()
    if bench is not None:
        bench.register(sub)
    return parser


def _optional_bench():
    """``bpseg_bench.cli`` if the benchmarks (the repository's ``bench/``) are installed; errors inside it are not hidden."""
    try:
        return importlib.import_module("bpseg_bench.cli")
    except ModuleNotFoundError as exc:
        if exc.name in ("bpseg_bench", "bpseg_bench.cli"):
            return None
        raise
