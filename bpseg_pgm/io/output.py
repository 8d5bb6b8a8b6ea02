"""Write an output file without destroying what is already at the path.

Output is written to a temporary file next to its destination and renamed over it, so a failed or interrupted run
never leaves a half-written file. A bare rename, though, replaces *whatever* is at the path, so the path is looked
at first (:func:`plan_output`, before any slow work, its messages naming the user's path):

* a symlink is followed, and its *target* is replaced; the link stays a link;
* an existing regular file keeps its permission bits (and, as root, its owner); one without any write permission
  bit, or that this user cannot write, is refused;
* character devices, FIFOs and descriptor paths (``/dev/null``, ``/dev/stdout``, ``/proc/self/fd/N``) are written
  to directly, appending, as a shell's ``>>`` would;
* directories, block devices and sockets are refused.

A regular file with several hard links gets a new inode under this name; the other names keep the old content.
"""

from __future__ import annotations

import contextlib
import os
import re
import stat
import tempfile
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path

from bpseg_pgm.utils.files import file_kind

__all__ = ["OutputPlan", "check_not_input", "plan_output", "write_output", "write_outputs"]

# /proc/self/fd, /proc/1234/fd, /proc/self/task/5/fd: the kernel's per-descriptor links
_FD_DIR = re.compile(r"^/proc/(?:self|thread-self|\d+)(?:/task/\d+)?/fd$")
_MAX_LINKS = 40  # like the kernel's ELOOP limit


@dataclass(frozen=True)
class OutputPlan:
    """Where and how one output file is written.

    ``name`` is the path as the user gave it (every message uses it); ``target`` is where the bytes go
    (symlinks followed); ``direct`` means write in place (a device, FIFO or descriptor path); ``mode`` and ``owner``
    are those of the regular file being replaced (None for a new file).
    """

    name: str
    target: Path
    direct: bool = False
    mode: int | None = None
    owner: tuple[int, int] | None = None


def _is_descriptor_path(path: str) -> bool:
    """True if ``path`` is, or leads through symlinks to, a /proc/<pid>/fd/N entry (/dev/stdout, /dev/fd/1)."""
    p = os.path.abspath(path)
    for _ in range(_MAX_LINKS):
        if _FD_DIR.match(os.path.realpath(os.path.dirname(p))):
            return True
        if not os.path.islink(p):
            return False
        p = os.path.join(os.path.dirname(p), os.readlink(p))
    return False


def _fail(name: str, why: str) -> ValueError:
    return ValueError(f"cannot write {name}: {why}")


def plan_output(path: str | os.PathLike) -> OutputPlan:
    """Decide how ``path`` will be written, or raise ValueError (one line, naming ``path``) if it cannot be.

    Nothing is created or changed. Call it before the slow work, and :func:`write_output`
    (which plans again, in case the path changed meanwhile) at the end.
    """
    name = os.fspath(path)
    if not name:
        raise ValueError("output path is empty")
    try:
        st = os.stat(name)  # follows symlinks
    except FileNotFoundError:
        if _is_descriptor_path(name):
            raise _fail(name, "it is not an open file descriptor") from None
        st = None
    except NotADirectoryError:
        raise _fail(name, "a component of its directory is not a directory") from None
    except OSError as exc:  # ELOOP, EACCES, ENAMETOOLONG ...
        raise _fail(name, exc.strerror or type(exc).__name__) from None

    if st is not None and stat.S_ISDIR(st.st_mode):
        raise ValueError(f"output path {name} is a directory")
    if st is not None and (_is_descriptor_path(name) or stat.S_ISCHR(st.st_mode) or stat.S_ISFIFO(st.st_mode)):
        if not os.access(name, os.W_OK):
            raise _fail(name, "permission denied")
        return OutputPlan(name, Path(name), direct=True)
    if st is not None and not stat.S_ISREG(st.st_mode):  # folders, devices and FIFOs are handled above
        raise _fail(name, f"it is {file_kind(st.st_mode)}; refusing to write to it")

    target = Path(os.path.realpath(name))
    parent = target.parent
    if st is not None:
        mode = stat.S_IMODE(st.st_mode)
        if not mode & 0o222:  # root may write anything: the mode bits say what the owner meant
            raise _fail(name, f"it is read-only (mode {mode:04o}); refusing to replace it")
        if not os.access(target, os.W_OK):
            raise _fail(name, "permission denied")
    elif not parent.is_dir():
        if parent.exists():
            raise _fail(name, f"{parent} is not a directory")
        raise ValueError(f"output directory does not exist: {parent}")
    if not os.access(parent, os.W_OK | os.X_OK):
        raise _fail(name, f"directory {parent} is not writable")
    try:  # the real test (read-only mounts, ACLs): an anonymous file, unnamed with O_TMPFILE
        with tempfile.TemporaryFile(dir=parent):
            pass
    except OSError as exc:
        raise _fail(name, f"cannot create a file in {parent}: {exc.strerror or exc}") from None
    if st is None:
        return OutputPlan(name, target)
    return OutputPlan(name, target, mode=stat.S_IMODE(st.st_mode), owner=(st.st_uid, st.st_gid))


