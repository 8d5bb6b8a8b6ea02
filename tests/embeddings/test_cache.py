"""The SQLite embedding cache: exact float32 round trip, keyed by model and text, no pickle."""

import os
import sqlite3
import warnings

import numpy as np
import pytest

from bpseg_pgm.embeddings.cache import CACHE_FILENAME, CacheWarning, EmbeddingCache, default_cache_dir, row_checksum


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
    ((model, key, dim, blob),) = con.execute("SELECT model, key, dim, vec FROM embeddings").fetchall()
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


def test_unusable_directory_degrades_to_no_cache_with_one_warning(tmp_path):
    blocker = tmp_path / "file"
    blocker.write_text("not a directory")
    with pytest.warns(CacheWarning, match="cannot create the embedding cache folder.*BPSEG_CACHE_DIR") as rec:
        cache = EmbeddingCache(blocker / "sub")
    assert len(rec) == 1 and not cache.usable and not cache.writable
    with cache:
        cache.put_many("m", [("x", np.ones(2))])
        assert cache.get_many("m", ["x"]) == {} and len(cache) == 0
    assert blocker.read_text() == "not a directory"


# -- issue 12, faults 3 and 7: a damaged or unwritable cache never fails a run ---------------


def _filled(tmp_path, n=50, d=16):
    texts = [f"sentence {i}" for i in range(n)]
    vecs = _vectors(n, d)
    with EmbeddingCache(tmp_path) as cache:
        cache.put_many("m", zip(texts, vecs))
    return texts, vecs


def _aside(tmp_path):
    return sorted(
        p.name for p in tmp_path.iterdir() if ".corrupt-" in p.name and "-wal" not in p.name and "-shm" not in p.name
    )


def test_garbage_pages_in_the_middle_are_moved_aside_and_the_cache_rebuilt(tmp_path):
    texts, vecs = _filled(tmp_path, n=400, d=64)
    path = tmp_path / CACHE_FILENAME
    data = bytearray(path.read_bytes())
    assert len(data) > 20 * 4096
    data[4096 * 3 : 4096 * 12] = np.random.default_rng(5).integers(0, 256, 4096 * 9, dtype=np.uint8).tobytes()
    path.write_bytes(bytes(data))
    with pytest.warns(CacheWarning, match="was corrupt.*moved it to embeddings.sqlite3.corrupt-.*started a new one"):
        with EmbeddingCache(tmp_path) as cache:
            got = cache.get_many("m", texts)  # the damage is found while reading: those rows are misses
            assert len(got) < len(texts)
            cache.put_many("m", zip(texts, vecs))  # and the rebuilt cache takes new rows
    with EmbeddingCache(tmp_path) as cache:
        got = cache.get_many("m", texts)
    assert len(got) == len(texts)
    np.testing.assert_array_equal(np.stack([got[t] for t in texts]), vecs)
    assert len(_aside(tmp_path)) == 1  # the damaged file is kept for inspection, not deleted


def test_truncated_header_heals_instead_of_blaming_the_directory(tmp_path):
    texts, vecs = _filled(tmp_path)
    path = tmp_path / CACHE_FILENAME
    path.write_bytes(b"SQLite fo")  # a torn header: "file is not a database"
    with pytest.warns(CacheWarning, match="was corrupt") as rec:
        with EmbeddingCache(tmp_path) as cache:
            assert cache.usable and cache.writable
            assert cache.get_many("m", texts) == {}
            cache.put_many("m", zip(texts, vecs))
    assert not any("BPSEG_CACHE_DIR" in str(w.message) for w in rec)
    with EmbeddingCache(tmp_path) as cache:
        assert len(cache.get_many("m", texts)) == len(texts)
    assert len(_aside(tmp_path)) == 1


@pytest.mark.parametrize("bad", [np.nan, np.inf, 0.0], ids=["nan", "inf", "zero"])
def test_non_finite_or_zero_rows_are_misses(tmp_path, bad):
    texts, vecs = _filled(tmp_path, n=3, d=4)
    broken = np.full(4, bad, dtype=np.float32)
    with EmbeddingCache(tmp_path) as cache:
        cache.put_many("m", [(texts[1], broken)])
        got = cache.get_many("m", texts)
    assert set(got) == {texts[0], texts[2]}


