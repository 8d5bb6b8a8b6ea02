"""The ``bpseg`` command line: ``bpseg segment``, ``bpseg corpus``, ``bpseg prune``, ``bpseg demo`` (and ``bpseg bench`` when installed).

Every expected failure (bad input, bad options, unreadable files, a model that
cannot be loaded) ends as one line ``bpseg: error: ...`` on stderr with exit
code 2 and no traceback; warnings (an embedding cache that had to be rebuilt or
cannot be written) are one line ``bpseg: warning: ...``.

Input is read in chunks of 1 MiB, at most ``--max-bytes`` (default 50 MiB, about
half a million sentences: far more than anyone embeds in one run), checking each
chunk for binary content as it arrives, so ``bpseg segment /dev/zero`` or an
endless pipe fails in one line instead of filling the memory.

Output files are planned before any work (:func:`bpseg_pgm.io.output.plan_output`:
an unwritable, read-only or special target fails at once, naming the path as
given), then written to a temporary file beside the target and moved into place, so
a failed or interrupted run never leaves a half-written file; symlinks are followed,
permission bits kept, and ``/dev/null``, ``/dev/stdout`` or FIFOs written directly.
"""

from __future__ import annotations

import argparse
import contextlib
import importlib
import math
import os
import re
import stat
import sys
import warnings
from pathlib import Path
from typing import Callable, NoReturn

__all__ = ["main", "build_parser"]

_OUTPUT_FORMATS = ("text", "json", "html", "chunks-jsonl")

#: Largest input ``bpseg segment`` reads unless ``--max-bytes`` says otherwise.
DEFAULT_MAX_BYTES = 50 * 2**20
_READ_CHUNK = 2**20


class _Parser(argparse.ArgumentParser):
    """ArgumentParser whose usage errors are one line, like every other ``bpseg`` error."""

    def error(self, message: str) -> NoReturn:
        self.exit(2, f"bpseg: error: {message} (see '{self.prog} --help')\n")


def _engine_options() -> argparse.ArgumentParser:
    """Options of ``segment`` and ``demo``: the model and the BPSeg parameters.

    A new parser per sub-command: ``parents=`` shares action objects, so defaults set on one
    sub-command would otherwise leak into the other.
    """
    from bpseg_pgm import BPSeg
    from bpseg_pgm.estimator import POTENTIALS
    from bpseg_pgm.inference.engines import engine_names
    from bpseg_pgm.representatives import INITS

    default = BPSeg().get_params()
    p = _Parser(add_help=False, argument_default=argparse.SUPPRESS)  # absent unless given
    g = p.add_argument_group("BP-Seg options (defaults: those of bpseg_pgm.BPSeg)")
    g.add_argument("--potentials", choices=sorted(POTENTIALS),
                   help=f"pairwise model: 'paper' is the paper's eq. 1-2 (default {default['potentials']})")
    g.add_argument("--lam", type=float, help="strength of the pairwise term (default: the model's own)")
    g.add_argument("--sigma", type=_sigma, metavar="S",
                   help="distance decay exp(-|i-j|^2/S) of the pairwise term: a number, 'none' or 'auto' "
                        "(default: the model's own)")
    g.add_argument("--engine", choices=engine_names(),
                   help=f"inference engine, any registered name (default {default['engine']})")
    g.add_argument("--init", choices=INITS, help=f"how the k representatives are chosen (default {default['init']})")
    g.add_argument("--em-rounds", type=int, metavar="N",
                   help="rounds of representative re-estimation (default: the model's own)")
    g.add_argument("--context", type=_context, metavar="C",
                   help="weight of each reading-order neighbour's embedding mixed into a sentence's: a number "
                        ">= 0 (0: each sentence alone, as in the paper) or 'auto' (default: the model's own)")
    g.add_argument("--merge-above", type=_merge_above, metavar="COS",
                   help="merge labels whose representatives have at least this cosine during re-estimation: "
                        "a number in [-1, 1] or 'none' (default 0.9)")
    structure = g.add_mutually_exclusive_group()
    structure.add_argument("--contiguous", action="store_const", const=True, default=None,
                           help="every segment one run of consecutive sentences (exact segmental programme and "
                                "chain marginals); for boundaries, e.g. retrieval chunks. Default: decided per "
                                "document (runs where topics shift gradually, as in meetings and lectures)")
    structure.add_argument("--topics", action="store_const", const=False, dest="contiguous",
                           help="always the topic model, whose segments may return (never runs)")
    g.add_argument("--seed", type=int, dest="random_state", metavar="N", help="random seed for --init random")
    g.add_argument("--max-iter", type=int, metavar="N", help="maximum BP sweeps")
    g.add_argument("--tol", type=float, help="convergence tolerance on messages")
    g.add_argument("--damping", type=float, help="message damping in [0, 1)")
    g.add_argument("--model", help="sentence-transformers model name or local directory "
                                   "(default: the bundled all-MiniLM-L6-v2, works offline)")
    return p


