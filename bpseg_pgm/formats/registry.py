"""The output-format registry: :class:`OutputFormat`, :func:`register_format`, :func:`get_format`, :func:`format_names`.

A format is a class that names itself with :func:`register_format` and renders one kind of
result to a ``str``.  The kinds are the results the command line writes (:data:`KINDS`):
``"segmentation"`` (``bpseg segment --format``; a ``Segmentation``) and ``"prune"``
(``bpseg prune --format``; a ``PruneResult``).  Results are taken duck-typed: a format uses
the result's own methods and attributes (``to_text()``, ``to_json()``, ``chunks(...)``, ...).

A format says which keyword options it takes (:class:`FormatOption`); the command line offers
each as a flag (``max_tokens`` -> ``--max-tokens``) and refuses it with any other format.
Adding a format (the command line picks it up: ``bpseg segment --format markdown``)::

    from bpseg_pgm.formats import OutputFormat, register_format

    @register_format("markdown")
    class MarkdownFormat(OutputFormat):
        suffix = ".md"
        media_type = "text/markdown"

        def content(self, result, *, source=None):
            return "".join(f"## Segment {j + 1}\\n\\n" + " ".join(result.sentences[i] for i in idx) + "\\n\\n"
                           for j, idx in enumerate(result.segments))
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Any, ClassVar

from bpseg_pgm.plugins.loader import load_plugins

__all__ = ["KINDS", "REGISTRY", "FormatOption", "OutputFormat", "format_names", "get_format", "register_format"]

#: The kinds of result a format renders, and the command that writes each.
KINDS = {"segmentation": "bpseg segment", "prune": "bpseg prune"}

#: Every registered format class, by kind and then name, in the order they were registered.
REGISTRY: dict[str, dict[str, type[OutputFormat]]] = {kind: {} for kind in KINDS}

_NAME = re.compile(r"[a-z0-9]+(?:-[a-z0-9]+)*")
_OPTION = re.compile(r"[a-z][a-z0-9]*(?:_[a-z0-9]+)*")
_OPTION_TYPES = (bool, int, str)


@dataclass(frozen=True)
class FormatOption:
    """A keyword option of a format's :meth:`~OutputFormat.render`.

    ``type`` is ``bool`` (a yes/no flag, default False), ``int`` (an integer >= ``minimum``, 1 unless
    said, default None: not given) or ``str`` (default None); ``help`` and ``metavar`` are what the
    command line shows for its flag (``--`` and the name with ``-`` for ``_``).
    """

    name: str
    type: type = bool
    help: str = ""
    metavar: str | None = None
    minimum: int = 1

    def __post_init__(self):
        if not isinstance(self.name, str) or not _OPTION.fullmatch(self.name):
            raise ValueError(f"a format option's name must be a lower-case identifier, got {self.name!r}")
        if self.type not in _OPTION_TYPES:
            raise ValueError(f"format option {self.name!r}: type must be bool, int or str, got {self.type!r}")

    @property
    def default(self) -> Any:
        """The value meaning "not given": False for a flag, None otherwise."""
        return False if self.type is bool else None


class OutputFormat:
    """Base class of the output formats: subclass it, set what applies, define :meth:`content`.

    ``name`` and ``kind`` are set by :func:`register_format`; ``suffix`` and ``media_type``
    describe the file written; ``options`` are the keyword options :meth:`render` takes beyond
    ``source``, shown by the command line in a group titled ``"{options_title} (with --format
    {name})"``; ``library_options`` are keyword options :meth:`render` takes from Python alone (names
    only: the command line does not offer them, and the format checks their values).
    """

    name: ClassVar[str] = ""
    kind: ClassVar[str] = ""
    suffix: ClassVar[str] = ".txt"
    media_type: ClassVar[str] = "text/plain"
    options: ClassVar[tuple[FormatOption, ...]] = ()
    library_options: ClassVar[tuple[str, ...]] = ()
    options_title: ClassVar[str] = "format options"

    def check_options(self, **options: Any) -> None:
        """Raise ValueError, naming options by their keyword, if ``options`` cannot be rendered.

        The command line calls it before any work.  This one refuses options the format does not
        take; a format whose options depend on each other extends it.
        """
        known = [option.name for option in self.options]
        unknown = [name for name in options if name not in known and name not in self.library_options]
        if unknown:
            takes = f"takes {', '.join(known)}" if known else "takes no options"
            python = f" (from Python it also takes {', '.join(self.library_options)})" if self.library_options else ""
            raise ValueError(f"the {self.name} format {takes}, got {', '.join(unknown)}{python}")

    def render(self, result: Any, *, source: str | None = None, **options: Any) -> str:
        """``result`` as this format's text: :meth:`check_options`, then :meth:`content`.

        ``source`` names the input for people ("notes.txt", "standard input"), for formats that
        show it (the HTML page's title); ``options`` are this format's :attr:`options`.
        """
        self.check_options(**options)
        return self.content(result, source=source, **options)

    def content(self, result: Any, *, source: str | None = None, **options: Any) -> str:
        """What :meth:`render` returns, its options checked: the one method a format must define."""
        raise NotImplementedError


def register_format(name: str, *, kind: str = "segmentation"):
    """Class decorator: make an :class:`OutputFormat` subclass available as ``--format name`` for ``kind``."""
    if kind not in KINDS:
        raise ValueError(f"kind must be one of {tuple(KINDS)}, got {kind!r}")
    if not isinstance(name, str) or not _NAME.fullmatch(name):
        raise ValueError(f"a format name is lower-case letters and digits, with single '-' between, got {name!r}")

    def wrap(cls):
        if not (isinstance(cls, type) and issubclass(cls, OutputFormat)):
            raise ValueError(f"register_format({name!r}) needs an OutputFormat subclass, got {cls!r}")
        registered = REGISTRY[kind].get(name)
        if registered is not None and registered is not cls:
            raise ValueError(f"a {kind} format is already registered as {name!r}: {registered.__name__}")
        cls.name, cls.kind = name, kind
        REGISTRY[kind][name] = cls
        return cls

    return wrap


def format_names(kind: str = "segmentation") -> tuple[str, ...]:
    """The registered names of ``kind``: the built-ins first, then any registered by the user."""
    if kind not in KINDS:
        raise ValueError(f"kind must be one of {tuple(KINDS)}, got {kind!r}")
    load_plugins()  # installed plug-ins (bpseg_pgm.plugins) first
    return tuple(REGISTRY[kind])


def get_format(name: str, kind: str = "segmentation") -> OutputFormat:
    """The registered format ``name`` of ``kind``, ready to :meth:`~OutputFormat.render`."""
    names = format_names(kind)
    if name not in names:
        raise ValueError(f"{kind} format must be one of {names}, got {name!r}")
    return REGISTRY[kind][name]()
