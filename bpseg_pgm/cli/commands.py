"""What each ``bpseg`` command does once its options are parsed: ``segment``, ``prune``, ``corpus``, ``demo``.

Every check that needs no work runs first (the output format and its options, the output path, the Policy
file), then the input is read (in chunks, at most ``--max-bytes``: :mod:`bpseg_pgm.io.decoding`) and the
library called; a failure is a ValueError or OSError that :func:`bpseg_pgm.cli.main.main` prints as one line.
"""

from __future__ import annotations

import argparse
import os
import re
import stat
import sys
from pathlib import Path

from bpseg_pgm.io.decoding import DEFAULT_MAX_BYTES
from bpseg_pgm.io.decoding import read_bounded as _read_bounded
from bpseg_pgm.io.decoding import too_large as _too_large

__all__ = ["cmd_corpus", "cmd_demo", "cmd_prune", "cmd_segment", "flag", "quiet_resource_tracker", "read_input"]


def _markdown(args: argparse.Namespace) -> bool | None:
    """--markdown / --no-markdown, else True for a .md or .markdown file, else None (guessed from the text)."""
    if args.markdown is not None:
        return args.markdown
    name = str(args.file or "").lower()
    return True if name.endswith((".md", ".markdown")) else None


def _format_in(args: argparse.Namespace) -> str | None:
    """--format-in, else (unless --markdown/--no-markdown decide) the format of the file's extension, else None
    (guessed from the text)."""
    if args.format_in is not None:
        return args.format_in
    if args.markdown is not None:
        return None
    from bpseg_pgm.structure.detect import format_for_path

    return format_for_path(args.file or "")


def _bpseg_params(args: argparse.Namespace) -> dict:
    """The BPSeg parameters given on the command line (``--sigma none`` gives None; ``--policy FILE`` the
    shipped Policy with the file's changes)."""
    from bpseg_pgm.cli.options import CLI_PARAMETERS

    params = {n: getattr(args, n) for n in CLI_PARAMETERS if hasattr(args, n)}
    if params.get("structure") is None:
        params.pop("structure", None)  # left to BPSeg's default
    policy = _policy(args)
    if policy is not None:
        params["policy"] = policy
    return params


def _policy(args: argparse.Namespace):
    """The Policy of ``--policy FILE``, or None when it is not given (a ValueError naming the file otherwise)."""
    path = getattr(args, "policy", None)
    if path is None:
        return None
    from bpseg_pgm.policy import read_policy

    return read_policy(path)


def read_input(name: str, max_bytes: int = DEFAULT_MAX_BYTES) -> str:
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


def _check_output(out: str | None, source: str | None = None) -> None:
    """Fail before any work if ``out`` cannot be written (or, without ``-o``, if stdout is closed), or if it is
    the input ``source`` (the same file through any link: writing it would replace the user's input).
    ``-o -`` is standard output, as input ``-`` is standard input."""
    if out is None or out == "-":
        if sys.stdout is None:
            raise ValueError("standard output is closed; use -o FILE")
        return
    from bpseg_pgm.io.output import check_not_input, plan_output

    check_not_input(out, [source])
    plan_output(out)


def _emit(content: str, out: str | None) -> None:
    if out is None or out == "-":
        if sys.stdout is None:
            raise ValueError("standard output is closed; use -o FILE")
        sys.stdout.write(content)
        sys.stdout.flush()
    else:
        from bpseg_pgm.io.output import write_output

        write_output(out, content)


def flag(option_name: str) -> str:
    """The command-line flag of a format option: ``max_tokens`` -> ``--max-tokens``."""
    return "--" + option_name.replace("_", "-")


def _chosen_format(args: argparse.Namespace, kind: str):
    """The ``--format`` chosen for ``kind`` and its options, or a ValueError (naming flags) before any work.

    An option given with a format that does not take it is refused, naming the formats that do.
    """
    from bpseg_pgm.formats import format_names, get_format

    chosen = get_format(args.format, kind)
    own = {option.name for option in chosen.options}
    takers: dict[str, list[str]] = {}
    for name in format_names(kind):
        for option in get_format(name, kind).options:
            if option.name not in own and getattr(args, option.name) != option.default:
                takers.setdefault(option.name, []).append(name)
    if takers:
        given = " and ".join(flag(name) for name in takers)
        formats = " or ".join(dict.fromkeys(name for names in takers.values() for name in names))
        raise ValueError(f"{given} only appl{'y' if len(takers) > 1 else 'ies'} to --format {formats}")
    options = {option.name: getattr(args, option.name) for option in chosen.options}
    try:
        chosen.check_options(**options)
    except ValueError as exc:
        names = "|".join(re.escape(name) for name in options)
        raise ValueError(re.sub(rf"\b({names})\b", lambda m: flag(m[1]), str(exc)) if names else str(exc)) from None
    return chosen, options


def _show_progress(args: argparse.Namespace) -> bool | None:
    """The embedder's ``show_progress``: False with ``--quiet``, else None (tqdm bars when stderr is a terminal; the
    phase lines are :func:`bpseg_pgm.cli.progress.phase_lines`'s, printed by ``main``)."""
    return False if getattr(args, "quiet", False) else None


def _source_name(file: str) -> str:
    """The input as people call it: its file name, or "standard input" for ``-``."""
    return "standard input" if file == "-" else Path(file).name


