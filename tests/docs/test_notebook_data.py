"""The teaching notebooks, and so the docs build that executes them, run on a new user's clone with no ``../shared``
beside it: what notebooks 02, 04 and 05 read ships in ``bpseg_bench.samples``, each load in them names it
(``data_dir=``), and those loads work with the datasets hidden. The data is listed in its SOURCE.txt and in the
bench package's data. QMSum's meetings are verbatim copies of the corpus files; Choi's corpus has no licence, so
the documents in Choi's format are Choi-style ones built from PEPs by ``samples/build_choi_style.py``, which
regenerates them byte for byte, and they hold only PEPs text, none of Choi's (or the Brown corpus's)."""

import ast
import fnmatch
import importlib
import importlib.util
import json
from pathlib import Path

import numpy as np
import pytest

from bpseg_bench import choi, lessonlink, peps, qmsum, samples, tinyrec

ROOT = Path(__file__).resolve().parents[2]
NB_DIR = ROOT / "notebooks"
SAMPLE_DIRS = {"CHOI": samples.CHOI, "QMSUM": samples.QMSUM}
DATASET_MODULES = (choi, lessonlink, peps, qmsum, tinyrec)


def _notebook_code() -> dict[str, ast.Module]:
    """Each notebook's code cells (from the cell sources notebooks/_build.py writes them from), parsed as one module."""
    spec = importlib.util.spec_from_file_location("notebooks_build", NB_DIR / "_build.py")
    build = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(build)
    code = {}
    for name, cells_file in build.NOTEBOOKS.items():
        sources = [src for kind, src in build._load_cells(cells_file) if kind == "code"]
        code[name] = ast.parse("\n".join(sources))
    return code


CODE = _notebook_code()


def _bench_names(tree: ast.Module) -> dict[str, str]:
    """Names a notebook imports from bpseg_bench, mapped to their module."""
    return {
        alias.asname or alias.name: node.module
        for node in ast.walk(tree)
        if isinstance(node, ast.ImportFrom) and (node.module or "").startswith("bpseg_bench")
        for alias in node.names
    }


def _data_loads(tree: ast.Module) -> list[ast.Call]:
    """The calls of a bpseg_bench loader or data-folder finder (``load_*``, ``resolve_*``) in a notebook."""
    names = _bench_names(tree)
    return [
        node
        for node in ast.walk(tree)
        if isinstance(node, ast.Call)
        and isinstance(node.func, ast.Name)
        and node.func.id in names
        and node.func.id.startswith(("load_", "resolve_"))
    ]


def _sample_paths(tree: ast.Module) -> list[ast.BinOp]:
    """The outermost ``CHOI / ...`` or ``QMSUM / ...`` expressions of a notebook (files it opens in an extract)."""
    found, inner = [], set()
    for node in ast.walk(tree):
        if isinstance(node, ast.BinOp) and isinstance(node.op, ast.Div) and id(node) not in inner:
            left = node.left
            while isinstance(left, ast.BinOp):
                inner.add(id(left))
                left = left.left
            if isinstance(left, ast.Name) and left.id in SAMPLE_DIRS:
                found.append(node)
    return found


def _constants(tree: ast.Module) -> dict[str, object]:
    """The notebook's module-level ``NAME = <literal>`` assignments (``MEETING = "IS1001d"``)."""
    out = {}
    for node in tree.body:
        if isinstance(node, ast.Assign) and len(node.targets) == 1 and isinstance(node.targets[0], ast.Name):
            try:
                out[node.targets[0].id] = ast.literal_eval(node.value)
            except ValueError:
                pass
    return out


@pytest.fixture
def datasets_hidden(monkeypatch):
    """As on a clone with no shared/ beside it: no $BPSEG_<dataset>_DIR, and no shared/data folder is found."""
    for module in DATASET_MODULES:
        monkeypatch.delenv(module.ENV_VAR, raising=False)
        monkeypatch.setattr(module, "_RELATIVE", Path("no-shared-folder-here") / module._RELATIVE)
    with pytest.raises(ValueError, match="not found"):
        choi.resolve_data_dir()
    with pytest.raises(ValueError, match="not found"):
        qmsum.resolve_qmsum_dir()


def test_the_notebooks_that_read_data_are_the_expected_ones():
    reading = {name for name, tree in CODE.items() if _data_loads(tree)}
    assert reading == {
        "02_alternative_potentials.ipynb",
        "04_which_inference.ipynb",
        "05_topics_over_runs.ipynb",
    }


@pytest.mark.parametrize("name", sorted(CODE))
def test_every_load_in_a_notebook_names_a_shipped_extract(name):
    tree = CODE[name]
    imported = _bench_names(tree)
    for call in _data_loads(tree):
        where = f"{name}: {ast.unparse(call)}"
        data_dir = next((kw.value for kw in call.keywords if kw.arg == "data_dir"), None)
        assert isinstance(data_dir, ast.Name) and data_dir.id in SAMPLE_DIRS, (
            f"{where} looks for the dataset beside the repository; pass data_dir=CHOI or QMSUM (bpseg_bench.samples)"
        )
        assert imported.get(data_dir.id) == "bpseg_bench.samples", where
    assert "shared/data" not in ast.unparse(tree), f"{name}'s code names shared/data"