_PARAM_NAMES = ("potentials", "lam", "sigma", "engine", "init", "em_rounds", "context", "merge_above", "random_state",
                "max_iter", "tol", "damping", "contiguous")


def _bpseg_params(args: argparse.Namespace) -> dict:
    """The BPSeg parameters given on the command line (``--sigma none`` gives None)."""
    params = {n: getattr(args, n) for n in _PARAM_NAMES if hasattr(args, n)}
    if params.get("contiguous") is None:
        params.pop("contiguous", None)  # left to BPSeg's default
    return params


def _binary(source: str) -> ValueError:
    return ValueError(f"{source} looks like a binary file (it contains NUL bytes); expected UTF-8 text")


def _decode(data: bytes, source: str) -> str:
    """UTF-8 text from ``data``, or a ValueError naming what is wrong with it."""
    if b"\x00" in data:
        raise _binary(source)
    try:
        return data.decode("utf-8-sig")
    except UnicodeDecodeError as exc:
        raise ValueError(
            f"{source} is not valid UTF-8 (byte 0x{data[exc.start]:02x} at offset {exc.start})"
        ) from None


def _too_large(source: str, max_bytes: int) -> ValueError:
    size = _format_size(max_bytes)
    return ValueError(f"{source} is larger than --max-bytes ({size}); pass a larger --max-bytes to read it")


def _read_bounded(stream, source: str, max_bytes: int) -> str:
    """Read ``stream`` (binary) in chunks, failing at the first NUL byte, invalid UTF-8, or byte past ``max_bytes``."""
    import codecs

    decoder = codecs.getincrementaldecoder("utf-8-sig")()
    parts: list[bytes] = []
    total = 0
    while True:
        chunk = stream.read(min(_READ_CHUNK, max_bytes + 1 - total))
        if not chunk:
            break
        if b"\x00" in chunk:
            raise _binary(source)
        parts.append(chunk)
        total += len(chunk)
        if total > max_bytes:
            raise _too_large(source, max_bytes)
        try:
            decoder.decode(chunk)
        except UnicodeDecodeError:
            _decode(b"".join(parts), source)  # raises, with the offset in the whole input
            raise  # pragma: no cover - _decode always raises here
    data = b"".join(parts)
    try:
        decoder.decode(b"", final=True)
    except UnicodeDecodeError:
        pass  # a truncated character at the very end: _decode names it
    return _decode(data, source)


def _read_input(name: str, max_bytes: int = DEFAULT_MAX_BYTES) -> str:
    if name == "-":
        if sys.stdin is None:  # started with standard input closed (`bpseg segment - <&-`)
            raise ValueError("standard input is closed; give a FILE or pipe the text in")
        stream = getattr(sys.stdin, "buffer", None)
        if stream is None:
            raise ValueError("standard input cannot be read as bytes")
        return _read_bounded(stream, "standard input", max_bytes)
    path = Path(name)
    if path.is_dir():
        raise ValueError(f"{name} is a directory, not a text file")
    with open(path, "rb") as f:
        st = os.fstat(f.fileno())
        if stat.S_ISREG(st.st_mode) and st.st_size > max_bytes:  # a regular file says its size: no need to read
            raise _too_large(name, max_bytes)
        return _read_bounded(f, name, max_bytes)


