"""The BP-Seg options of ``bpseg segment``, ``corpus`` and ``demo``, made from BPSeg's parameter table.

Each option's flag, type, choices, help and default come from :data:`bpseg_pgm.params.PARAMETERS` (the
constraint objects the estimator checks with): a word the constraints take is a choice (``none`` for None,
``on``/``off`` for True/False), a number is parsed as the interval's int or float and checked against it, and a
value the table refuses is argparse's one-line usage error naming the option. Only ``structure`` keeps flags of its
own (``--contiguous``, ``--topics``). The parser does not import the estimator (scikit-learn would take most of a
second of ``--help``).
"""

from __future__ import annotations

import argparse
from numbers import Integral

from bpseg_pgm.constraints import Instance, Interval, Options, StrOptions
from bpseg_pgm.params import PARAMETERS

__all__ = ["CLI_PARAMETERS", "add_engine_options", "option_type", "option_words"]

#: The BPSeg parameters that are options of ``segment``, ``corpus`` and ``demo``, in the order ``--help`` lists
#: them (``structure`` as ``--contiguous`` / ``--topics``; ``policy`` is ``--policy FILE``, read apart).
CLI_PARAMETERS = (
    "potentials",
    "lam",
    "sigma",
    "engine",
    "init",
    "em_rounds",
    "context",
    "merge_above",
    "structure",
    "group_runs",
    "cost",
    "granularity",
    "random_state",
    "max_iter",
    "tol",
    "damping",
)

#: the command line's words for the values that are not words in Python
_WORDS = {None: "none", True: "on", False: "off"}


def _word_values(constraints) -> dict:
    """word on the command line -> the value it stands for, for every word the constraints take."""
    out = {}
    for c in constraints:
        if c is None:
            out["none"] = None
        elif isinstance(c, StrOptions):
            out.update({w: w for w in c.words})
        elif isinstance(c, Options):
            out.update({_WORDS.get(o, str(o)): o for o in c.options})
    return out


def option_words(name: str) -> str:
    """What the option of parameter ``name`` takes, in the command line's words."""
    constraints = PARAMETERS[name].constraints
    parts = [*_word_values(constraints), *(str(c) for c in constraints if isinstance(c, Interval))]
    return parts[0] if len(parts) == 1 else f"{', '.join(parts[:-1])} or {parts[-1]}"


def option_type(name: str):
    """The argparse type of parameter ``name``'s option: a word its constraints take, or a number in its
    interval; anything else is an ``ArgumentTypeError`` saying what it takes."""
    constraints = PARAMETERS[name].constraints
    words = _word_values(constraints)
    intervals = [c for c in constraints if isinstance(c, Interval)]

    def parse(text: str):
        if text in words:
            return words[text]
        for interval in intervals:
            try:
                value = int(text) if interval.type is Integral else float(text)
            except ValueError:
                continue
            if interval.is_satisfied_by(value):
                return value
        raise argparse.ArgumentTypeError(f"expected {option_words(name)}, got {text!r}")

    parse.__name__ = name  # argparse names the type in some messages
    return parse


def _choices(name: str) -> tuple | None:
    """The option's choices when its constraints are words only (and objects, which the command line cannot give)."""
    constraints = PARAMETERS[name].constraints
    if all(isinstance(c, (StrOptions, Instance)) for c in constraints):
        return tuple(w for c in constraints if isinstance(c, StrOptions) for w in c.words)
    return None


def _help(name: str) -> str:
    parameter = PARAMETERS[name]
    default = parameter.default
    if "default" in parameter.help or default is None:
        return parameter.help
    return f"{parameter.help} (default {_WORDS.get(default, default) if isinstance(default, bool) else default})"


def _add_structure(group) -> None:
    structure = group.add_mutually_exclusive_group()
    structure.add_argument(
        "--contiguous",
        action="store_const",
        const="runs",
        default=None,
        dest="structure",
        help="every segment one run of consecutive sentences (exact segmental programme and "
        "chain marginals); for boundaries, e.g. retrieval chunks. Default: decided per "
        "document (runs where the subject shifts gradually, as in meetings and lectures)",
    )
    structure.add_argument(
        "--topics",
        action="store_const",
        const="topics",
        dest="structure",
        help="always the topic model, whose segments may return (never runs)",
    )


def add_engine_options(group) -> None:
    """Add the options of :data:`CLI_PARAMETERS` to an argparse group, each made from its table entry."""
    for name in CLI_PARAMETERS:
        if name == "structure":
            _add_structure(group)
            continue
        choices = _choices(name)
        if choices is not None:
            group.add_argument(PARAMETERS[name].flag, dest=name, choices=choices, help=_help(name))
            continue
        group.add_argument(
            PARAMETERS[name].flag, dest=name, type=option_type(name), metavar=_metavar(name), help=_help(name)
        )


def _metavar(name: str) -> str:
    """``{auto,on,off}`` for an option of words only, N for an integer, else the parameter's name."""
    constraints = PARAMETERS[name].constraints
    intervals = [c for c in constraints if isinstance(c, Interval)]
    if not intervals:
        return "{" + ",".join(_word_values(constraints)) + "}"
    return "N" if intervals[0].type is Integral else name.upper()
