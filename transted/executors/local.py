"""Local parallelism: a process pool over chunks of pairs.

Workers are spawned (a forked copy of the driver's threads or of a live REPL pipe is not
usable; with ``forkserver`` the workers are not the driver's children, and outlive a killed
driver). Each worker builds its metric
once (:func:`~transted.executors.base.score_chunk`) and exits by itself if the driver dies
(a watchdog thread), so a ``kill -9`` of the driver leaves no orphan behind.
"""

from __future__ import annotations

import multiprocessing
import os
import threading
import time
from collections.abc import Sequence
from concurrent.futures import FIRST_COMPLETED, Future, ProcessPoolExecutor, wait
from concurrent.futures.process import BrokenProcessPool
from typing import Any

from transted.executors.base import (
    Chunk,
    Executor,
    MetricSpec,
    WorkerDied,
    default_jobs,
    score_chunk,
)

__all__ = ["LocalExecutor"]


def _watch_parent() -> None:
    parent = os.getppid()

    def watch() -> None:
        while os.getppid() == parent:
            time.sleep(0.5)
        os._exit(3)  # the driver is gone: nobody will read our answers

    threading.Thread(target=watch, name="transted-parent-watch", daemon=True).start()


class LocalExecutor(Executor):
    """Score on ``jobs`` worker processes of this machine.

    Parameters
    ----------
    jobs : worker processes (default: every CPU this process may use)
    chunk_size : pairs per worker call (cuts IPC overhead for fast metrics; Lean: use 1)
    in_flight_per_worker : chunks queued per worker (bounds memory on huge inputs)
    start_method : ``spawn`` (default) or ``forkserver``
    """

    def __init__(self, jobs: int | None = None, *, chunk_size: int = 4,
                 in_flight_per_worker: int = 2, start_method: str | None = None):
        jobs = default_jobs() if jobs is None else jobs
        if not isinstance(jobs, int) or jobs < 1:
            raise ValueError(f"`jobs` must be a positive int, got {jobs!r}")
        if not isinstance(chunk_size, int) or chunk_size < 1:
            raise ValueError(f"`chunk_size` must be a positive int, got {chunk_size!r}")
        if not isinstance(in_flight_per_worker, int) or in_flight_per_worker < 1:
            raise ValueError(f"`in_flight_per_worker` must be a positive int, "
                             f"got {in_flight_per_worker!r}")
        methods = multiprocessing.get_all_start_methods()
        start_method = start_method or "spawn"
        if start_method not in ("forkserver", "spawn") or start_method not in methods:
            raise ValueError(f"`start_method` must be 'forkserver' or 'spawn' (available here: "
                             f"{', '.join(methods)}), got {start_method!r}")
        self.workers = jobs
        self.chunk_size = chunk_size
        self.in_flight_per_worker = in_flight_per_worker
        self.start_method = start_method
        self._pool: ProcessPoolExecutor | None = None
        self._task: tuple[MetricSpec, str] | None = None
        self.restarts = 0
        """How many times a dead worker broke the pool and it was started again."""

    def start(self, spec: MetricSpec, signature: str) -> None:
        self._task = (spec, signature)
        if self._pool is None:
            self._pool = ProcessPoolExecutor(
                max_workers=self.workers,
                mp_context=multiprocessing.get_context(self.start_method),
                initializer=_watch_parent)

    def submit(self, chunk: Chunk) -> Future[Any]:
        if self._task is None:
            raise RuntimeError("submit before start")
        if self._pool is None:  # broken by a dead worker: start a fresh one
            self.restarts += 1
            self.start(*self._task)
        assert self._pool is not None
        return self._pool.submit(score_chunk, *self._task, chunk)

    def wait(self, handles: Sequence[Future[Any]]
             ) -> list[tuple[Future[Any], list[tuple[int, dict[str, Any]]] | WorkerDied]]:
        done, _ = wait(handles, return_when=FIRST_COMPLETED)
        if any(isinstance(f.exception(), BrokenProcessPool) for f in done):
            # one death fails every call of the pool: collect them all, then start afresh
            done, _ = wait(handles)
            self._discard_pool()
        ended: list[tuple[Future[Any], list[tuple[int, dict[str, Any]]] | WorkerDied]] = []
        for future in done:
            error = future.exception()
            if isinstance(error, BrokenProcessPool):
                ended.append((future, WorkerDied(f"{type(error).__name__}: {error}")))
            elif error is not None:
                raise error
            else:
                ended.append((future, future.result()))
        return ended

    def _discard_pool(self) -> None:
        if self._pool is not None:
            self._pool.shutdown(wait=True, cancel_futures=True)
            self._pool = None

    def close(self) -> None:
        self._discard_pool()