def _regular_or_folder(source: str) -> os.stat_result | None:
    """The stat of ``source`` (``"-"``: the file standard input reads) when it is a regular file or a folder."""
    try:
        if source == "-":
            import sys

            if sys.stdin is None:
                return None
            st = os.fstat(sys.stdin.fileno())
        else:
            st = os.stat(source)
    except (OSError, ValueError, AttributeError):  # no such file, a closed or fake stdin: nothing to compare
        return None
    return st if stat.S_ISREG(st.st_mode) or stat.S_ISDIR(st.st_mode) else None


def check_not_input(out: str | os.PathLike, inputs) -> None:
    """Refuse (ValueError, one line naming both paths) an output ``out`` that is one of ``inputs``.

    ``inputs`` are the paths the run reads (None is skipped; ``"-"`` is the file standard input reads, when it is
    redirected from one).  The comparison is on the file itself, as :func:`os.path.samefile` does it (device and
    inode, through any symlink on either side, and a hard link too), so ``-o link.txt`` where ``link.txt -> in.txt``
    is refused as ``-o in.txt`` is. Only regular files and folders count: ``/dev/stdin`` and ``/dev/stdout`` may be
    one terminal, and writing to it destroys nothing.  Call it before any work.
    """
    name = os.fspath(out)
    try:
        target = os.stat(name)
    except (OSError, ValueError):  # nothing there yet (or it cannot be looked at): it is no input
        return
    for source in inputs:
        if source is None:
            continue
        source = os.fspath(source)
        st = _regular_or_folder(source) if source else None
        if st is not None and (st.st_dev, st.st_ino) == (target.st_dev, target.st_ino):
            given = "standard input" if source == "-" else source
            same = "" if source != "-" and os.path.abspath(name) == os.path.abspath(source) else " (the same file)"
            raise ValueError(
                f"output {name} is the input {given}{same}; writing it would destroy the input: "
                "choose another output path"
            )


def _data(content: bytes | str) -> bytes:
    if isinstance(content, str):
        return content.encode("utf-8")
    if isinstance(content, (bytes, bytearray, memoryview)):
        return bytes(content)
    raise TypeError(f"output content must be str or bytes, got {type(content).__name__}")


def _default_mode() -> int:
    umask = os.umask(0)
    os.umask(umask)
    return 0o666 & ~umask


def _stage(plan: OutputPlan, data: bytes) -> str:
    """Write ``data`` to a new temporary file beside ``plan.target``, with the final mode; returns its path."""
    fd, tmp = tempfile.mkstemp(dir=plan.target.parent, prefix=f".{plan.target.name}.", suffix=".tmp")
    try:
        with os.fdopen(fd, "wb") as f:
            f.write(data)
            f.flush()
            os.fsync(f.fileno())
        os.chmod(tmp, _default_mode() if plan.mode is None else plan.mode)  # mkstemp makes 0600
        if plan.owner is not None and os.geteuid() == 0:
            with contextlib.suppress(OSError):  # root keeps the replaced file's owner
                os.chown(tmp, *plan.owner)
                os.chmod(tmp, plan.mode)  # chown clears set-id bits
    except BaseException:
        with contextlib.suppress(OSError):
            os.unlink(tmp)
        raise
    return tmp


def _write_direct(plan: OutputPlan, data: bytes) -> None:
    fd = os.open(plan.name, os.O_WRONLY | os.O_APPEND)
    with os.fdopen(fd, "wb") as f:
        f.write(data)


def _renamed(exc: OSError, name: str) -> OSError:
    """The same error, naming the user's path instead of a temporary file."""
    return OSError(exc.errno, exc.strerror or str(exc), name)


def write_outputs(files: Mapping[str | os.PathLike, bytes | str]) -> list[Path]:
    """Write every ``path -> content`` (str is UTF-8) all-or-nothing; returns the targets.

    Every path is planned first, then every regular file is staged, then all are renamed
    into place; direct targets (devices, FIFOs) are written last. On any failure, or an
    interrupt, the temporaries are removed and the existing files are left as they were.
    """
    plans = [(plan_output(p), _data(c)) for p, c in files.items()]
    staged: list[tuple[str, OutputPlan]] = []
    try:
        for plan, data in plans:
            if not plan.direct:
                try:
                    staged.append((_stage(plan, data), plan))
                except OSError as exc:
                    raise _renamed(exc, plan.name) from None
        for tmp, plan in staged:
            os.replace(tmp, plan.target)
    except BaseException:
        for tmp, _ in staged:
            with contextlib.suppress(OSError):
                os.unlink(tmp)
        raise
    for plan, data in plans:
        if plan.direct:
            try:
                _write_direct(plan, data)
            except OSError as exc:
                raise _renamed(exc, plan.name) from None
    return [plan.target for plan, _ in plans]


def write_output(path: str | os.PathLike, content: bytes | str) -> Path:
    """Write one output file safely (see the module docstring); returns where it went."""
    return write_outputs({path: content})[0]