def _check_output(out: str | None) -> None:
    """Fail before any work if ``out`` cannot be written (or, without ``-o``, if stdout is closed)."""
    if out is None:
        if sys.stdout is None:
            raise ValueError("standard output is closed; use -o FILE")
        return
    from bpseg_pgm.io.output import plan_output

    plan_output(out)


def _emit(content: str, out: str | None) -> None:
    if out is None:
        if sys.stdout is None:
            raise ValueError("standard output is closed; use -o FILE")
        sys.stdout.write(content)
        sys.stdout.flush()
    else:
        from bpseg_pgm.io.output import write_output

        write_output(out, content)


def _check_chunk_options(args: argparse.Namespace) -> None:
    """The chunk options make sense together and with --format, or a ValueError before any work."""
    given = [name for name, value in (("--max-tokens", args.max_tokens), ("--min-tokens", args.min_tokens),
                                      ("--whole-segments", args.whole_segments)) if value not in (None, False)]
    if given and args.format != "chunks-jsonl":
        raise ValueError(f"{' and '.join(given)} only appl{'y' if len(given) > 1 else 'ies'} to --format chunks-jsonl")
    if args.format == "chunks-jsonl":
        from bpseg_pgm.chunks.chunking import _check_options

        try:
            _check_options(args.max_tokens, not args.whole_segments, args.min_tokens)
        except ValueError as exc:
            if args.whole_segments and args.min_tokens is not None:
                raise ValueError("--min-tokens merges neighbouring chunks, which --whole-segments does not make") from None
            raise ValueError(str(exc).replace("min_tokens", "--min-tokens").replace("max_tokens", "--max-tokens")) from None


def _chunks_jsonl(seg, args: argparse.Namespace) -> str:
    """One JSON object per chunk and line: 0-based chunk, sentence and segment numbers, character offsets."""
    import json

    chunks = seg.chunks(args.max_tokens, not args.whole_segments, min_tokens=args.min_tokens)
    return "".join(json.dumps({"chunk": i, **c.to_dict()}, ensure_ascii=False, allow_nan=False) + "\n"
                   for i, c in enumerate(chunks))


def _cmd_segment(args: argparse.Namespace) -> int:
    from bpseg_pgm.text.pipeline import segment_text

    _check_chunk_options(args)
    _check_output(args.output)
    text = _read_input(args.file, args.max_bytes)
    model = getattr(args, "model", None)
    if args.backend is not None:
        from bpseg_pgm.text.embeddings import Embedder

        embedder = Embedder(model, backend=args.backend)
        seg = segment_text(text, args.k, embedder=embedder, lines=args.lines, **_bpseg_params(args))
    else:
        seg = segment_text(text, args.k, model=model, lines=args.lines, **_bpseg_params(args))
    if args.format == "chunks-jsonl":
        content = _chunks_jsonl(seg, args)
    elif args.format == "json":
        content = seg.to_json() + "\n"
    elif args.format == "html":
        from bpseg_pgm.cli.render_html import render_html

        title = "BP-Seg: " + ("standard input" if args.file == "-" else Path(args.file).name)
        content = render_html(seg, title=title)
    else:
        content = seg.to_text()
    _emit(content, args.output)
    return 0


def _cmd_prune(args: argparse.Namespace) -> int:
    from bpseg_pgm.pruning import prune

    _check_output(args.output)
    text = _read_input(args.file, args.max_bytes)
    result = prune(text, args.query, budget=args.budget, max_tokens=args.max_tokens, lines=args.lines,
                   model=getattr(args, "model", None))
    content = result.to_json() + "\n" if args.format == "json" else result.text + ("\n" if result.text else "")
    _emit(content, args.output)
    return 0


