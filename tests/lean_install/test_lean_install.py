"""The lean install: the library and ``bpseg`` run without the benchmarks' dependencies (matplotlib, ruptures).

Each check runs a fresh interpreter, so that ``sys.modules`` shows what that code path alone
imports. A missing extra is simulated with ``sys.modules[name] = None`` (``import name`` then
raises ImportError, as it would with the package absent).
"""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

BENCH = ("matplotlib", "ruptures")

#: Prints the bench modules loaded so far (none expected).
_REPORT = "import sys; print(sorted(m for m in sys.modules if m.split('.')[0] in {!r}))".format(BENCH)

#: Makes the benchmarks' dependencies look uninstalled.
_HIDE = "import sys\nfor _m in {!r}: sys.modules[_m] = None\n".format(BENCH)

TEXT = (
    "The match went to five sets. The champion served for the title twice. "
    "Her backhand won the final point at the net. "
    "The bread needs four cups of flour. Knead the dough for ten minutes. "
    "Bake it until the crust is brown."
)


def _pyproject(folder: str = ".") -> dict:
    tomllib = pytest.importorskip("tomllib")  # Python 3.11+
    return tomllib.loads((Path(__file__).resolve().parents[2] / folder / "pyproject.toml").read_text("utf-8"))


def _python(code: str, tmp_path: Path, cache_dir: Path | None = None) -> subprocess.CompletedProcess:
    env = dict(os.environ)
    if cache_dir is not None:
        env["BPSEG_CACHE_DIR"] = str(cache_dir)
    return subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, cwd=tmp_path, env=env, timeout=600
    )


@pytest.mark.parametrize(
    "code",
    [
        "import bpseg_pgm",
        "import bpseg_pgm; bpseg_pgm.BPSeg; bpseg_pgm.Segmentation; bpseg_pgm.Units",
        "from bpseg_pgm.text import segment_text",
        "from bpseg_pgm.cli.main import build_parser; build_parser()",
        "from bpseg_pgm.cli.main import main\ntry:\n    main(['--help'])\nexcept SystemExit:\n    pass",
        "from bpseg_pgm.cli.main import main\ntry:\n    main(['bench', '--help'])\nexcept SystemExit:\n    pass",
    ],
    ids=["import", "root-names", "segment_text", "build_parser", "help", "bench-help"],
)
def test_imports_load_no_bench_module(code, tmp_path):
    proc = _python(code + "\n" + _REPORT, tmp_path)
    assert proc.returncode == 0, proc.stderr
    assert proc.stdout.splitlines()[-1] == "[]"


def test_segment_text_runs_without_the_bench_extra(tmp_path, session_cache_dir):
    code = _HIDE + (
        "from bpseg_pgm.text import segment_text\n"
        f"seg = segment_text({TEXT!r}, 2, show_progress=False)\n"
        "print(len(seg.labels), len(set(seg.labels)))\n"
    )
    proc = _python(code, tmp_path, session_cache_dir)
    assert proc.returncode == 0, proc.stderr
    assert proc.stdout.split() == ["6", "2"]


def test_bpseg_demo_and_segment_run_without_the_bench_extra(tmp_path, session_cache_dir):
    (tmp_path / "in.txt").write_text(TEXT + "\n", encoding="utf-8")
    code = _HIDE + (
        "from bpseg_pgm.cli.main import main\n"
        "assert main(['demo']) == 0\n"
        "assert main(['segment', 'in.txt', '-k', '2', '--format', 'json', '-o', 'out.json']) == 0\n"
    )
    proc = _python(code, tmp_path, session_cache_dir)
    assert proc.returncode == 0, proc.stderr
    assert "tennis together" in proc.stdout
    assert (tmp_path / "out.json").stat().st_size > 0


def test_the_api_names_the_extra_when_ruptures_is_missing(tmp_path):
    code = _HIDE + (
        "import numpy as np\n"
        "from bpseg_bench.baselines.kernel_cpd import KernelCPD\n"
        "try:\n"
        "    KernelCPD(n_segments=2).fit_predict(np.random.default_rng(0).normal(size=(8, 4)))\n"
        "except ImportError as exc:\n"
        "    print(type(exc).__name__, exc)\n"
    )
    proc = _python(code, tmp_path)
    assert proc.returncode == 0, proc.stderr
    out = proc.stdout.strip()
    assert out.startswith("ImportError the KernelCPD baseline needs ruptures, a dependency of the benchmarks: ")
    assert "pip install -e ./bench" in out


def test_the_api_names_the_extra_when_matplotlib_is_missing(tmp_path):
    code = _HIDE + (
        "from bpseg_bench.extras import pyplot\n"
        "try:\n"
        "    pyplot()\n"
        "except ImportError as exc:\n"
        "    print(type(exc).__name__, exc)\n"
    )
    proc = _python(code, tmp_path)
    assert proc.returncode == 0, proc.stderr
    out = proc.stdout.strip()
    assert out.startswith("ImportError the benchmark's chart needs matplotlib, a dependency of the benchmarks: ")
    assert "pip install -e ./bench" in out


def test_the_bench_modules_are_not_core_requirements():
    project = _pyproject()["project"]
    core = {req.split(">")[0].split("=")[0].split("<")[0].strip() for req in project["dependencies"]}
    assert not core & set(BENCH)
    extras = project["optional-dependencies"]
    assert "bench" not in extras  # the benchmarks are their own distribution (bench/), not in the wheel
    assert {req.split(">")[0] for req in extras["test"]} >= set(BENCH)  # their tests run in CI
    bench = _pyproject("bench")["project"]
    assert {req.split(">")[0] for req in bench["dependencies"]} >= {"bpseg_pgm", *BENCH}
    assert "nltk" in core  # the words use its stemmer


def test_one_version_source():
    from importlib.metadata import version

    import bpseg_pgm

    pyproject = _pyproject()
    assert "version" not in pyproject["project"] and "version" in pyproject["project"]["dynamic"]
    assert pyproject["tool"]["setuptools"]["dynamic"]["version"] == {"attr": "bpseg_pgm.__version__"}
    assert version("bpseg_pgm") == bpseg_pgm.__version__