def test_row_of_the_wrong_dimension_is_a_miss(tmp_path):
    with EmbeddingCache(tmp_path) as cache:
        cache.put_many("m", [("a", np.ones(4)), ("b", np.ones(3))])
        with cache._conn:  # a dim column that disagrees with the blob is damage too
            cache._conn.execute("UPDATE embeddings SET dim = 2 WHERE key = (SELECT MIN(key) FROM embeddings)")
        assert len(cache.get_many("m", ["a", "b"])) == 1
        assert set(cache.get_many("m", ["a", "b"], dim=4)) <= {"a"}


def _read_only_connect(monkeypatch):
    """sqlite3.connect as a user who may read but not write the cache file would get it.

    (The tests run as root, for whom a 0444 file is writable; SQLite's read-only open gives
    the same 'attempt to write a readonly database' the audit saw.)
    """
    import bpseg_pgm.embeddings.cache as cache_mod

    real = sqlite3.connect
    monkeypatch.setattr(cache_mod.sqlite3, "connect", lambda path, **kw: real(f"file:{path}?mode=ro", uri=True, **kw))


def test_read_only_cache_is_read_but_not_written_and_warns_before_any_work(tmp_path, monkeypatch):
    texts, vecs = _filled(tmp_path, n=5, d=4)
    _read_only_connect(monkeypatch)
    with pytest.warns(CacheWarning, match="cannot be written.*not stored") as rec:
        cache = EmbeddingCache(tmp_path)  # the warning comes when the cache opens, before any embedding
    assert len(rec) == 1
    with cache:
        assert cache.usable and not cache.writable
        assert len(cache.get_many("m", texts)) == 5
        cache.put_many("m", [("new", np.ones(4))])  # silently skipped: warned already
    monkeypatch.undo()
    with EmbeddingCache(tmp_path) as cache:
        assert cache.get_many("m", ["new"]) == {} and len(cache) == 5


def test_write_failure_after_opening_degrades_with_one_warning(tmp_path):
    with EmbeddingCache(tmp_path) as cache:
        cache._conn.execute("PRAGMA query_only = ON")  # every write now fails, as on a disk gone read-only
        with pytest.warns(CacheWarning, match="new embeddings are not being cached") as rec:
            cache.put_many("m", [("a", np.ones(4))])
            cache.put_many("m", [("b", np.ones(4))])
        assert len(rec) == 1 and not cache.writable


def test_unreadable_file_degrades_to_no_cache(tmp_path, monkeypatch):
    (tmp_path / CACHE_FILENAME).mkdir()  # a directory where the file should be
    with pytest.warns(CacheWarning, match="embeddings will not be cached") as rec:
        with EmbeddingCache(tmp_path) as cache:
            assert not cache.usable
            assert cache.get_many("m", ["x"]) == {}
            cache.put_many("m", [("x", np.ones(2))])
    assert len(rec) == 1


def test_quarantine_does_not_move_a_cache_another_process_already_rebuilt(tmp_path):
    texts, vecs = _filled(tmp_path, n=3, d=4)
    with EmbeddingCache(tmp_path) as cache:
        # another process healed the file meanwhile: the path now holds a different, good database
        path = tmp_path / CACHE_FILENAME
        os.replace(path, tmp_path / "old")
        with EmbeddingCache(tmp_path) as other:
            other.put_many("m", [("fresh", np.ones(4))])
        with warnings.catch_warnings():
            warnings.simplefilter("error")  # nothing to report: it just reconnects
            cache._heal(sqlite3.DatabaseError("database disk image is malformed"))
        assert cache.get_many("m", ["fresh"]).keys() == {"fresh"}
    assert _aside(tmp_path) == [] and (tmp_path / "old").is_file()


