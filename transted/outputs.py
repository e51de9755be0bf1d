"""Output paths: one clear error for a bad ``--out``, and an exclusive writer lock.

:func:`check_output_file` and :func:`check_output_dir` turn every output-path problem (a
directory where a file is wanted, a missing parent, no write permission, a device or pipe such
as ``/dev/full`` or ``/dev/stdout``, a path that is one of the inputs) into one
:class:`OutputPathError` whose message is a single line naming the path; the CLI prints it and
exits 2. :class:`OutputLock` holds an exclusive ``fcntl.flock`` on ``<out>.lock`` for a whole
run, so two runs writing one result file cannot interleave: the second is refused with
:class:`OutputLocked` naming the holder (pid, host, start time, recorded in the lock file).
``fcntl`` rather than ``filelock``: it is in the standard library, the kernel releases the lock
when the holder dies (even by ``kill -9``), and we need the holder's identity in the file.
"""

from __future__ import annotations

import fcntl
import os
import socket
import stat
import time
from collections.abc import Iterable
from pathlib import Path
from types import TracebackType

from transted.errors import InputError

__all__ = ["OutputPathError", "OutputLocked", "OutputLock", "check_output_file",
           "check_output_dir", "same_file"]


class OutputPathError(InputError):
    """An output path that cannot be used (the message is one line naming it)."""


class OutputLocked(OutputPathError):
    """Another live process is writing the same output file."""


def same_file(a: str | Path, b: str | Path) -> bool:
    """Whether ``a`` and ``b`` name one file (hard links and symlinks included)."""
    try:
        return os.path.samefile(a, b)
    except OSError:
        return Path(a).resolve() == Path(b).resolve()


def check_output_file(path: str | Path, *, inputs: Iterable[str | Path] = (),
                      resume: bool = True) -> Path:
    """Check that ``path`` can hold a resumable result file; return it.

    Raises
    ------
    OutputPathError
        ``path`` is a directory, a device, pipe or socket (``/dev/full``, ``/dev/stdout``:
        results are read back on resume and locked, so they need a regular file), is one of
        ``inputs`` (it would be overwritten), its parent directory is missing or not a
        directory, or it (or its parent, for a new file) is not writable.
    """
    path = Path(path)
    for source in inputs:
        if Path(source).exists() and same_file(path, source):
            raise OutputPathError(f"{path}: is the input file {source}; writing results there "
                                  "would destroy it — choose another output path")
    if str(path.absolute()).startswith(("/dev/", "/proc/")):
        # /dev/stdout may be a pipe (resume would block reading it) or the shell's redirect
        # target; either way not a file to lock, resume and validate.
        raise OutputPathError(f"{path}: is not a regular file (a device or standard stream); "
                              "results must go to a file that can be locked and resumed")
    if path.exists():
        mode = path.stat().st_mode
        if stat.S_ISDIR(mode):
            raise OutputPathError(f"{path}: is a directory; give a file path for the results")
        if not stat.S_ISREG(mode):
            raise OutputPathError(f"{path}: is not a regular file (a device, pipe or socket); "
                                  "results must go to a file that can be locked and resumed")
        if not os.access(path, os.W_OK) or (resume and not os.access(path, os.R_OK)):
            raise OutputPathError(f"{path}: permission denied (not "
                                  f"{'readable and ' if resume else ''}writable)")
        return path
    parent = path.parent
    if not parent.exists():
        raise OutputPathError(f"{path}: the directory {parent} does not exist")
    if not parent.is_dir():
        raise OutputPathError(f"{path}: {parent} is not a directory")
    if not os.access(parent, os.W_OK | os.X_OK):
        raise OutputPathError(f"{path}: permission denied (cannot create files in {parent})")
    return path


def check_output_dir(path: str | Path) -> Path:
    """Check that ``path`` is, or can be created as, a writable directory; return it."""
    path = Path(path)
    if path.exists():
        if not path.is_dir():
            raise OutputPathError(f"{path}: exists and is not a directory")
        if not os.access(path, os.W_OK | os.X_OK):
            raise OutputPathError(f"{path}: permission denied (directory not writable)")
        return path
    existing = next((p for p in path.parents if p.exists()), Path("."))
    if not existing.is_dir():
        raise OutputPathError(f"{path}: {existing} is not a directory")
    if not os.access(existing, os.W_OK | os.X_OK):
        raise OutputPathError(f"{path}: permission denied (cannot create it in {existing})")
    return path


class OutputLock:
    """Exclusive lock on an output file for one writer, via ``<path>.lock``.

    Use as a context manager. The lock file records ``pid=... host=... since=...`` of the
    holder; a second :class:`OutputLock` on the same path (from any process) raises
    :class:`OutputLocked` naming it. The lock file is left behind on release: removing it
    would let a third writer lock a fresh inode while a second still holds the old one.
    """

    def __init__(self, path: str | Path):
        self.path = Path(path)
        self.lock_path = self.path.with_name(self.path.name + ".lock")
        self._fd: int | None = None

    def acquire(self) -> None:
        try:
            fd = os.open(self.lock_path, os.O_RDWR | os.O_CREAT, 0o644)
        except OSError as e:
            raise OutputPathError(f"{self.lock_path}: cannot create the lock file: "
                                  f"{e.strerror}") from e
        try:
            fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except BlockingIOError:
            holder = os.pread(fd, 200, 0).decode("utf-8", "replace").strip() or "unknown"
            os.close(fd)
            raise OutputLocked(f"{self.path}: another transted run is writing it ({holder}); "
                               "wait for it to finish or choose another output path") from None
        os.ftruncate(fd, 0)
        since = time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime())
        os.pwrite(fd, f"pid={os.getpid()} host={socket.gethostname()} since={since}\n"
                  .encode(), 0)
        self._fd = fd

    def release(self) -> None:
        if self._fd is not None:
            fd, self._fd = self._fd, None
            fcntl.flock(fd, fcntl.LOCK_UN)
            os.close(fd)

    def __enter__(self) -> OutputLock:
        self.acquire()
        return self

    def __exit__(self, exc_type: type[BaseException] | None, exc: BaseException | None,
                 tb: TracebackType | None) -> None:
        self.release()
