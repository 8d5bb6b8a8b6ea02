"""What the benchmark reports share: the machine they ran on, strict JSON, and writing a report's files.

A report is a Markdown table, the JSON of the result (config, summary and per-document records) and
a PNG chart, written all-or-nothing as ``<stem>.md``, ``<stem>.json`` and ``<stem>.png``.
"""

from __future__ import annotations

import json
import math
import os
import platform
from pathlib import Path

import numpy as np

from bpseg_pgm.io.reports import check_output_dir, write_atomically

__all__ = ["json_safe", "machine_info", "write_report", "write_results"]


def machine_info() -> dict:
    """CPU model, core count and library versions, for the report."""
    import sklearn

    model = platform.processor() or platform.machine()
    try:
        for line in Path("/proc/cpuinfo").read_text().splitlines():
            if line.startswith("model name"):
                model = line.split(":", 1)[1].strip()
                break
    except OSError:
        pass
    return {
        "cpu": model,
        "cores": os.cpu_count(),
        "python": platform.python_version(),
        "numpy": np.__version__,
        "scikit-learn": sklearn.__version__,
    }


def json_safe(obj):
    """``obj`` with NaN and infinities as None and NumPy scalars as Python ones: strict JSON."""
    if isinstance(obj, float) and not math.isfinite(obj):
        return None
    if isinstance(obj, dict):
        return {k: json_safe(v) for k, v in obj.items()}
    if isinstance(obj, (list, tuple)):
        return [json_safe(v) for v in obj]
    if isinstance(obj, np.generic):
        return json_safe(obj.item())
    return obj


def write_report(result: dict, out_dir: str | os.PathLike, stem: str, markdown: str, png: bytes) -> dict[str, Path]:
    """Write ``markdown``, the strict JSON of ``result`` and ``png`` into ``out_dir`` all-or-nothing, as
    ``<stem>.md/.json/.png``; returns kind (``markdown``, ``json``, ``png``) -> path."""
    out = check_output_dir(out_dir)
    paths = {"markdown": out / f"{stem}.md", "json": out / f"{stem}.json", "png": out / f"{stem}.png"}
    write_atomically({
        paths["markdown"]: markdown,
        paths["json"]: json.dumps(json_safe(result), indent=1, allow_nan=False) + "\n",
        paths["png"]: png,
    })  # fmt: skip
    return paths


def write_results(out: Path, markdown: str, result: dict, records=None) -> list[Path]:
    """Write a benchmark script's ``<out>.md`` (``markdown``) and ``<out>.json`` (the strict JSON of ``result``),
    and ``records`` (strict JSON, one line) to its own path when given as ``(path, records)``, all-or-nothing,
    creating ``out``'s folder; returns the paths written."""
    files = {
        out.with_name(out.name + ".md"): markdown,
        out.with_name(out.name + ".json"): json.dumps(json_safe(result), indent=1, allow_nan=False) + "\n",
    }
    if records is not None:
        path, rows = records
        files[path] = json.dumps(json_safe(rows), allow_nan=False) + "\n"
    out.parent.mkdir(parents=True, exist_ok=True)
    return write_atomically(files)