def test_shared_by_processes_while_one_heals(tmp_path):
    """Four processes write the same cache at once; then the file is damaged and they all heal it."""
    import subprocess
    import sys

    import bpseg_pgm.embeddings.cache as cache_module

    script = (
        "import importlib.util, sys, warnings, numpy as np\n"
        # the module alone: importing the package (scikit-learn, pgmpy) would take most of the time
        f"spec = importlib.util.spec_from_file_location('cache', {cache_module.__file__!r})\n"
        "mod = importlib.util.module_from_spec(spec); spec.loader.exec_module(mod)\n"
        "EmbeddingCache = mod.EmbeddingCache\n"
        "warnings.simplefilter('ignore')\n"
        "i = int(sys.argv[2])\n"
        "texts = [f'p{i} s{j}' for j in range(200)]\n"
        "vecs = np.random.default_rng(i).standard_normal((200, 8)).astype('float32') + 0.1\n"
        "for start in range(0, 200, 20):\n"
        "    with EmbeddingCache(sys.argv[1]) as c:\n"
        "        c.put_many('m', zip(texts[start:start + 20], vecs[start:start + 20]))\n"
        "with EmbeddingCache(sys.argv[1]) as c:\n"
        "    got = c.get_many('m', texts)\n"
        "assert len(got) == 200, len(got)\n"
    )

    def run_all():
        procs = [subprocess.Popen([sys.executable, "-c", script, str(tmp_path), str(i)]) for i in range(4)]
        return [p.wait(timeout=120) for p in procs]

    assert run_all() == [0, 0, 0, 0]
    (tmp_path / CACHE_FILENAME).write_bytes(b"garbage, not a database" * 100)
    for suffix in ("-wal", "-shm"):
        (tmp_path / (CACHE_FILENAME + suffix)).unlink(missing_ok=True)
    assert run_all() == [0, 0, 0, 0]
    with EmbeddingCache(tmp_path) as cache:
        assert len(cache) == 800


def test_a_late_healer_leaves_the_new_cache_and_its_wal_alone(tmp_path):
    """Two processes saw the same corrupt file. The first moved it aside and started a new cache, whose rows
    are still in its -wal; the second, healing late, finds no file of its own at the path and must move
    nothing (it used to move the new cache's -wal aside, and those rows were lost: 180 of 200 in CI)."""
    path = tmp_path / CACHE_FILENAME
    path.write_bytes(b"garbage, not a database" * 100)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", CacheWarning)
        late = EmbeddingCache(tmp_path)  # a process that saw the corrupt file (here it heals it at once)
    late.close()
    # the "first process": the corrupt file is moved aside, then a new cache is started and written to,
    # its rows in the -wal (a connection left open keeps them there, uncheckpointed)
    for leftover in tmp_path.glob(CACHE_FILENAME + "*"):
        leftover.unlink()
    writer = sqlite3.connect(path)
    writer.execute("PRAGMA journal_mode=WAL")
    writer.execute("PRAGMA wal_autocheckpoint=0")
    with writer:
        writer.execute("CREATE TABLE t (x)")
        writer.executemany("INSERT INTO t VALUES (?)", [(i,) for i in range(20)])
    wal = tmp_path / (CACHE_FILENAME + "-wal")
    assert wal.is_file() and wal.stat().st_size > 0
    # the late healer: it last saw the corrupt file (an inode that is gone), and the path is briefly empty
    late._inode = (-1, -1)
    path_inode = os.stat(path)
    os.replace(path, tmp_path / "moving")  # the moment between "moved aside" and "new cache created"
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", CacheWarning)
        assert late._quarantine(sqlite3.DatabaseError("file is not a database")) is True
    os.replace(tmp_path / "moving", path)
    assert wal.is_file() and wal.stat().st_size > 0  # the new cache's -wal stayed where it was
    assert os.stat(path).st_ino == path_inode.st_ino
    assert writer.execute("SELECT count(*) FROM t").fetchone() == (20,)
    writer.close()
    check = sqlite3.connect(path)
    assert check.execute("SELECT count(*) FROM t").fetchone() == (20,)
    check.close()


def _rows(cache):
    return cache._conn.execute("SELECT model, key, dim, vec, checksum FROM embeddings ORDER BY key").fetchall()