@pytest.mark.parametrize("name", sorted(n for n, tree in CODE.items() if _data_loads(tree)))
def test_the_notebooks_loads_work_with_the_datasets_hidden(name, datasets_hidden):
    tree = CODE[name]
    namespace = {**_constants(tree), **SAMPLE_DIRS}
    for local, module in _bench_names(tree).items():
        namespace[local] = getattr(importlib.import_module(module), local)
    for call in _data_loads(tree):
        result = eval(compile(ast.Expression(call), name, "eval"), namespace)  # noqa: S307 - the notebook's own call
        assert result, f"{name}: {ast.unparse(call)} gave nothing"
    for expr in _sample_paths(tree):
        path = eval(compile(ast.Expression(expr), name, "eval"), namespace)  # noqa: S307
        assert Path(path).is_file(), f"{name}: {ast.unparse(expr)} is not shipped"


def test_the_extracts_hold_what_the_notebooks_say():
    docs = choi.load_choi(data_dir=samples.CHOI, sets=[1], ranges=["3-5"], limit=5)
    assert [d.doc_id for d in docs] == [f"1/3-5/{i}" for i in range(5)]
    assert all(d.n_segments == 10 for d in docs)
    assert all(set(np.bincount(d.labels)) <= {3, 4, 5} for d in docs), "Choi-style range 3-5: 3 to 5 sentences"
    val = qmsum.load_qmsum(data_dir=samples.QMSUM, splits=["val"])
    assert [m.doc_id for m in val] == ["qmsum/val/Bed002", "qmsum/val/Bed010"]
    train = qmsum.load_qmsum(data_dir=samples.QMSUM, splits=["train"])
    assert [m.doc_id for m in train] == ["qmsum/train/IS1001d"] and len(train[0].units) == 300


def _shipped() -> list[Path]:
    return sorted(p.relative_to(samples.SAMPLES) for p in samples.SAMPLES.rglob("*") if p.is_file())


def test_the_extracts_are_listed_and_packaged():
    shipped = [p for p in _shipped() if p.suffix in {".ref", ".json"} or p.name == "LICENSE"]
    source = (samples.SAMPLES / "SOURCE.txt").read_text("utf-8")
    for path in shipped:
        assert path.name in source, f"bench/bpseg_bench/samples/SOURCE.txt does not name {path}"
    tomllib = pytest.importorskip("tomllib", reason="Python 3.11's tomllib reads bench/pyproject.toml")
    bench = tomllib.loads((ROOT / "bench" / "pyproject.toml").read_text("utf-8"))
    patterns = bench["tool"]["setuptools"]["package-data"]["bpseg_bench"]
    for path in [*shipped, Path("SOURCE.txt")]:
        as_data = f"samples/{path.as_posix()}"
        assert any(fnmatch.fnmatchcase(as_data, pattern) for pattern in patterns), f"{as_data} is not package data"
    total = sum((samples.SAMPLES / p).stat().st_size for p in shipped)
    assert total < 400_000, f"the extracts are to stay small: {total} bytes"


def test_the_qmsum_extracts_are_verbatim_copies_of_the_corpus():
    """The meetings and the licence, byte for byte (where the corpus is beside the repository)."""
    try:
        root = qmsum.resolve_qmsum_dir()
    except ValueError as exc:
        pytest.skip(f"the QMSum corpus is not beside the repository: {exc}")
    files = [p for p in samples.QMSUM.rglob("*") if p.is_file()]
    assert files
    for path in files:
        original = root / path.relative_to(samples.QMSUM)
        assert original.read_bytes() == path.read_bytes(), f"{path} differs from {original}"


def _shipped_choi_style() -> dict[str, bytes]:
    return {p.relative_to(samples.CHOI).as_posix(): p.read_bytes() for p in sorted(samples.CHOI.rglob("*.ref"))}


def _peps_dir() -> Path:
    try:
        return peps.resolve_peps_dir()
    except ValueError as exc:
        pytest.skip(f"the PEPs data is not beside the repository: {exc}")


def test_no_choi_document_ships():
    """Choi's corpus has no licence (bpseg_bench.choi): the Choi-format folder is the Choi-style one, in ASCII."""
    assert samples.CHOI.name == "choi_style" and not (samples.SAMPLES / "choi").exists()
    shipped = _shipped_choi_style()
    assert sorted(shipped) == [f"1/3-5/{i}.ref" for i in range(5)]
    assert all(data.isascii() for data in shipped.values())


def test_the_build_script_regenerates_the_choi_style_documents():
    root = _peps_dir()
    build = importlib.import_module("bpseg_bench.samples.build_choi_style")
    built = {name: text.encode("ascii") for name, text in build.build(root).items()}
    shipped = _shipped_choi_style()
    assert sorted(built) == sorted(shipped)
    for name, data in built.items():
        assert shipped[name] == data, (
            f"samples/choi_style/{name} is not what the build script writes: run "
            "python bench/bpseg_bench/samples/build_choi_style.py (and re-check the notebooks' quoted numbers)"
        )


def test_the_choi_style_documents_hold_only_pep_text():
    """Every sentence shipped is in a paragraph of the PEPs train data; none is a line of Choi's corpus (where it
    is beside the repository), so no Brown corpus text ships."""
    root = _peps_dir()
    with (root / "train.jsonl").open(encoding="utf-8") as fh:
        paragraphs = [block["text"] for line in fh if line.strip() for block in json.loads(line)["blocks"]]
    sentences = [
        line
        for data in _shipped_choi_style().values()
        for line in data.decode("ascii").splitlines()
        if line != choi.SEPARATOR
    ]
    assert len(sentences) >= 5 * 10 * 3
    missing = [s for s in sentences if not any(s in text for text in paragraphs)]
    assert not missing, f"sentences not in the PEPs train data: {missing[:3]}"
    try:
        choi_root = choi.resolve_data_dir()
    except ValueError:
        return
    choi_lines = {line.strip() for path in choi_root.rglob("*.ref") for line in path.read_text("latin-1").splitlines()}
    assert not choi_lines & set(sentences)