def cmd_segment(args: argparse.Namespace) -> int:
    output_format, options = _chosen_format(args, "segmentation")
    _check_group_runs(args)
    _check_segment_length(args)
    _check_output(args.output, args.file)
    text = read_input(args.file, args.max_bytes)
    model = getattr(args, "model", None)
    from bpseg_pgm.embeddings import Embedder  # light: the model loads on first encode

    # the model folder is checked here, and the count against the sentences below, before the estimator (and
    # scikit-learn, SciPy, numba) is imported and long before the model loads
    embedder = Embedder(model, backend=args.backend, show_progress=_show_progress(args))  # backend None: the default
    if not isinstance(args.k, str):
        _check_count(text, args)
    from bpseg_pgm.text.pipeline import segment_text

    seg = segment_text(
        text,
        args.k,
        lines=args.lines,
        markdown=_markdown(args),
        format=_format_in(args),
        layout=args.layout,
        embedder=embedder,
        **_bpseg_params(args),
    )
    if args.segment_length is not None:
        if seg.max_segments is None:  # the fit kept no runs (e.g. --potentials paper chose the topic model)
            raise ValueError(
                "--segment-length re-cuts the runs model, and this fit kept none "
                f"(it chose the {seg.structure} model); add --contiguous to fit runs"
            )
        seg = seg.recut(segment_length=args.segment_length)
    _emit(output_format.render(seg, source=_source_name(args.file), **options), args.output)
    return 0


def _check_count(text: str, args: argparse.Namespace) -> None:
    """``-k`` against the sentences (or lines) the text splits into, as ``segment_text`` will split it."""
    from bpseg_pgm.text.checks import split_for_segmentation
    from bpseg_pgm.text.pipeline import read_format
    from bpseg_pgm.utils.validation import check_n_segments

    fmt = read_format(text, args.lines, _markdown(args), _format_in(args))
    sentences, _ = split_for_segmentation(text, args.lines, fmt == "markdown", fmt)
    check_n_segments(args.k, len(sentences))


def _check_segment_length(args: argparse.Namespace) -> None:
    """``--segment-length`` re-cuts the automatic fit: refused with ``-k`` or ``--topics``, before any work."""
    if args.segment_length is None:
        return
    if args.k != "auto":
        raise ValueError("--segment-length and -k/--n-segments cannot be used together: the one sets the other")
    if getattr(args, "structure", None) == "topics":
        raise ValueError("--segment-length re-cuts the runs model; it cannot be used with --topics")
    if getattr(args, "group_runs", None) is True:
        raise ValueError(
            "--segment-length re-cuts the runs, each run its own segment; it cannot be used with --group-runs on"
        )


def _check_group_runs(args: argparse.Namespace) -> None:
    """``--group-runs on`` groups runs into topics: refused with ``--topics``, which fits no runs (it would be
    ignored)."""
    if getattr(args, "group_runs", None) is True and getattr(args, "structure", None) == "topics":
        raise ValueError(
            "--group-runs on groups the runs of the runs model; --topics fits no runs, so it cannot "
            "be used with --topics"
        )


def cmd_prune(args: argparse.Namespace) -> int:
    from bpseg_pgm.embeddings import Embedder  # light: the model loads on first encode
    from bpseg_pgm.pruning import prune

    output_format, options = _chosen_format(args, "prune")
    policy = _policy(args)
    _check_output(args.output, args.file)
    text = read_input(args.file, args.max_bytes)
    result = prune(
        text,
        args.query,
        budget=args.budget,
        max_tokens=args.max_tokens,
        lines=args.lines,
        embedder=Embedder(getattr(args, "model", None), show_progress=_show_progress(args)),
        policy=policy,
    )
    _emit(output_format.render(result, source=_source_name(args.file), **options), args.output)
    return 0


def cmd_corpus(args: argparse.Namespace) -> int:
    from bpseg_pgm.corpus import segment_corpus

    if args.output == "-":
        raise ValueError("-o -: bpseg corpus writes a folder of Parquet parts, not standard output; give a folder")
    if args.workers != 0 and args.scheduler is None:
        quiet_resource_tracker()
    extra = {} if args.task_chars is None else {"task_chars": args.task_chars}
    if args.backend is not None:
        extra["backend"] = args.backend
    report = segment_corpus(
        args.input,
        args.output,
        args.k,
        workers=args.workers,
        scheduler=args.scheduler,
        model=getattr(args, "model", None),
        lines=args.lines,
        max_bytes=args.max_bytes,
        show_progress=_show_progress(args),
        **extra,
        **_bpseg_params(args),
    )
    print(f"bpseg corpus: {report.summary()}")
    return 0


#: The warning filter the resource tracker is started with (``python -W``): see :func:`quiet_resource_tracker`.
RESOURCE_TRACKER_QUIET = "ignore::UserWarning:multiprocessing.resource_tracker"


def quiet_resource_tracker() -> None:
    """Start multiprocessing's resource tracker (if it is not running yet) with its leak warning silenced.

    A Ctrl-C on ``bpseg corpus --workers N`` can end this process before the local cluster's semaphores are
    released; the tracker then unlinks them, as it should, but first prints Python's "There appear to be N
    leaked semaphore objects" after ``bpseg: error: interrupted``, which must stand alone. The tracker is a
    separate Python started with this process's ``-W`` options, so the filter is added to them first.
    """
    from multiprocessing import resource_tracker

    if RESOURCE_TRACKER_QUIET not in sys.warnoptions:
        sys.warnoptions.append(RESOURCE_TRACKER_QUIET)
    resource_tracker.ensure_running()


def cmd_demo(args: argparse.Namespace) -> int:
    from bpseg_pgm.cli.demo import run_demo

    _check_group_runs(args)
    _check_output(args.output)
    report = run_demo(
        args.k, model=getattr(args, "model", None), show_progress=_show_progress(args), **_bpseg_params(args)
    )
    _emit(report, args.output)
    return 0
