"""Issue 12 through the real command line: what is at ``-o`` survives, input is bounded, a
closed stdin or a damaged cache gives one line, output problems are found before the work."""

from __future__ import annotations

import io
import os
import re
import signal
import stat
import subprocess
import sys
import time

import pytest

from bpseg_pgm.cli import main as cli_main
from bpseg_pgm.cli.demo import load_example
from bpseg_pgm.embeddings import Embedder
from bpseg_pgm.embeddings.cache import CACHE_FILENAME


@pytest.fixture
def cached(cli_env, monkeypatch):
    """Run ``cli_main.main`` in this process against the session's pre-filled cache."""
    monkeypatch.setenv("BPSEG_CACHE_DIR", cli_env["BPSEG_CACHE_DIR"])


def _one_error_line(err: str, match: str) -> None:
    lines = err.splitlines()
    assert len(lines) == 1 and lines[0].startswith("bpseg: error: ") and match in lines[0], err
    assert "Traceback" not in err


def _no_embedding(monkeypatch):
    def refuse(self, sentences):
        raise AssertionError("embedded before finding the problem")

    monkeypatch.setattr(Embedder, "encode", refuse)


# -- fault 1: -o keeps what is at the path --------------------------------------------------


def test_output_through_a_symlink_keeps_the_link_and_a_private_mode(cached, example_file, tmp_path, capsys):
    real = tmp_path / "real.txt"
    real.write_text("old")
    real.chmod(0o600)
    link = tmp_path / "link.txt"
    link.symlink_to(real)
    assert cli_main.main(["segment", str(example_file), "--lines", "-k", "3", "-o", str(link)]) == 0
    assert link.is_symlink() and re.search(r"^\[(Segment|Topic) 1\]", real.read_text(), re.M)
    assert stat.S_IMODE(real.stat().st_mode) == 0o600
    assert sorted(p.name for p in tmp_path.iterdir()) == ["link.txt", "real.txt"]
    assert capsys.readouterr().err == ""


def test_read_only_output_is_refused_before_any_work(cached, example_file, tmp_path, capsys, monkeypatch):
    target = tmp_path / "keep.txt"
    target.write_text("precious")
    target.chmod(0o444)
    _no_embedding(monkeypatch)
    assert cli_main.main(["segment", str(example_file), "--lines", "-o", str(target)]) == 2
    _one_error_line(capsys.readouterr().err, f"cannot write {target}: it is read-only (mode 0444)")
    assert target.read_text() == "precious" and stat.S_IMODE(target.stat().st_mode) == 0o444


def test_dev_null_stays_a_device(cached, example_file, capsys):
    before = os.stat("/dev/null")
    assert cli_main.main(["segment", str(example_file), "--lines", "-o", "/dev/null"]) == 0
    after = os.stat("/dev/null")
    assert stat.S_ISCHR(after.st_mode) and after.st_ino == before.st_ino
    assert capsys.readouterr() == ("", "")


def test_dev_stdout_reaches_standard_output(cli_env, example_file, run_bpseg):
    proc = run_bpseg(["segment", example_file, "--lines", "-k", "3", "--format", "json", "-o", "/dev/stdout"], cli_env)
    assert proc.returncode == 0, proc.stderr
    assert proc.stdout.lstrip().startswith("{") and proc.stderr == ""


# -- fault 8: output problems are found before the work and name the user's path ------------


@pytest.mark.parametrize(
    "make, match",
    [
        (lambda d: d / "missing" / "out.txt", "output directory does not exist"),
        (lambda d: d, "is a directory"),
    ],
)
def test_bad_output_is_found_before_embedding(cached, example_file, tmp_path, capsys, monkeypatch, make, match):
    _no_embedding(monkeypatch)
    assert cli_main.main(["segment", str(example_file), "--lines", "-o", str(make(tmp_path))]) == 2
    _one_error_line(capsys.readouterr().err, match)


def test_write_error_names_the_target_not_the_temporary(cached, example_file, tmp_path, capsys, monkeypatch):
    import errno

    from bpseg_pgm.io import output as out_mod

    def disk_full(fd):
        raise OSError(errno.ENOSPC, "No space left on device")

    monkeypatch.setattr(out_mod.os, "fsync", disk_full)
    target = tmp_path / "out.txt"
    assert cli_main.main(["segment", str(example_file), "--lines", "-o", str(target)]) == 2
    err = capsys.readouterr().err
    _one_error_line(err, f"No space left on device: {target}")
    assert ".tmp" not in err and list(tmp_path.iterdir()) == []


# -- fault 4: bounded input ----------------------------------------------------------------


def test_dev_zero_is_refused_as_binary_at_once(cli_env, run_bpseg):
    t = time.monotonic()
    proc = run_bpseg(["segment", "/dev/zero"], cli_env, timeout=60)
    assert proc.returncode == 2
    _one_error_line(proc.stderr, "/dev/zero looks like a binary file")
    assert time.monotonic() - t < 30


