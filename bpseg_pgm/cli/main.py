"""The ``bpseg`` command line: ``bpseg segment``, ``bpseg corpus``, ``bpseg prune``, ``bpseg demo`` (and ``bpseg bench`` when installed).

Every expected failure (bad input, bad options, unreadable files, a model that
cannot be loaded) ends as one line ``bpseg: error: ...`` on stderr with exit
code 2 and no traceback; warnings (an embedding cache that had to be rebuilt or
cannot be written) are one line ``bpseg: warning: ...``.

While ``segment``, ``prune``, ``corpus`` and ``demo`` work, what takes time is one
line per phase on stderr, terminal or not (``bpseg: loading the model ...``,
``bpseg: embedding 300 of 312 sentences``, ``bpseg: fitting 312 sentences``), and
on a terminal the tqdm bars move too; ``--quiet`` silences both
(:mod:`bpseg_pgm.cli.progress`).

Input is read in chunks of 1 MiB, at most ``--max-bytes`` (default 50 MiB, about
half a million sentences: far more than anyone embeds in one run), checking each
chunk for binary content as it arrives, so ``bpseg segment /dev/zero`` or an
endless pipe fails in one line instead of filling the memory.

Output files are planned before any work (:func:`bpseg_pgm.io.output.plan_output`:
an unwritable, read-only or special target fails at once, naming the path as
given), then written to a temporary file beside the target and moved into place, so
a failed or interrupted run never leaves a half-written file; symlinks are followed,
permission bits kept, and ``/dev/null``, ``/dev/stdout`` or FIFOs written directly.

``--format`` offers the formats registered in :mod:`bpseg_pgm.formats` (``segmentation`` ones for
``segment``, ``prune`` ones for ``prune``), with the options each declares; the chosen format
renders the result.  A new format is a class in ``bpseg_pgm/formats/``: nothing here changes.

Installed plug-ins (:mod:`bpseg_pgm.plugins`) are loaded when the parser is built, as their names are
among its choices; ``bpseg --version`` is answered before that and loads none.
"""

from __future__ import annotations

import argparse
import contextlib
import importlib  # noqa: F401  (tests replace importlib.import_module through it)
import os
import sys
import warnings
from typing import Callable

from bpseg_pgm.cli.commands import read_input as _read_input  # noqa: F401  (tests call it here)
from bpseg_pgm.cli.parser import _version, build_parser
from bpseg_pgm.cli.parser import byte_size as _byte_size  # noqa: F401  (tests call it here)
from bpseg_pgm.cli.progress import phase_lines
from bpseg_pgm.io.decoding import READ_CHUNK as _READ_CHUNK  # noqa: F401  (tests read it here)
from bpseg_pgm.io.decoding import read_bounded as _read_bounded  # noqa: F401  (tests call it here)

__all__ = ["main", "build_parser"]


def _one_line(exc: BaseException) -> str:
    if isinstance(exc, OSError) and exc.strerror and exc.filename is not None:
        return f"{exc.strerror}: {exc.filename}"
    text = " ".join(str(exc).split())
    return text or type(exc).__name__


def _one_line_warnings(deferred: list[str]):
    """A ``warnings.showwarning`` that keeps stderr to one line per warning.

    bpseg's own warnings (:class:`~bpseg_pgm.embeddings.cache.CacheWarning`) print at once as
    ``bpseg: warning: ...``; others (NumPy overflow, library notices) are kept in ``deferred``, each
    once, and printed the same way when the run ends: after its output if it succeeds, before the
    one ``bpseg: error: ...`` line if it fails, so that the error is the last line.
    """
    from bpseg_pgm.embeddings.cache import CacheWarning

    def showwarning(message, category, filename, lineno, file=None, line=None):
        text = f"bpseg: warning: {' '.join(str(message).split())}"
        if issubclass(category, CacheWarning):
            print(text, file=sys.stderr)
        elif text not in deferred:
            deferred.append(text)

    return showwarning


class _NotVersion(Exception):
    """Raised by :func:`_answer_version`'s parser where the command line is not ``bpseg --version``."""


class _VersionParser(argparse.ArgumentParser):
    def error(self, message: str):
        raise _NotVersion


class _Stop(argparse.Action):
    def __call__(self, parser, namespace, values, option_string=None):
        raise _NotVersion


def _answer_version(argv: list[str] | None) -> None:
    """``bpseg --version``: print the version and exit 0 (SystemExit), as the full parser would, before it is
    built, so that no plug-in is loaded. The top-level options are the full parser's (``-h``, ``--version``,
    abbreviations included) and what follows the command is the command's: anything but ``--version`` reached
    before the command, or ``--help``, returns and leaves the command line to the full parser."""
    parser = _VersionParser(prog="bpseg", add_help=False)
    parser.add_argument("-h", "--help", nargs=0, action=_Stop)
    parser.add_argument("--version", action="version", version=f"bpseg {_version()}")
    parser.add_argument("command", nargs=argparse.REMAINDER)
    with contextlib.suppress(_NotVersion):
        parser.parse_known_args(sys.argv[1:] if argv is None else argv)


def main(argv: list[str] | None = None) -> int:
    """Run the ``bpseg`` command line; returns the exit code."""
    _answer_version(argv)
    args = build_parser().parse_args(argv)
    func: Callable[[argparse.Namespace], int] = args.func
    deferred: list[str] = []
    try:
        with warnings.catch_warnings(), phase_lines(not getattr(args, "quiet", True)):
            warnings.showwarning = _one_line_warnings(deferred)
            code = func(args)
        for text in deferred:
            print(text, file=sys.stderr)
        return code
    except BrokenPipeError:  # e.g. `bpseg demo | head`: stop quietly
        with contextlib.suppress(OSError):
            os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
        return 1
    except (ValueError, OSError, ImportError) as exc:  # ImportError: a missing extra, named with its install line
        for text in deferred:
            print(text, file=sys.stderr)
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