def _swap(conn, column):
    """Swap ``column`` between the two rows (a vector replaced by another valid one, or rows moved between texts)."""
    (r1, v1), (r2, v2) = conn.execute(f"SELECT rowid, {column} FROM embeddings ORDER BY rowid").fetchall()
    conn.execute(f"UPDATE embeddings SET {column} = ? WHERE rowid = ?", (b"tmp" if column == "key" else v2, r1))
    conn.execute(f"UPDATE embeddings SET {column} = ? WHERE rowid = ?", (v1, r2))
    if column == "key":
        conn.execute(f"UPDATE embeddings SET {column} = ? WHERE rowid = ?", (v2, r1))


@pytest.mark.parametrize(
    "tamper",
    [
        lambda conn: _swap(conn, "vec"),
        lambda conn: _swap(conn, "key"),
        lambda conn: conn.execute(
            "UPDATE embeddings SET model = 'other' WHERE key = (SELECT MIN(key) FROM embeddings)"
        ),
        # written by another program, which knows no checksum
        lambda conn: conn.execute(
            "UPDATE embeddings SET checksum = NULL WHERE key = (SELECT MIN(key) FROM embeddings)"
        ),
    ],
    ids=["vectors-swapped", "keys-swapped", "model-moved", "no-checksum"],
)
def test_a_foreign_write_is_a_miss_and_is_overwritten(tmp_path, tamper):
    a, b = np.array([1.0, 0.0, 0.0]), np.array([0.0, 1.0, 0.0])
    with EmbeddingCache(tmp_path) as cache:
        cache.put_many("m", [("a", a), ("b", b)])
        with cache._conn:
            tamper(cache._conn)
        got = cache.get_many("m", ["a", "b"]) | cache.get_many("other", ["a", "b"])
        assert len(got) < 2  # the tampered rows are not read
        for text, vec in got.items():
            np.testing.assert_array_equal(vec, {"a": a, "b": b}[text])  # nothing read is wrong
        cache.put_many("m", [("a", a), ("b", b)])  # embedded again: overwritten with valid rows
        got = cache.get_many("m", ["a", "b"])
        np.testing.assert_array_equal(got["a"], a)
        np.testing.assert_array_equal(got["b"], b)


def _legacy_cache(path, rows):
    """A cache as versions before checksums made it."""
    import sqlite3

    conn = sqlite3.connect(path / CACHE_FILENAME)
    with conn:
        conn.execute(
            "CREATE TABLE embeddings (model TEXT NOT NULL, key BLOB NOT NULL, dim INTEGER NOT NULL, "
            "vec BLOB NOT NULL, UNIQUE (model, key))"
        )
        conn.executemany("INSERT INTO embeddings VALUES (?, ?, ?, ?)", rows)
    conn.close()


def test_a_cache_made_before_checksums_gets_them_once_and_is_read(tmp_path):
    import hashlib

    vec = np.array([0.5, -1.0], dtype="<f4")
    key = hashlib.sha256(b"hello").digest()
    _legacy_cache(tmp_path, [("m", key, 2, vec.tobytes())])
    with EmbeddingCache(tmp_path) as cache:
        np.testing.assert_array_equal(cache.get_many("m", ["hello"])["hello"], vec)  # trusted as it was
        assert _rows(cache)[0][4] == row_checksum("m", key, 2, vec.tobytes())
    with EmbeddingCache(tmp_path) as cache:  # opened again: nothing to add
        assert len(cache.get_many("m", ["hello"])) == 1


def test_a_read_only_cache_made_before_checksums_is_still_read(tmp_path, monkeypatch):
    import hashlib

    vec = np.array([0.5, -1.0], dtype="<f4")
    _legacy_cache(tmp_path, [("m", hashlib.sha256(b"hello").digest(), 2, vec.tobytes())])
    _read_only_connect(monkeypatch)
    with pytest.warns(CacheWarning, match="cannot be written"):
        cache = EmbeddingCache(tmp_path)
    with cache:
        assert cache.usable and not cache.writable
        np.testing.assert_array_equal(cache.get_many("m", ["hello"])["hello"], vec)