def test_endless_stdin_stops_at_max_bytes(cli_env, bpseg_module_cmd):
    yes = subprocess.Popen(["yes", "Another line of the same text."], stdout=subprocess.PIPE)
    try:
        proc = subprocess.run(
            [*bpseg_module_cmd, "segment", "-", "--lines", "--max-bytes", "2M"],
            stdin=yes.stdout,
            env=cli_env,
            capture_output=True,
            text=True,
            timeout=120,
        )
    finally:
        yes.kill()
        yes.wait()
        yes.stdout.close()
    assert proc.returncode == 2
    _one_error_line(proc.stderr, "standard input is larger than --max-bytes (2M)")


class _Stream(io.RawIOBase):
    """A binary stream of ``head`` then endless ``fill``, counting the bytes read."""

    def __init__(self, head: bytes, fill: bytes = b"a"):
        self.head, self.fill, self.read_bytes = head, fill, 0

    def readable(self):
        return True

    def readinto(self, buf):
        n = len(buf)
        data = (self.head + self.fill * n)[:n]
        self.head = self.head[n:]
        buf[:n] = data
        self.read_bytes += n
        return n


@pytest.mark.parametrize("head, match", [(b"ok text \x00", "binary"), (b"caf\xe9 au lait", "not valid UTF-8")])
def test_bad_bytes_are_found_while_reading_not_after(head, match):
    stream = _Stream(head)
    with pytest.raises(ValueError, match=match):
        cli_main._read_bounded(stream, "input", 50 * 2**20)
    assert stream.read_bytes <= 2 * cli_main._READ_CHUNK


def test_max_bytes_is_exact_and_documented(tmp_path, capsys):
    f = tmp_path / "in.txt"
    f.write_bytes(b"A sentence here. " * 60)  # 1020 bytes
    assert cli_main._read_input(str(f), 1020).startswith("A sentence")
    with pytest.raises(ValueError, match=r"in.txt is larger than --max-bytes \(1019 bytes\)"):
        cli_main._read_input(str(f), 1019)
    with pytest.raises(SystemExit):
        cli_main.main(["segment", "--help"])
    help_text = " ".join(capsys.readouterr().out.split())
    assert "--max-bytes SIZE read at most this much input" in help_text and "(default 50M)" in help_text


@pytest.mark.parametrize(
    "value, size",
    [
        ("1000", 1000),
        ("2k", 2048),
        ("50M", 50 * 2**20),
        ("1G", 2**30),
        ("1.5M", int(1.5 * 2**20)),
        ("10MB", 10 * 2**20),
        ("3 KiB", 3072),
    ],
)
def test_byte_sizes(value, size):
    assert cli_main._byte_size(value) == size


# -- fault 6: closed standard streams ------------------------------------------------------


def test_closed_stdin_is_one_line(cli_env, bpseg_module_cmd):
    proc = subprocess.run(
        [*bpseg_module_cmd, "segment", "-"],
        env=cli_env,
        capture_output=True,
        text=True,
        timeout=120,
        preexec_fn=lambda: os.close(0),
    )
    assert proc.returncode == 2
    _one_error_line(proc.stderr, "standard input is closed")


def test_closed_stdout_is_one_line_before_the_work(cached, example_file, monkeypatch, capsys):
    _no_embedding(monkeypatch)
    monkeypatch.setattr(sys, "stdout", None)
    assert cli_main.main(["segment", str(example_file), "--lines"]) == 2
    _one_error_line(capsys.readouterr().err, "standard output is closed")


# -- faults 2 and 3 through the command line -------------------------------------------------


def test_reference_overflow_is_one_line_and_no_invalid_json(cached, example_file, tmp_path, capsys):
    out = tmp_path / "out.json"
    argv = [
        "segment",
        str(example_file),
        "--lines",
        "-k",
        "3",
        "--engine",
        "reference",
        "--lam",
        "1e308",
        "--format",
        "json",
        "-o",
        str(out),
    ]
    assert cli_main.main(argv) == 2
    _one_error_line(capsys.readouterr().err, "reference solver")
    assert not out.exists()


