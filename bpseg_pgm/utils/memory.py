"""How much memory the system can still give this process: what every check before a large allocation reads."""

from __future__ import annotations

import os

__all__ = ["available_bytes"]


def available_bytes() -> int | None:
    """Memory the system can still give this process (MemAvailable), or None if unknown."""
    try:
        with open("/proc/meminfo") as f:
            for line in f:
                if line.startswith("MemAvailable:"):
                    return int(line.split()[1]) * 1024
    except (OSError, ValueError, IndexError):
        pass
    try:
        return os.sysconf("SC_PAGE_SIZE") * os.sysconf("SC_AVPHYS_PAGES")
    except (AttributeError, OSError, ValueError):  # pragma: no cover - not POSIX
        return None
