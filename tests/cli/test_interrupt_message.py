"""Ctrl-C on ``bpseg corpus --workers N``: ``bpseg: error: interrupted`` stands alone, with no "leaked semaphore
objects" warning from multiprocessing's resource tracker after it."""

from __future__ import annotations

import subprocess
import sys
import time

import bpseg_pgm.corpus
from bpseg_pgm.cli import commands
from bpseg_pgm.cli import main as cli_main

LEAK = """
import os, sys, multiprocessing as mp
{before}
lock = mp.get_context("spawn").Lock()  # registered with the tracker, never released: as an interrupted run
os._exit(130)
"""


def _stderr_after_a_leak(before: str) -> str:
    proc = subprocess.run([sys.executable, "-c", LEAK.format(before=before)], capture_output=True, text=True)
    assert proc.returncode == 130, proc.stderr  # it got as far as the leak
    time.sleep(0.5)  # the tracker writes after this process has gone
    return proc.stderr


def test_the_leak_warning_is_what_an_interrupt_would_print():
    assert "leaked semaphore" in _stderr_after_a_leak("")  # the check below can fail


def test_a_quiet_tracker_prints_nothing_after_a_leak():
    before = "from bpseg_pgm.cli.commands import quiet_resource_tracker; quiet_resource_tracker()"
    assert "leaked" not in _stderr_after_a_leak(before)


def test_corpus_on_a_local_cluster_starts_the_quiet_tracker(tmp_path, monkeypatch):
    from multiprocessing import resource_tracker

    started = []
    monkeypatch.setattr(sys, "warnoptions", list(sys.warnoptions))
    monkeypatch.setattr(resource_tracker, "ensure_running", lambda: started.append(list(sys.warnoptions)))

    class Report:
        def summary(self):
            return "done"

    monkeypatch.setattr(bpseg_pgm.corpus, "segment_corpus", lambda *a, **k: Report())
    (tmp_path / "a.txt").write_text("One. Two.", encoding="utf-8")
    out = str(tmp_path / "out.parquet")
    assert cli_main.main(["corpus", str(tmp_path), "-o", out, "--workers", "0"]) == 0
    assert started == []  # no processes: nothing to track
    assert cli_main.main(["corpus", str(tmp_path), "-o", out, "--workers", "2"]) == 0
    assert len(started) == 1 and commands.RESOURCE_TRACKER_QUIET in started[0]
