"""Lazy ``"module:attribute"`` references: the one loader behind every registry; the real path
of a bundled data file (:func:`bundled_file`); and a bundled SQLite table opened read-only
(:class:`ReadOnlyDatabase`: the name table, the Mathlib index, the rewrite-lemma table).

The metric registry (``"transted.metrics.ted:TEDSimilarity"``), the provider registry
(``"…offline:OfflineProvider.from_context"``) and the executors' ``MetricSpec`` (a user's
``"package.module:Class"``) name objects by such strings, so naming a metric or a provider
never imports what it does not use (matplotlib, torch, lean-interact). Such imports, and
the CLI's lazily loaded command modules, run with the cyclic garbage collector paused
(:func:`collector_paused`), as does each pair a batch scores (``running/executors/guard.py``).
"""

from __future__ import annotations

import gc
import importlib
import os
import sqlite3
import threading
from collections.abc import Callable, Iterator
from contextlib import ExitStack, contextmanager
from importlib import resources
from pathlib import Path
from typing import Any

__all__ = ["is_reference", "collector_paused", "keep_loaded", "load_reference", "bundled_file", "ReadOnlyDatabase"]

_KEEP = ExitStack()  # keeps a zipped package's extracted copies alive for the process


def is_reference(name: str) -> bool:
    """True when ``name`` is written ``module:attribute`` (both parts non-empty)."""
    module_name, sep, attr = name.partition(":")
    return bool(sep and module_name and attr)


@contextmanager
def collector_paused() -> Iterator[None]:
    """The cyclic garbage collector paused for the block (imports on demand, a command's set-up,
    a pair scored by a batch), then restored as it was.

    An import makes many long-lived objects (classes, functions, tables) and almost no
    garbage, yet its allocations trigger collections that scan the growing heap for nothing:
    a tenth of a one-pair ``transted score`` process (benchmarks/STARTUP.md).
    """
    enabled = gc.isenabled()
    gc.disable()
    try:
        yield
    finally:
        if enabled:
            gc.enable()


def keep_loaded() -> None:
    """Move every object alive now to the collector's permanent generation (``gc.freeze``).

    For a process's entry point, once its code and tables are loaded (the CLI, after loading a
    command and its metrics): those objects live as long as the process, and every later full
    collection would scan them again. Never called by the library: it would freeze a caller's
    objects too. Called inside :func:`collector_paused`, it also spares the first collection
    after the pause from scanning everything the pause allocated.
    """
    gc.freeze()


def load_reference(reference: str) -> Any:
    """Import the module of ``reference`` and return its (dotted) attribute.

    ``"pkg.mod:Class.factory"`` imports ``pkg.mod`` and returns ``Class.factory``. A string
    without the ``:`` raises ``ValueError``; a missing module or attribute raises the
    ``ImportError`` / ``AttributeError`` that names it.
    """
    if not is_reference(reference):
        raise ValueError(f"expected a 'module:attribute' reference, got {reference!r}")
    module_name, _, attr = reference.partition(":")
    with collector_paused():
        obj: Any = importlib.import_module(module_name)
    for part in attr.split("."):
        obj = getattr(obj, part)
    return obj


def bundled_file(package: str, *parts: str) -> Path:
    """The real file path of ``package``'s data file ``parts`` (extracted once, and kept for
    the process, when the package is installed zipped): SQLite opens a path, not a stream."""
    resource = resources.files(package).joinpath(*parts)
    if isinstance(resource, Path):
        return resource
    return _KEEP.enter_context(resources.as_file(resource))


class ReadOnlyDatabase:
    """A SQLite file read as immutable data, opened on the first query.

    A connection must not cross ``fork()``, so a process opens its own (a pool's workers each
    reopen); threads share it under one lock. ``missing`` is raised when the file is absent;
    ``check`` may refuse the file on opening (a wrong format).
    """

    def __init__(self, path: Path, *, missing: Callable[[], Exception],
                 check: Callable[[sqlite3.Connection], None] | None = None) -> None:
        self.path = path
        self._missing = missing
        self._check = check
        self._lock = threading.Lock()
        self._connection: sqlite3.Connection | None = None
        self._pid = -1

    def query(self, sql: str, args: tuple = ()) -> list[tuple]:
        with self._lock:
            if self._connection is None or self._pid != os.getpid():
                self._connection = self._open()
                self._pid = os.getpid()
            return self._connection.execute(sql, args).fetchall()

    def _open(self) -> sqlite3.Connection:
        if not self.path.is_file():
            raise self._missing()
        uri = self.path.resolve().as_uri() + "?mode=ro&immutable=1"
        connection = sqlite3.connect(uri, uri=True, check_same_thread=False)
        if self._check is not None:
            try:
                self._check(connection)
            except BaseException:
                connection.close()
                raise
        return connection
