"""Issue 22's corpus rows: one run per output folder (a lock), an unwritable output found before any work,
inputs that are not regular files, file names that are not UTF-8, records past --max-bytes, a worker cap."""

import contextlib
import fcntl
import os

import pyarrow.parquet as pq
import pytest

from bpseg_pgm.corpus import run as corpus_run
from bpseg_pgm.corpus import segment_corpus
from bpseg_pgm.corpus.store import LOCK_FILE, CorpusStore

GOOD = (
    "The sun was shining brightly. It was a beautiful morning. I'll play tennis tomorrow. "
    "Stocks fell sharply on Monday. Investors were nervous about rates. Bond yields rose again.\n"
)


@pytest.fixture()
def small(make_folder):
    return make_folder({"good.txt": GOOD})


def _rows(out):
    return pq.read_table(out).to_pylist()


@contextlib.contextmanager
def _held_lock(out):
    """Another run's lock on the new folder ``out`` (its lock file, empty, flocked); yields the descriptor."""
    out.mkdir()
    fd = os.open(out / LOCK_FILE, os.O_CREAT | os.O_RDWR)
    try:
        fcntl.flock(fd, fcntl.LOCK_EX)
        yield fd
    finally:
        os.close(fd)


def _no_work(monkeypatch):
    def refuse(*args, **kwargs):
        raise AssertionError("work started")

    monkeypatch.setattr(corpus_run, "segment_task", refuse)


def test_a_second_run_on_a_locked_output_refuses_at_once_naming_the_first(small, tmp_path, monkeypatch):
    out = tmp_path / "out.parquet"
    first = CorpusStore.open(out, {"model": "m"})  # a run in progress: it holds the folder's lock
    try:
        _no_work(monkeypatch)
        with pytest.raises(ValueError, match=rf"being written by another bpseg corpus run \(pid {os.getpid()} on "):
            segment_corpus(small, out, workers=0, show_progress=False)
        assert (out / "_bpseg_corpus.json").is_file()  # the first run's folder untouched
    finally:
        first.close()
    assert not (out / LOCK_FILE).exists()  # released and removed at the end of a run


def test_a_run_starting_while_the_first_writes_its_settings_is_told_the_folder_is_busy(small, tmp_path, monkeypatch):
    # the first run holds the lock and has only a temporary settings file so far (the instant before its rename):
    # the second must say the folder is being written, not that it is a foreign folder (a CI race)
    out = tmp_path / "out.parquet"
    with _held_lock(out) as fd:
        os.write(fd, b"pid 12345 on elsewhere, started now\n")
        (out / ".tmp-_bpseg_corpus.json").write_text("{")
        _no_work(monkeypatch)
        with pytest.raises(ValueError, match=r"being written by another bpseg corpus run \(pid 12345 on elsewhere"):
            segment_corpus(small, out, workers=0, show_progress=False)
    (out / LOCK_FILE).unlink()  # the lock released with a stray file left: now a foreign folder, refused as such
    with pytest.raises(ValueError, match="is a folder that is not a bpseg corpus output"):
        segment_corpus(small, out, workers=0, show_progress=False)


def test_a_run_that_has_just_taken_the_lock_is_named_once_it_writes_who_it_is(small, tmp_path, monkeypatch):
    # the CI race of session 13: the second run read the lock file in the instant between the first's flock and
    # its writing its pid; it now waits a moment for the name, and says "starting" if none comes
    import threading

    out = tmp_path / "out.parquet"
    with _held_lock(out) as fd:
        _no_work(monkeypatch)
        with pytest.raises(ValueError, match=r"being written by another bpseg corpus run \(starting\)"):
            segment_corpus(small, out, workers=0, show_progress=False)
        timer = threading.Timer(0.1, os.pwrite, (fd, b"pid 4242 on elsewhere, started now\n", 0))
        timer.start()
        try:
            with pytest.raises(ValueError, match=r"being written by another bpseg corpus run \(pid 4242 on elsewhere"):
                segment_corpus(small, out, workers=0, show_progress=False)
        finally:
            timer.join()


def test_another_runs_write_check_is_not_a_foreign_file(small, tmp_path):
    # two runs started together: one may see the other's write check (a probe file there for an instant)
    out = tmp_path / "out.parquet"
    out.mkdir()
    (out / ".bpseg-write-check-abc123").write_text("")
    report = segment_corpus(small, out, workers=0, show_progress=False)
    assert report.n_skipped == 0 and (out / "_bpseg_corpus.json").is_file()


def test_a_lock_file_left_by_a_killed_run_blocks_nothing(small, tmp_path):
    out = tmp_path / "out.parquet"
    segment_corpus(small, out, workers=0, show_progress=False)
    (out / LOCK_FILE).write_text("pid 1 on elsewhere, started long ago\n")  # no process holds it
    report = segment_corpus(small, out, workers=0, show_progress=False)
    assert report.n_skipped == 1
    fd = os.open(out / "_other.lock", os.O_CREAT | os.O_RDWR)
    try:  # a lock held on another file of the folder is not the folder's lock
        fcntl.flock(fd, fcntl.LOCK_EX)
        assert segment_corpus(small, out, workers=0, show_progress=False).n_skipped == 1
    finally:
        os.close(fd)


