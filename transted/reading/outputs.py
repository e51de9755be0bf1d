"""Output paths: one clear error for a bad ``--out``, and an exclusive writer lock.

:func:`check_output_file` and :func:`check_output_dir` turn every output-path problem (a
directory where a file is wanted, a missing parent, no write permission, a device or pipe such
as ``/dev/full`` or ``/dev/stdout``, a path that is one of the inputs, an existing file that is
not transted's own output) into one :class:`OutputPathError` whose message is a single line
naming the path; the CLI prints it and exits 2. :class:`OutputLock` holds an exclusive
``fcntl.flock`` on ``<out>.lock`` for a whole run, so two runs writing one result file cannot
interleave: the second is refused with :class:`OutputLocked` naming the holder (pid, host,
start time, recorded in the lock file); the lock file is removed when the run ends.
``fcntl`` rather than ``filelock``: it is in the standard library, the kernel releases the lock
when the holder dies (even by ``kill -9``), and we need the holder's identity in the file.
"""

from __future__ import annotations

import fcntl
import json
import os
import socket
import stat
import time
from collections.abc import Iterable
from pathlib import Path
from types import TracebackType

from transted.errors import InputError

__all__ = ["OutputPathError", "OutputLocked", "OutputLock", "RepairedOutputWarning",
           "check_output_file", "check_output_dir", "same_file", "RESULT_KEYS"]

RESULT_KEYS = ("id", "metric", "signature")
"""The fields every line of a transted result file has."""


class RepairedOutputWarning(UserWarning):
    """A result file had bad lines; it was backed up and rewritten without them
    (:func:`transted.running.batch.load_results`)."""


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


def _holds_lines_with(path: Path, keys: tuple[str, ...]) -> bool:
    """Whether ``path`` is empty, or one of its lines is a JSON object with every one of
    ``keys`` (a file of ours; its other lines may be damaged: resume repairs them), or it is
    one unfinished line that begins an object (a run killed during its first write)."""
    with path.open("rb") as f:
        first = f.read(1)
        if not first.strip():
            return not f.read(1 << 16).strip()
        f.seek(0)
        for raw in f:
            if not raw.endswith(b"\n"):
                return raw.startswith(b"{") and f.tell() == len(raw)
            try:
                obj = json.loads(raw)
            except ValueError:
                continue
            if isinstance(obj, dict) and all(k in obj for k in keys):
                return True
    return False


def check_output_file(path: str | Path, *, inputs: Iterable[str | Path] = (),
                      resume: bool = True,
                      owned_keys: tuple[str, ...] | None = RESULT_KEYS) -> Path:
    """Check that ``path`` can hold a resumable result file; return it.

    ``owned_keys``: an existing non-empty file is overwritten or resumed only if one of its
    lines is a JSON object with these fields (default: a transted result line); None skips the
    check.

    Raises
    ------
    OutputPathError
        ``path`` is a directory, a device, pipe or socket (``/dev/full``, ``/dev/stdout``:
        results are read back on resume and locked, so they need a regular file), is one of
        ``inputs`` (it would be overwritten), is an existing file that is not transted's output
        (no line with ``owned_keys``), its parent directory is missing or not a directory, or
        it (or its parent, for a new file) is not writable.
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
        if not os.access(path, os.W_OK) or not os.access(path, os.R_OK):
            raise OutputPathError(f"{path}: permission denied (not readable and writable)")
        if owned_keys is not None and not _holds_lines_with(path, owned_keys):
            what = "a transted result file" if owned_keys == RESULT_KEYS else \
                "an output of this command"
            raise OutputPathError(f"{path}: exists and is not {what} (no line has "
                                  f"{', '.join(owned_keys)}); it is left untouched — choose "
                                  "another output path, or remove it first")
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
    :class:`OutputLocked` naming it. Release removes the lock file while still holding the
    lock, so a writer must check, once locked, that the path still names the file it locked
    (else it locked a removed file, and tries again): two writers can never each hold a lock
    on a different file of the same name. A run killed with ``kill -9`` leaves the file
    (unlocked: the next run takes and removes it).
    """

    def __init__(self, path: str | Path):
        self.path = Path(path)
        self.lock_path = self.path.with_name(self.path.name + ".lock")
        self._fd: int | None = None

    def acquire(self) -> None:
        while True:
            fd = self._lock_file()
            try:
                same = os.path.samestat(os.fstat(fd), os.stat(self.lock_path))
            except FileNotFoundError:
                same = False
            if same:
                break
            os.close(fd)  # the holder removed it as we locked it: lock the current file
        os.ftruncate(fd, 0)
        since = time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime())
        os.pwrite(fd, f"pid={os.getpid()} host={socket.gethostname()} since={since}\n"
                  .encode(), 0)
        self._fd = fd

    def _lock_file(self) -> int:
        """Open (create) the lock file and lock it; a live holder is :class:`OutputLocked`."""
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
        return fd

    def release(self) -> None:
        if self._fd is not None:
            fd, self._fd = self._fd, None
            try:
                os.unlink(self.lock_path)  # while locked: see the class docstring
            except FileNotFoundError:
                pass
            fcntl.flock(fd, fcntl.LOCK_UN)
            os.close(fd)

    def __enter__(self) -> OutputLock:
        self.acquire()
        return self

    def __exit__(self, exc_type: type[BaseException] | None, exc: BaseException | None,
                 tb: TracebackType | None) -> None:
        self.release()
