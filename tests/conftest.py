"""Fixtures shared by every test folder: one embedder (one model load) per test session, with a private cache."""

import pytest


@pytest.fixture(scope="session")
def session_cache_dir(tmp_path_factory):
    return tmp_path_factory.mktemp("bpseg_cache")


@pytest.fixture(scope="session")
def embedder(session_cache_dir):
    from bpseg_pgm.embeddings import Embedder

    return Embedder(cache_dir=session_cache_dir, show_progress=False)


@pytest.fixture()
def make_folder(tmp_path):
    """make_folder({"a.txt": "text", "b.bin": b"bytes"}) -> a new input folder ``tmp_path / "in"`` holding them."""

    def make(files, name="in"):
        root = tmp_path / name
        root.mkdir()
        for rel, content in files.items():
            path = root / rel
            path.parent.mkdir(parents=True, exist_ok=True)
            if isinstance(content, bytes):
                path.write_bytes(content)
            else:
                path.write_text(content, encoding="utf-8")
        return root

    return make


@pytest.fixture()
def model_calls(monkeypatch):
    """The estimator's model fits replaced by recorders: the list says which ran (a check that refuses bad
    input must leave it empty)."""
    import bpseg_pgm.decisions.grouping as grouping
    import bpseg_pgm.decisions.procedure as procedure

    calls: list = []
    monkeypatch.setattr(procedure, "fit_runs", lambda *a, **k: calls.append("runs"))
    monkeypatch.setattr(procedure, "choose_structure", lambda *a, **k: calls.append("auto"))
    monkeypatch.setattr(procedure, "fit_topics", lambda *a, **k: calls.append("topics"))
    monkeypatch.setattr(grouping, "fit_run_topics", lambda *a, **k: calls.append("run-topics"))
    return calls
