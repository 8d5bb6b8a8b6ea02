"""Headless Chromium for the HTML view's tests: the browser found on PATH (or None) and one way to run it."""

from __future__ import annotations

import shutil
import subprocess

import pytest

BROWSER = next(
    (b for b in ("chromium", "chromium-browser", "google-chrome", "google-chrome-stable") if shutil.which(b)), None
)
needs_browser = pytest.mark.skipif(BROWSER is None, reason="no Chromium installed (apt-get install chromium)")


def run_browser(args, tmp_path) -> subprocess.CompletedProcess:
    """Chromium, headless, with a fresh profile under ``tmp_path`` and no network of its own, given ``args``
    (``--dump-dom URL``, ``--screenshot=PNG URL``, ...)."""
    cmd = [
        BROWSER,
        "--headless",
        "--no-sandbox",
        "--disable-gpu",
        "--no-first-run",
        "--disable-background-networking",
        "--disable-component-update",
        "--hide-scrollbars",
        "--force-device-scale-factor=1",
        f"--user-data-dir={tmp_path / 'profile'}",
        "--virtual-time-budget=5000",
        *args,
    ]
    return subprocess.run(cmd, capture_output=True, text=True, timeout=120)
