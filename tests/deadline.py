"""A deadline for a block that must not hang (the test fails instead): for readers whose bug was to run for minutes."""

from __future__ import annotations

import signal
import threading
from contextlib import contextmanager


@contextmanager
def deadline(seconds: float):
    """Fail (instead of hanging) when the block runs past ``seconds``; no limit where SIGALRM is missing."""
    if not hasattr(signal, "setitimer") or threading.current_thread() is not threading.main_thread():
        yield
        return

    def stop(signum, frame):
        raise TimeoutError(f"still reading after {seconds} s")

    old = signal.signal(signal.SIGALRM, stop)
    signal.setitimer(signal.ITIMER_REAL, seconds)
    try:
        yield
    finally:
        signal.setitimer(signal.ITIMER_REAL, 0)
        signal.signal(signal.SIGALRM, old)
