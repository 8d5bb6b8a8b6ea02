"""A progress line on stderr while a long document is fitted (after its embedding bar has finished).

The fit of a long document can take seconds to minutes (the sentence-level topic model's sweeps);
without a line the terminal shows a finished embedding bar and nothing else.  :func:`fit_progress` gives
a callback that counts the belief-propagation sweeps and says, when the fit ends, which model it chose.
"""

from __future__ import annotations

import sys
from contextlib import contextmanager
from typing import Any, Callable, Iterator

from bpseg_pgm.policy import DEFAULT_POLICY

__all__ = ["fit_progress"]


@contextmanager
def fit_progress(n_units: int, show: bool, least: int | None = None) -> Iterator[Callable[..., None] | None]:
    """A context giving the estimator's ``callback`` (None when ``show`` is False or the document is shorter than
    ``least`` units: None, ``Policy.progress_units``): a tqdm line "Fitting N units" counting BP sweeps, closed
    when the context ends; ``callback.done(text)`` writes what the fit found on it before it closes."""
    if not show or n_units < (DEFAULT_POLICY.progress_units if least is None else least):
        yield None
        return
    from tqdm.auto import tqdm

    bar = tqdm(desc=f"Fitting {n_units:,} units", unit=" sweeps", total=None, file=sys.stderr, dynamic_ncols=True)

    def callback(t: int, beliefs: Any = None) -> None:
        bar.update(1)

    def done(text: str) -> None:
        bar.set_postfix_str(text, refresh=True)

    callback.done = done  # type: ignore[attr-defined]
    try:
        yield callback
    finally:
        bar.close()
