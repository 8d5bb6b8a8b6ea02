"""The SQLite embedding cache: exact float32 round trip, keyed by model and text, no pickle."""

import sqlite3

import numpy as np
import pytest

from bpseg_pgm.text.cache import CACHE_FILENAME, EmbeddingCache, default_cache_dir


def _vectors(n, d=8, seed=0):
    return np.random.default_rng(seed).standard_normal((n, d)).astype(np.float32)


def test_round_trip_is_exact_and_keyed_by_model_and_text(tmp_path):
    texts = ["alpha", "beta", "gamma ünïcödé", ""]
    vecs = _vectors(len(texts))
    with EmbeddingCache(tmp_path) as cache:
        cache.put_many("model-a", zip(texts, vecs))
        got = cache.get_many("model-a", texts + ["missing"])
        assert set(got) == set(texts)
        for t, v in zip(texts, vecs):
            assert got[t].dtype == np.float32
            np.testing.assert_array_equal(got[t], v)
        assert cache.get_many("model-b", texts) == {}
        assert len(cache) == len(texts)


def test_persists_across_connections_and_overwrites(tmp_path):
    with EmbeddingCache(tmp_path) as cache:
        cache.put_many("m", [("x", np.ones(3))])
        cache.put_many("m", [("x", np.full(3, 2.0))])
    with EmbeddingCache(tmp_path) as cache:
        np.testing.assert_array_equal(cache.get_many("m", ["x"])["x"], np.full(3, 2.0, dtype=np.float32))
        assert len(cache) == 1


def test_bulk_batches_larger_than_one_query(tmp_path):
    texts = [f"sentence number {i}" for i in range(2345)]
    vecs = _vectors(len(texts), d=16, seed=1)
    with EmbeddingCache(tmp_path) as cache:
        cache.put_many("m", zip(texts, vecs))
        got = cache.get_many("m", texts[::-1] + texts[:10])
    assert len(got) == len(texts)
    np.testing.assert_array_equal(np.stack([got[t] for t in texts]), vecs)


def test_storage_is_raw_float32_bytes_not_pickle(tmp_path):
    with EmbeddingCache(tmp_path) as cache:
        cache.put_many("m", [("hello", np.array([1.5, -2.0], dtype=np.float64))])
    con = sqlite3.connect(tmp_path / CACHE_FILENAME)
    (model, key, dim, blob), = con.execute("SELECT model, key, dim, vec FROM embeddings").fetchall()
    con.close()
    assert (model, dim, len(key)) == ("m", 2, 32)
    assert blob == np.array([1.5, -2.0], dtype="<f4").tobytes()


def test_truncated_row_is_a_miss(tmp_path):
    with EmbeddingCache(tmp_path) as cache:
        cache.put_many("m", [("a", np.ones(4)), ("b", np.ones(4))])
        with cache._conn:
            cache._conn.execute("UPDATE embeddings SET vec = X'0000' WHERE key = (SELECT MIN(key) FROM embeddings)")
        assert len(cache.get_many("m", ["a", "b"])) == 1


def test_default_dir_honours_env(monkeypatch, tmp_path):
    monkeypatch.setenv("BPSEG_CACHE_DIR", str(tmp_path / "here"))
    assert default_cache_dir() == tmp_path / "here"
    monkeypatch.delenv("BPSEG_CACHE_DIR")
    monkeypatch.setenv("HOME", str(tmp_path))
    assert default_cache_dir() == tmp_path / ".cache" / "bpseg_pgm"
    with EmbeddingCache() as cache:
        cache.put_many("m", [("x", np.ones(2))])
    assert (tmp_path / ".cache" / "bpseg_pgm" / CACHE_FILENAME).is_file()


def test_unusable_directory_is_a_clear_value_error(tmp_path):
    blocker = tmp_path / "file"
    blocker.write_text("not a directory")
    with pytest.raises(ValueError, match="cannot use embedding cache.*BPSEG_CACHE_DIR"):
        EmbeddingCache(blocker / "sub")