def test_an_unwritable_output_is_refused_before_any_work(small, tmp_path, monkeypatch):
    out = tmp_path / "out.parquet"
    segment_corpus(small, out, workers=0, show_progress=False)
    (small / "new.txt").write_text(GOOD.replace("tennis", "golf"), encoding="utf-8")
    before = sorted(p.name for p in out.iterdir())
    out.chmod(0o555)
    try:
        if os.geteuid() == 0:  # root writes anywhere: make the folder look as it does to other users
            real = os.access
            monkeypatch.setattr(
                os,
                "access",
                lambda p, m, **kw: False if os.fspath(p) == os.fspath(out) and m & os.W_OK else real(p, m, **kw),
            )
        _no_work(monkeypatch)
        with pytest.raises(ValueError, match=r"cannot write .*out\.parquet: the folder is not writable"):
            segment_corpus(small, out, workers=0, show_progress=False)
    finally:
        out.chmod(0o755)
    assert sorted(p.name for p in out.iterdir()) == before


def test_odd_files_in_the_input_folder_are_error_rows_and_the_rest_is_written(small, tmp_path):
    fd = os.open(os.path.join(os.fsencode(small), b"caf\xe9.txt"), os.O_CREAT | os.O_WRONLY)
    os.write(fd, GOOD.encode())
    os.close(fd)
    os.mkfifo(small / "pipe.txt")
    if os.path.exists("/dev/zero"):
        (small / "zero.txt").symlink_to("/dev/zero")
    out = tmp_path / "out.parquet"
    report = segment_corpus(small, out, workers=0, show_progress=False, max_bytes=10_000)
    errors = {r["doc"]: r["error"] for r in _rows(out) if r["error"] is not None}
    assert "not valid UTF-8" in errors.pop("caf\\xe9.txt")
    assert errors.pop("pipe.txt") == "is a FIFO, not a regular file"
    assert (
        errors.pop("zero.txt", "is a character device, not a regular file")
        == "is a character device, not a regular file"
    )
    assert not errors and report.n_segmented == 1
    assert {r["doc"] for r in _rows(out) if r["error"] is None} == {"good.txt"}


def test_a_meeting_with_one_empty_turn_is_segmented_not_an_error(tmp_path):
    import json

    from bpseg_pgm.text.pipeline import segment_sentences

    units = [
        "The sun was shining brightly.",
        "I'll play tennis tomorrow.",
        "",
        "It was a beautiful morning.",
        "US Open is a tennis tournament.",
        "Stocks fell sharply on Monday.",
        "Investors were nervous about rates.",
    ]
    src = tmp_path / "m.jsonl"
    src.write_text(json.dumps({"id": "m1", "units": units}) + "\n")
    out = tmp_path / "out.parquet"
    report = segment_corpus(src, out, 2, workers=0, show_progress=False)
    assert (report.n_segmented, report.n_failed) == (1, 0)
    rows = sorted(_rows(out), key=lambda r: r["sentence"])
    assert [r["text"] for r in rows] == units and all(r["error"] is None for r in rows)
    joined = "\n".join(units)
    assert [joined[r["start"] : r["end"]] for r in rows] == units
    assert [r["label"] for r in rows] == segment_sentences(units, 2).labels.tolist()
    assert rows[2]["label"] in (rows[1]["label"], rows[3]["label"])  # the empty turn takes a neighbour's segment


def test_workers_are_capped_by_tasks_and_cores(small, tmp_path, monkeypatch):
    started = []
    monkeypatch.setattr(
        corpus_run,
        "_run_dask",
        lambda groups, config, store, progress, workers, scheduler: started.append(
            (len(groups), workers, config.threads)
        ),
    )
    report = segment_corpus(small, tmp_path / "out.parquet", workers=1000, show_progress=False)
    assert started == [(1, 1, corpus_run.local_threads(1))]  # one task: one worker, not 1,000 processes
    assert (report.workers, report.workers_asked) == (1, 1000)
    assert "1 worker(s), not 1000 (at most one per task and two per core)" in report.summary()
    assert corpus_run.max_workers(10**6) == 2 * corpus_run.cores()


def test_giving_a_default_explicitly_resumes(small, tmp_path):
    import json

    out = tmp_path / "out.parquet"
    segment_corpus(small, out, workers=0, show_progress=False)
    assert segment_corpus(small, out, workers=0, show_progress=False, lam=150, engine="potts").n_skipped == 1
    marker = out / "_bpseg_corpus.json"
    old = json.loads(marker.read_text())
    marker.write_text(json.dumps({**old, "params": {"lam": 150.0, "init": "farthest"}}))  # as earlier versions wrote
    assert segment_corpus(small, out, workers=0, show_progress=False).n_skipped == 1
    with pytest.raises(ValueError, match=r"other settings \(lam: not given before, 149 now\)"):
        segment_corpus(small, out, workers=0, show_progress=False, lam=149)
