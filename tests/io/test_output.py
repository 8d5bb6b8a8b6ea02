"""Safe output writing (issue 12, faults 1 and 8): nothing at the target path is destroyed.

The tests run as root in CI, where permission checks pass for everything; so read-only files
are recognised by their mode bits, and the immutable attribute stands in for a file root
cannot write.
"""

from __future__ import annotations

import errno
import os
import socket
import stat
import subprocess
import sys
import threading

import pytest

from bpseg_pgm.io import output as out_mod
from bpseg_pgm.io.output import plan_output, write_output, write_outputs


def _listing(folder):
    return sorted(p.name for p in folder.iterdir())


def test_new_file_gets_the_umask_mode_and_no_temporary_is_left(tmp_path):
    target = tmp_path / "out.txt"
    write_output(target, "héllo\n")
    assert target.read_text(encoding="utf-8") == "héllo\n"
    umask = os.umask(0)
    os.umask(umask)
    assert stat.S_IMODE(target.stat().st_mode) == 0o666 & ~umask
    assert _listing(tmp_path) == ["out.txt"]


def test_symlink_stays_a_symlink_and_its_target_gets_the_output(tmp_path):
    real = tmp_path / "real.txt"
    real.write_text("old")
    link = tmp_path / "link.txt"
    link.symlink_to("real.txt")
    write_output(link, "new")
    assert link.is_symlink() and os.readlink(link) == "real.txt"
    assert real.read_text() == "new"
    assert _listing(tmp_path) == ["link.txt", "real.txt"]


def test_symlink_chain_and_dangling_symlink(tmp_path):
    (tmp_path / "sub").mkdir()
    a, b = tmp_path / "a", tmp_path / "b"
    a.symlink_to("b")
    b.symlink_to("sub/c.txt")  # dangling: like a shell's `>`, the output creates the target
    write_output(a, "x")
    assert a.is_symlink() and b.is_symlink()
    assert (tmp_path / "sub" / "c.txt").read_text() == "x"


def test_existing_file_keeps_its_mode(tmp_path):
    target = tmp_path / "secret.txt"
    target.write_text("old")
    target.chmod(0o600)
    write_output(target, "new")
    assert target.read_text() == "new"
    assert stat.S_IMODE(target.stat().st_mode) == 0o600


@pytest.mark.skipif(os.geteuid() != 0, reason="chown needs root")
def test_root_keeps_the_owner_of_a_file_it_replaces(tmp_path):
    target = tmp_path / "theirs.txt"
    target.write_text("old")
    os.chown(target, 65534, 65534)
    target.chmod(0o640)
    write_output(target, "new")
    st = target.stat()
    assert (st.st_uid, st.st_gid, stat.S_IMODE(st.st_mode)) == (65534, 65534, 0o640)


@pytest.mark.parametrize("mode", [0o444, 0o400, 0o000])
def test_read_only_file_is_refused_even_for_root(tmp_path, mode):
    target = tmp_path / "keep.txt"
    target.write_text("precious")
    target.chmod(mode)
    with pytest.raises(ValueError, match=rf"cannot write {target}: it is read-only \(mode {mode:04o}\)"):
        write_output(target, "new")
    target.chmod(0o644)
    assert target.read_text() == "precious" and _listing(tmp_path) == ["keep.txt"]


def test_file_this_user_cannot_write_is_refused(tmp_path):
    target = tmp_path / "locked.txt"
    target.write_text("precious")
    if subprocess.run(["chattr", "+i", str(target)], capture_output=True).returncode != 0:
        pytest.skip("cannot set the immutable attribute here")
    try:
        with pytest.raises(ValueError, match=f"cannot write {target}: permission denied"):
            plan_output(target)
    finally:
        subprocess.run(["chattr", "-i", str(target)], check=True)
    assert target.read_text() == "precious"


def test_dev_null_is_written_directly_not_replaced():
    before = os.stat("/dev/null")
    plan = plan_output("/dev/null")
    assert plan.direct
    write_output("/dev/null", "discarded\n")
    after = os.stat("/dev/null")
    assert stat.S_ISCHR(after.st_mode) and (after.st_ino, after.st_rdev) == (before.st_ino, before.st_rdev)


def test_fifo_is_written_directly(tmp_path):
    fifo = tmp_path / "pipe"
    os.mkfifo(fifo)
    got = []
    reader = threading.Thread(target=lambda: got.append(fifo.read_bytes()))
    reader.start()
    write_output(fifo, "through the pipe")
    reader.join(10)
    assert got == [b"through the pipe"] and stat.S_ISFIFO(fifo.stat().st_mode)
    assert _listing(tmp_path) == ["pipe"]