def test_corrupt_cache_heals_with_one_warning(cli_env, example_file, tmp_path, monkeypatch, capsys):
    cache_dir = tmp_path / "cache"
    cache_dir.mkdir()
    (cache_dir / CACHE_FILENAME).write_bytes(b"\x00garbage" * 512)
    monkeypatch.setenv("BPSEG_CACHE_DIR", str(cache_dir))
    assert cli_main.main(["segment", str(example_file), "--lines", "-k", "3"]) == 0
    out, err = capsys.readouterr()
    assert out.count("[Segment ") + out.count("[Topic ") == 3
    lines = err.splitlines()  # the warning, then the phase lines of the work it made (tests/cli/test_progress.py)
    assert lines[0].startswith("bpseg: warning: the embedding cache") and "was corrupt" in lines[0]
    assert lines[1:] == [
        "bpseg: loading the model all-MiniLM-L6-v2",
        "bpseg: embedding 13 of 13 sentences",
        "bpseg: fitting 13 sentences",
    ]
    assert len(list(cache_dir.glob(f"{CACHE_FILENAME}.corrupt-*"))) == 1
    # healed: the next run finds every sentence and says nothing
    monkeypatch.setattr(Embedder, "_load", lambda self: pytest.fail("model loaded: the cache did not heal"))
    assert cli_main.main(["segment", str(example_file), "--lines", "-k", "3"]) == 0
    assert capsys.readouterr().err == ""


def test_read_only_cache_warns_before_embedding_and_the_run_succeeds(cli_env, tmp_path, monkeypatch, capsys):
    """The audit's case: a cache file that cannot be written, in a writable folder, and a sentence
    that is not cached yet (it used to fail with 'attempt to write a readonly database' after the
    embedding). As root, the immutable attribute makes a file unwritable."""
    cache_dir = tmp_path / "cache"
    Embedder(cache_dir=cache_dir, show_progress=False).encode(load_example())
    db = cache_dir / CACHE_FILENAME
    if subprocess.run(["chattr", "+i", str(db)], capture_output=True).returncode != 0:
        pytest.skip("cannot set the immutable attribute here")
    try:
        src = tmp_path / "in.txt"
        src.write_text("\n".join([*load_example(), "A sentence the cache has never seen before today."]) + "\n")
        monkeypatch.setenv("BPSEG_CACHE_DIR", str(cache_dir))
        seen_before_embedding = []
        real = Embedder._encode_missing

        def spy(self, missing, cache):
            seen_before_embedding.append(capsys.readouterr().err)
            return real(self, missing, cache)

        monkeypatch.setattr(Embedder, "_encode_missing", spy)
        assert cli_main.main(["segment", str(src), "--lines", "-k", "3"]) == 0
        out, err = capsys.readouterr()
        assert out.count("[Segment ") + out.count("[Topic ") == 3 and err == "bpseg: fitting 14 sentences\n"
        assert len(seen_before_embedding) == 1
        lines = seen_before_embedding[0].splitlines()  # the warning, then the phase lines (tests/cli/test_progress.py)
        assert (
            len(lines) == 3
            and lines[0].startswith("bpseg: warning: the embedding cache")
            and "cannot be written" in lines[0]
            and lines[1:] == ["bpseg: loading the model all-MiniLM-L6-v2", "bpseg: embedding 1 of 14 sentences"]
        ), lines
    finally:
        subprocess.run(["chattr", "-i", str(db)], check=True)


# -- kept promise: an interrupt leaves the old output intact ---------------------------------


def _wait_until_blocked_reading(pid: int, timeout: float = 60.0) -> None:
    """Wait until the process sleeps in a pipe read (Linux /proc), so the signal lands mid-work
    rather than during interpreter start-up on a slow, loaded machine; else wait 0.5 s."""
    wchan = f"/proc/{pid}/wchan"
    if not os.path.exists(wchan):
        time.sleep(0.5)
        return
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        with open(wchan) as fh:
            where = fh.read()
        if "pipe_read" in where or "pipe_wait" in where:
            break
        time.sleep(0.05)
    time.sleep(0.2)


def test_sigint_while_working_keeps_the_old_output(cli_env, tmp_path, bpseg_module_cmd):
    fifo = tmp_path / "in.fifo"
    os.mkfifo(fifo)
    out = tmp_path / "out.txt"
    out.write_text("previous result")
    # a test run started in the background (`pytest &`) inherits SIGINT ignored, and so would the
    # child: give it the default disposition, as an interactive shell does
    proc = subprocess.Popen(
        [*bpseg_module_cmd, "segment", str(fifo), "--lines", "-o", str(out)],
        env=cli_env,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        preexec_fn=lambda: signal.signal(signal.SIGINT, signal.SIG_DFL),
    )
    try:
        with open(fifo, "w") as w:  # opens once bpseg has planned the output and started reading
            w.write("First sentence of a file that never ends.\n")
            w.flush()
            _wait_until_blocked_reading(proc.pid)
            proc.send_signal(signal.SIGINT)
            _, err = proc.communicate(timeout=120)
    finally:
        if proc.poll() is None:
            proc.kill()
    assert proc.returncode == 130
    _one_error_line(err, "interrupted")
    assert out.read_text() == "previous result"
    assert sorted(p.name for p in tmp_path.iterdir()) == ["in.fifo", "out.txt"]
