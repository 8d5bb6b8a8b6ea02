"""Phase lines: what a long ``bpseg`` run is doing, one line per phase on stderr, terminal or not.

The library says what takes time at INFO on its ``bpseg_pgm.*`` loggers: the embedder "loading the model ...",
"embedding 300 of 312 sentences"; ``segment_text`` "fitting 312 sentences"; ``prune``, ``bpseg demo`` and
``bpseg corpus`` their own steps. :func:`phase_lines` prints them while a command runs, as ``bpseg: ...`` lines (via
``tqdm.write``, so a bar on a terminal is redrawn under them, never broken); a record with ``quick=True`` (a phase
that is fast by itself, e.g. fitting a short document) is printed only after a slow one was, so a run that is quick
throughout (everything cached, a short text) prints nothing. ``-q``/``--quiet`` installs nothing, and turns the
tqdm bars off (``show_progress=False``). A library caller sees these records only where it configures logging.
"""

from __future__ import annotations

import contextlib
import logging
import sys
from typing import Iterator

__all__ = ["phase_lines"]

_LOGGER = "bpseg_pgm"


class _PhaseLines(logging.Handler):
    """Each INFO record of ``bpseg_pgm`` as one line ``bpseg: <message>`` on the stderr of the time of the run."""

    def __init__(self, stream) -> None:
        super().__init__(logging.INFO)
        self.stream = stream
        self.shown = False

    def emit(self, record: logging.LogRecord) -> None:
        if getattr(record, "quick", False) and not self.shown:
            return
        try:
            from tqdm.auto import tqdm

            tqdm.write(f"bpseg: {record.getMessage()}", file=self.stream)
            self.stream.flush()
            self.shown = True
        except Exception:  # noqa: BLE001 - a progress line never ends the run (a closed stderr, a broken pipe)
            return


@contextlib.contextmanager
def phase_lines(enabled: bool = True) -> Iterator[None]:
    """Print the library's phase lines on stderr while the context is open (nothing when not ``enabled`` or when
    stderr is closed); the ``bpseg_pgm`` logger is left as it was found."""
    if not enabled or sys.stderr is None:
        yield
        return
    logger = logging.getLogger(_LOGGER)
    handler = _PhaseLines(sys.stderr)
    level = logger.level
    logger.addHandler(handler)
    if logger.getEffectiveLevel() > logging.INFO:
        logger.setLevel(logging.INFO)
    try:
        yield
    finally:
        logger.removeHandler(handler)
        logger.setLevel(level)