def _cmd_corpus(args: argparse.Namespace) -> int:
    from bpseg_pgm.corpus import segment_corpus

    extra = {} if args.task_chars is None else {"task_chars": args.task_chars}
    if args.backend is not None:
        extra["backend"] = args.backend
    report = segment_corpus(args.input, args.output, args.k, workers=args.workers, scheduler=args.scheduler,
                            model=getattr(args, "model", None), lines=args.lines, max_bytes=args.max_bytes,
                            **extra, **_bpseg_params(args))
    print(f"bpseg corpus: {report.summary()}")
    return 0


def _cmd_demo(args: argparse.Namespace) -> int:
    from bpseg_pgm.cli.demo import run_demo

    _check_output(None)
    _emit(run_demo(args.k, model=getattr(args, "model", None), **_bpseg_params(args)), None)
    return 0


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


def _byte_size(value: str) -> int:
    """A size in bytes: a number, optionally with K, M or G (binary: 1M = 2^20 bytes), at least 1."""
    match = _SIZE.fullmatch(value.strip())
    size = int(float(match[1]) * _SIZE_UNITS[match[2].lower()]) if match else 0
    if size < 1:
        raise argparse.ArgumentTypeError(f"expected a size in bytes such as 5000000, 50M or 1G, got {value!r}")
    return size


def _format_size(n: int) -> str:
    for unit, factor in (("G", 2**30), ("M", 2**20), ("K", 2**10)):
        if n >= factor and n % factor == 0:
            return f"{n // factor}{unit}"
    return f"{n} bytes"


def _n_segments(value: str) -> int | str:
    return "auto" if value == "auto" else _positive_int(value)


def _number_or(expected: str, lo: float = -math.inf, hi: float = math.inf, **words):
    """An argparse type: a finite number in [lo, hi], or one of the given words (mapped to its value)."""

    def parse(value: str):
        if value in words:
            return words[value]
        try:
            x = float(value)
        except ValueError:
            x = math.nan
        if not (math.isfinite(x) and lo <= x <= hi):
            raise argparse.ArgumentTypeError(f"expected {expected}, got {value!r}")
        return x

    return parse


_sigma = _number_or("a number, 'none' or 'auto'", none=None, auto="auto")
_context = _number_or("a number >= 0 or 'auto'", lo=0.0, auto="auto")
_merge_above = _number_or("a number in [-1, 1] or 'none'", lo=-1.0, hi=1.0, none=None)


def _add_backend(p: argparse.ArgumentParser) -> None:
    from bpseg_pgm.text.onnx_backend import BACKENDS

    p.add_argument("--backend", choices=BACKENDS, default=None,
                   help="how the model runs on CPU: torch (sentence-transformers on PyTorch, the default), onnx "
                        "(exported once to ONNX, run by onnxruntime) or onnx-int8 (its weights quantized to int8); "
                        "embeddings are cached per backend")


