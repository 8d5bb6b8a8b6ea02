"""Helpers for running the real ``bpseg`` command in a subprocess with a private, pre-filled cache."""

import os
import subprocess
import sys
from pathlib import Path

import pytest

from bpseg_pgm.cli.demo import load_example
from bpseg_pgm.embeddings import Embedder

BPSEG = [sys.executable, "-m", "bpseg_pgm.cli.main"]


@pytest.fixture(scope="session")
def cli_env(tmp_path_factory):
    """Environment for ``bpseg`` subprocesses: a temporary cache already holding the example's embeddings."""
    cache = tmp_path_factory.mktemp("bpseg_cli_cache")
    Embedder(cache_dir=cache, show_progress=False).encode(load_example())
    env = dict(os.environ, BPSEG_CACHE_DIR=str(cache))
    env.pop("HF_HUB_OFFLINE", None)
    return env


@pytest.fixture(scope="session")
def example_file(tmp_path_factory):
    path = tmp_path_factory.mktemp("input") / "example.txt"
    path.write_text("\n".join(load_example()) + "\n", encoding="utf-8")
    return path


def _run_bpseg(args, env, stdin=b"", cmd=BPSEG, timeout=300):
    proc = subprocess.run([*cmd, *map(str, args)], input=stdin, env=env, capture_output=True, timeout=timeout)
    return subprocess.CompletedProcess(
        proc.args, proc.returncode, proc.stdout.decode("utf-8"), proc.stderr.decode("utf-8", "replace")
    )


@pytest.fixture(scope="session")
def run_bpseg():
    """``run_bpseg(args, env, stdin=b"", cmd=[python, -m, bpseg_pgm.cli.main])`` -> CompletedProcess (text)."""
    return _run_bpseg


@pytest.fixture(scope="session")
def console_script() -> Path:
    """The ``bpseg`` entry point installed next to this Python."""
    return Path(sys.executable).parent / ("bpseg.exe" if os.name == "nt" else "bpseg")


@pytest.fixture(scope="session")
def bpseg_module_cmd():
    """The command that runs the CLI module with this Python."""
    return BPSEG