def test_dev_full_error_names_the_path():
    with pytest.raises(OSError) as exc:
        write_output("/dev/full", "x" * 100000)
    assert exc.value.errno == errno.ENOSPC and exc.value.filename == "/dev/full"


@pytest.mark.parametrize("how", ["pipe", "append"])
def test_dev_stdout_writes_to_the_descriptor(tmp_path, how):
    """``-o /dev/stdout`` goes where standard output goes; ``>> log`` keeps the log's content."""
    code = (
        "import importlib.util, sys\n"  # the module alone: the package would import scikit-learn
        f"spec = importlib.util.spec_from_file_location('output', {out_mod.__file__!r})\n"
        "mod = sys.modules['output'] = importlib.util.module_from_spec(spec); spec.loader.exec_module(mod)\n"
        "mod.write_output(sys.argv[1], 'result\\n')\n"
    )
    log = tmp_path / "log.txt"
    log.write_text("earlier\n")
    for path in ("/dev/stdout", "/proc/self/fd/1", "/dev/fd/1"):
        if how == "pipe":
            proc = subprocess.run([sys.executable, "-c", code, path], capture_output=True, text=True, timeout=60)
            assert (proc.returncode, proc.stdout) == (0, "result\n"), proc.stderr
        else:
            with open(log, "a") as f:
                proc = subprocess.run(
                    [sys.executable, "-c", code, path], stdout=f, stderr=subprocess.PIPE, text=True, timeout=60
                )
            assert proc.returncode == 0, proc.stderr
    if how == "append":
        assert log.read_text() == "earlier\n" + "result\n" * 3
        assert _listing(tmp_path) == ["log.txt"]


def test_directory_block_device_and_socket_are_refused(tmp_path):
    with pytest.raises(ValueError, match="is a directory"):
        plan_output(tmp_path)
    block = next(
        (p for p in ("/dev/loop0", "/dev/vda", "/dev/sda") if os.path.exists(p) and stat.S_ISBLK(os.stat(p).st_mode)),
        None,
    )
    if block is not None:  # only planned, never written
        with pytest.raises(ValueError, match="it is a block device; refusing"):
            plan_output(block)
    sock_path = tmp_path / "s.sock"
    with socket.socket(socket.AF_UNIX) as s:
        s.bind(str(sock_path))
        with pytest.raises(ValueError, match="it is a socket; refusing"):
            plan_output(sock_path)


def test_missing_folder_and_file_in_the_way(tmp_path):
    with pytest.raises(ValueError, match="output directory does not exist"):
        plan_output(tmp_path / "nope" / "out.txt")
    (tmp_path / "file").write_text("")
    with pytest.raises(ValueError, match="cannot write .*not a directory"):
        plan_output(tmp_path / "file" / "out.txt")
    with pytest.raises(ValueError, match="output path is empty"):
        plan_output("")


def test_unwritable_directory_is_found_when_planning(tmp_path, monkeypatch):
    real_access = os.access
    monkeypatch.setattr(
        out_mod.os, "access", lambda p, m, **kw: False if str(p) == str(tmp_path) else real_access(p, m)
    )
    with pytest.raises(ValueError, match=f"cannot write {tmp_path / 'out.txt'}: directory {tmp_path} is not writable"):
        plan_output(tmp_path / "out.txt")


def test_a_failing_write_names_the_target_and_keeps_the_old_file(tmp_path, monkeypatch):
    target = tmp_path / "out.txt"
    target.write_text("old")

    def disk_full(fd):
        raise OSError(errno.ENOSPC, "No space left on device")

    monkeypatch.setattr(out_mod.os, "fsync", disk_full)
    with pytest.raises(OSError) as exc:
        write_output(target, "new")
    assert exc.value.filename == str(target) and ".tmp" not in str(exc.value)
    assert target.read_text() == "old" and _listing(tmp_path) == ["out.txt"]


def test_interrupt_while_writing_keeps_the_old_file(tmp_path, monkeypatch):
    target = tmp_path / "out.txt"
    target.write_text("old")

    def interrupted(fd):
        raise KeyboardInterrupt

    monkeypatch.setattr(out_mod.os, "fsync", interrupted)
    with pytest.raises(KeyboardInterrupt):
        write_output(target, "new")
    assert target.read_text() == "old" and _listing(tmp_path) == ["out.txt"]


def test_group_is_all_or_nothing_when_one_target_is_refused(tmp_path):
    ro = tmp_path / "ro.md"
    ro.write_text("keep")
    ro.chmod(0o444)
    with pytest.raises(ValueError, match="read-only"):
        write_outputs({tmp_path / "a.md": "new", ro: "new"})
    assert _listing(tmp_path) == ["ro.md"]