def build_parser() -> argparse.ArgumentParser:
    """The ``bpseg`` argument parser, with ``bench`` added when ``bpseg_pgm.cli.bench`` exists."""
    parser = _Parser(prog="bpseg", description="Unsupervised, possibly non-contiguous text segmentation "
                                               "by belief propagation (BP-Seg).")
    sub = parser.add_subparsers(title="commands", dest="command", required=True, metavar="COMMAND")

    seg = sub.add_parser("segment", parents=[_engine_options()], help="segment a text file",
                         description="Split a UTF-8 text into sentences, embed them and group them into "
                                     "k possibly non-contiguous segments.")
    seg.add_argument("file", metavar="FILE", help="UTF-8 text file, or - for standard input")
    seg.add_argument("-k", "--n-segments", dest="k", type=_n_segments, default="auto",
                     help="number of segments k, or 'auto' (the default) to let BP-Seg choose; "
                          "ignored with --init all")
    seg.add_argument("--lines", action="store_true",
                     help="the input has one sentence per line (blank lines are skipped)")
    _add_backend(seg)
    seg.add_argument("--format", choices=_OUTPUT_FORMATS, default="text",
                     help="output format (default text); chunks-jsonl: one JSON object per line and chunk, with "
                          "text, start and end (character offsets into the input), sentences, segment, n_tokens, "
                          "confidence")
    chunks = seg.add_argument_group("chunks (with --format chunks-jsonl)")
    chunks.add_argument("--max-tokens", type=_positive_int, metavar="N",
                        help="cut chunks longer than N tokens of the embedding model (special tokens included) at "
                             "their weakest link; a single sentence longer than N stays whole")
    chunks.add_argument("--min-tokens", type=_positive_int, metavar="N",
                        help="merge a chunk shorter than N tokens into its most similar neighbour, if the result "
                             "fits --max-tokens")
    chunks.add_argument("--whole-segments", action="store_true",
                        help="one chunk per segment (its runs joined by blank lines) instead of one per run of "
                             "consecutive sentences")
    seg.add_argument("-o", "--output", metavar="OUT",
                     help="write here instead of standard output (a symlink is followed and the file's permissions "
                          "kept; a read-only file is refused; /dev/null, /dev/stdout and FIFOs are written directly)")
    seg.add_argument("--max-bytes", type=_byte_size, default=DEFAULT_MAX_BYTES, metavar="SIZE",
                     help=f"read at most this much input, e.g. 5000000, 200M or 1G "
                          f"(default {_format_size(DEFAULT_MAX_BYTES)})")
    seg.set_defaults(func=_cmd_segment)

    corpus = sub.add_parser("corpus", parents=[_engine_options()], help="segment many documents into a Parquet dataset",
                            description="Segment every document of a folder of .txt/.md files, a JSONL file "
                                        "({\"id\", \"text\"} or {\"id\", \"units\"} per line) or a Parquet file "
                                        "(columns id and text or units) on a Dask cluster, into a folder of Parquet "
                                        "parts with one row per sentence (doc, sentence, start, end, text, label, "
                                        "confidence, error). Documents already in OUT are skipped, so a rerun "
                                        "resumes; a document that cannot be segmented is an error row.")
    corpus.add_argument("input", metavar="IN", help="a folder of .txt/.md files, a .jsonl or a .parquet file")
    corpus.add_argument("-o", "--output", metavar="OUT", required=True,
                        help="output folder of Parquet parts (e.g. out.parquet); created, or resumed if it holds "
                             "the output of an earlier run with the same options")
    corpus.add_argument("-k", "--n-segments", dest="k", type=_n_segments, default="auto",
                        help="number of segments k of every document, or 'auto' (the default)")
    corpus.add_argument("--lines", action="store_true",
                        help="text documents have one sentence per line (units documents always do)")
    _add_backend(corpus)
    where = corpus.add_mutually_exclusive_group()
    where.add_argument("--workers", type=_non_negative_int, metavar="N",
                       help="worker processes of the local Dask cluster (default: one per core, at most 8; "
                            "0: run in this process without Dask)")
    where.add_argument("--scheduler", metavar="ADDRESS",
                       help="run on the Dask cluster already running at ADDRESS (e.g. tcp://10.0.0.5:8786) instead "
                            "of a local one; its workers need bpseg_pgm installed")
    corpus.add_argument("--task-chars", type=_positive_int, metavar="N", default=None,
                        help="characters of documents per Dask task (default 100000, about 1000 sentences)")
    corpus.add_argument("--max-bytes", type=_byte_size, default=DEFAULT_MAX_BYTES, metavar="SIZE",
                        help=f"largest file of a folder read; larger ones are error rows "
                             f"(default {_format_size(DEFAULT_MAX_BYTES)})")
    corpus.set_defaults(func=_cmd_corpus)

    prune = sub.add_parser("prune", help="keep the parts of a text most relevant to a query",
                           description="Keep the contiguous BP-Seg segments of a UTF-8 text most relevant to a "
                                       "query (whole, or their best parts when they do not fit) until the budget "
                                       "is filled; print them in reading order.")
    prune.add_argument("file", metavar="FILE", help="UTF-8 text file, or - for standard input")
    prune.add_argument("--query", "-q", required=True, help="the question the kept text should answer")
    size = prune.add_mutually_exclusive_group()
    size.add_argument("--budget", type=float, metavar="F",
                      help="keep at most this fraction of the words, in (0, 1] (default 0.2)")
    size.add_argument("--max-tokens", type=_positive_int, metavar="N",
                      help="keep at most N tokens of the embedding model's tokenizer instead")
    prune.add_argument("--lines", action="store_true", help="the input has one unit per line (e.g. meeting turns)")
    prune.add_argument("--format", choices=("text", "json"), default="text",
                       help="text: the kept text, runs of consecutive sentences as written, separated by a blank "
                            "line (default); json: kept indices (0-based), spans, scores and segments")
    prune.add_argument("--model", help="sentence-transformers model name or local directory "
                                       "(default: the bundled all-MiniLM-L6-v2, works offline)")
    prune.add_argument("-o", "--output", metavar="OUT", help="write here instead of standard output")
    prune.add_argument("--max-bytes", type=_byte_size, default=DEFAULT_MAX_BYTES, metavar="SIZE",
                       help=f"read at most this much input (default {_format_size(DEFAULT_MAX_BYTES)})")
    prune.set_defaults(func=_cmd_prune)

    demo = sub.add_parser("demo", parents=[_engine_options()], help="run the paper's illustrative example",
                          description="Segment the paper's 13-sentence illustrative example for k = 2..7 "
                                      "and check whether the three tennis sentences share a segment. Like "
                                      "the paper it uses --potentials paper, with --init farthest, unless "
                                      "you give other values.")
    demo.add_argument("-k", "--n-segments", dest="k", type=_positive_int, default=3,
                      help="k shown in full (default 3)")
    demo.set_defaults(func=_cmd_demo)  # run_demo defaults to the paper's potentials and init="farthest"

    bench = _optional_bench()
    if bench is not None:
        bench.register(sub)
    return parser


