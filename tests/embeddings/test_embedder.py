"""Embedder: unit-norm float32 rows, cache hits without loading the model, clear errors."""

import socket
import subprocess
import sys
import textwrap
import time

import numpy as np
import pytest

from bpseg_pgm.embeddings import Embedder, default_model_path, embed_sentences
from bpseg_pgm.embeddings import embedder as emb_mod

SENTENCES = [
    "I'll play tennis tomorrow.",
    "US Open is a tennis tournament.",
    "The rain poured down heavily.",
    "I'll play tennis tomorrow.",
]


def test_default_model_gives_unit_norm_float32_rows(embedder):
    X = embedder.encode(SENTENCES)
    assert X.shape == (4, 384) and X.dtype == np.float32
    np.testing.assert_allclose(np.linalg.norm(X, axis=1), 1.0, atol=1e-5)
    np.testing.assert_array_equal(X[0], X[3])
    assert X[0] @ X[1] > X[0] @ X[2]  # tennis is closer to tennis than to rain


def test_cached_sentences_never_load_the_model(embedder, session_cache_dir, monkeypatch):
    expected = embedder.encode(SENTENCES)

    def no_load(self):
        raise AssertionError("the model was loaded although every sentence is cached")

    monkeypatch.setattr(Embedder, "_load", no_load)
    again = Embedder(cache_dir=session_cache_dir, show_progress=False).encode(SENTENCES[::-1])
    np.testing.assert_array_equal(again, expected[::-1])


def test_cached_run_does_not_import_sentence_transformers(embedder, session_cache_dir):
    embedder.encode(SENTENCES)
    code = textwrap.dedent(f"""
        import sys
        from bpseg_pgm.embeddings import Embedder
        X = Embedder(cache_dir={str(session_cache_dir)!r}).encode({SENTENCES!r})
        assert X.shape == (4, 384)
        assert "sentence_transformers" not in sys.modules
    """)
    proc = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=120)
    assert proc.returncode == 0, proc.stderr


def test_cache_is_keyed_by_model_identity(embedder, session_cache_dir, monkeypatch):
    embedder.encode(SENTENCES)
    other = Embedder(cache_dir=session_cache_dir, show_progress=False)
    other.model_id = "some-other-model"
    calls = []
    monkeypatch.setattr(Embedder, "_load", lambda self: calls.append(1) or embedder.model)
    np.testing.assert_allclose(other.encode(SENTENCES[:1]), embedder.encode(SENTENCES[:1]), atol=1e-5)
    assert calls == [1]


def test_local_model_directory_is_accepted_with_its_own_identity(embedder, tmp_path):
    local = Embedder(default_model_path(), cache_dir=tmp_path, show_progress=False)
    assert local.model_id.startswith("path:") and local.model_id != embedder.model_id
    np.testing.assert_allclose(local.encode(SENTENCES[:2]), embedder.encode(SENTENCES[:2]), atol=1e-5)


def test_default_model_by_name_uses_the_bundled_copy(embedder, session_cache_dir):
    for name in ("all-MiniLM-L6-v2", "sentence-transformers/all-MiniLM-L6-v2"):
        named = Embedder(name, cache_dir=session_cache_dir, show_progress=False)
        assert named.model_id == embedder.model_id


def test_embed_sentences_convenience(embedder, session_cache_dir):
    X = embed_sentences(SENTENCES[:2], cache_dir=session_cache_dir, show_progress=False)
    np.testing.assert_array_equal(X, embedder.encode(SENTENCES[:2]))


@pytest.mark.parametrize("show, expect_bar", [(True, True), (False, False), (None, False)])
def test_progress_bar_only_when_asked_or_on_a_terminal(embedder, tmp_path, capfd, show, expect_bar):
    e = Embedder(cache_dir=tmp_path, show_progress=show)
    e._model = embedder.model  # reuse the loaded model; these sentences are misses in tmp_path
    capfd.readouterr()
    e.encode([f"A fresh sentence number {i}." for i in range(5)])
    err = capfd.readouterr().err
    assert ("Embedding" in err) is expect_bar  # pytest's stderr is not a terminal


@pytest.mark.parametrize(
    "sentences, match",
    [
        ([], "no sentences"),
        ("a single string", "not a single string"),
        (["ok", 3], "sentence 1 is int"),
        (None, "list of str"),
    ],
)
def test_bad_sentences(embedder, sentences, match):
    with pytest.raises(ValueError, match=match):
        embedder.encode(sentences)


@pytest.mark.parametrize(
    "kwargs, match",
    [
        ({"batch_size": 0}, "batch_size"),
        ({"batch_size": True}, "batch_size"),
        ({"show_progress": "yes"}, "show_progress"),
        ({"model": ""}, "model"),
        ({"model": 3}, "model"),
        ({"model": "./no/such/dir"}, "does not exist"),
    ],
)
def test_bad_arguments(kwargs, match):
    with pytest.raises(ValueError, match=match):
        Embedder(**kwargs)


def test_unknown_model_name_while_offline_fails_fast(tmp_path, monkeypatch):
    monkeypatch.setattr(emb_mod, "_hub_reachable", lambda timeout=3.0: False)
    start = time.monotonic()
    with pytest.raises(ValueError, match="not in the Hugging Face cache.*cannot be reached"):
        Embedder("no-such-org/no-such-model-xyz", cache_dir=tmp_path).encode(["Hello there."])
    assert time.monotonic() - start < 30


def test_hub_probe_reports_closed_and_open_ports(monkeypatch):
    from huggingface_hub import constants

    server = socket.socket()
    server.bind(("127.0.0.1", 0))
    server.listen()
    port = server.getsockname()[1]
    try:
        monkeypatch.setattr(constants, "ENDPOINT", f"http://127.0.0.1:{port}")
        assert emb_mod._hub_reachable(timeout=2.0) is True
    finally:
        server.close()
    monkeypatch.setattr(constants, "ENDPOINT", f"http://127.0.0.1:{port}")
    assert emb_mod._hub_reachable(timeout=2.0) is False


def test_token_counts_include_the_special_tokens(embedder):
    assert embedder.count_tokens(["", "Hello world."]) == [2, 5]
    with pytest.raises(ValueError, match="not a single string"):
        embedder.count_tokens("Hello")


def test_tokenizer_loads_alone_when_the_model_is_not_loaded(session_cache_dir):
    fresh = Embedder(cache_dir=session_cache_dir, show_progress=False)
    assert fresh.count_tokens(["The US Open."]) == [6]
    assert fresh._model is None  # the weights were never loaded