def _optional_bench():
    """``bpseg_pgm.cli.bench`` if it is installed; errors inside it are not hidden."""
    try:
        return importlib.import_module("bpseg_pgm.cli.bench")
    except ModuleNotFoundError as exc:
        if exc.name == "bpseg_pgm.cli.bench":
            return None
        raise


def _one_line(exc: BaseException) -> str:
    if isinstance(exc, OSError) and exc.strerror and exc.filename is not None:
        return f"{exc.strerror}: {exc.filename}"
    text = " ".join(str(exc).split())
    return text or type(exc).__name__


def _one_line_warnings(deferred: list[str]):
    """A ``warnings.showwarning`` that keeps stderr to one line per warning.

    bpseg's own warnings (:class:`~bpseg_pgm.text.cache.CacheWarning`) print at once as
    ``bpseg: warning: ...``; others (NumPy overflow, library notices) are kept in ``deferred``
    and printed the same way only if the run succeeds: when it fails they are symptoms of the
    error, which is reported alone, in one line.
    """
    from bpseg_pgm.text.cache import CacheWarning

    def showwarning(message, category, filename, lineno, file=None, line=None):
        text = f"bpseg: warning: {' '.join(str(message).split())}"
        if issubclass(category, CacheWarning):
            print(text, file=sys.stderr)
        elif text not in deferred:
            deferred.append(text)

    return showwarning


def main(argv: list[str] | None = None) -> int:
    """Run the ``bpseg`` command line; returns the exit code."""
    args = build_parser().parse_args(argv)
    func: Callable[[argparse.Namespace], int] = args.func
    deferred: list[str] = []
    try:
        with warnings.catch_warnings():
            warnings.showwarning = _one_line_warnings(deferred)
            code = func(args)
        for text in deferred:
            print(text, file=sys.stderr)
        return code
    except BrokenPipeError:  # e.g. `bpseg demo | head`: stop quietly
        with contextlib.suppress(OSError):
            os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
        return 1
    except (ValueError, OSError) as exc:
        print(f"bpseg: error: {_one_line(exc)}", file=sys.stderr)
        return 2
    except MemoryError:  # a last resort: the memory checks should refuse before this happens
        print("bpseg: error: out of memory; try a shorter input or a sparser graph", file=sys.stderr)
        return 2
    except KeyboardInterrupt:
        print("bpseg: error: interrupted", file=sys.stderr)
        return 130


if __name__ == "__main__":
    sys.exit(main())
