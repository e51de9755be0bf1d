"""Local parallelism: a process pool over chunks of pairs.

Workers are spawned (a forked copy of the driver's threads or of a live REPL pipe is not
usable; with ``forkserver`` the workers are not the driver's children, and outlive a killed
driver). Each worker builds its metric
once (:func:`~transted.running.executors.base.score_chunk`) and exits by itself if the driver dies
(a watchdog thread), so a ``kill -9`` of the driver leaves no orphan behind.

With ``min_parallel_seconds`` (the CLI's default ``--jobs``) the pool starts only when the
batch is worth it: the driver scores pairs itself while the rest is projected to take less
than that many seconds in one process, and hands the rest to the pool once it is more.
Scores are the same either way; only where they are computed changes.

With ``pair_timeout`` each worker announces every pair it starts on a queue, and the driver
(polling every :data:`POLL_SECONDS`) kills a worker whose current pair has run longer than
``pair_timeout + PAIR_TIMEOUT_GRACE`` (SIGTERM, then SIGKILL after
:data:`KILL_AFTER_SECONDS`): the last line of defence for code that cannot check a clock (a C
extension such as z3). The pool then breaks and is restarted like after a crash; the pair that
passed the timeout is run again alone, and the other pairs of its chunk and of the calls the
kill broke go out again as ordinary chunks (:meth:`~transted.running.executors.base.Executor.scores`).
"""

from __future__ import annotations

import multiprocessing
import os
import queue
import signal
import threading
import time
from collections.abc import Iterator, Sequence
from concurrent.futures import FIRST_COMPLETED, Future, ProcessPoolExecutor, wait
from concurrent.futures.process import BrokenProcessPool
from contextlib import contextmanager
from typing import Any

from transted.running.executors.base import (
    Chunk,
    Executor,
    MetricSpec,
    TimedOut,
    WorkerDied,
    default_jobs,
    report_progress_to,
    score_chunk,
)
from transted.running.executors.run_options import (
    POOL_PAYS_OFF_SECONDS,  # re-exported: its old home
)

__all__ = ["LocalExecutor", "PAIR_TIMEOUT_GRACE", "POLL_SECONDS", "KILL_AFTER_SECONDS",
           "POOL_PAYS_OFF_SECONDS"]

PAIR_TIMEOUT_GRACE = 0.5
"""Seconds added to ``pair_timeout`` before a kill: the pair's start report travels through a
queue and the driver polls, so a pair is never killed for the plumbing's latency."""
POLL_SECONDS = 0.1
KILL_AFTER_SECONDS = 1.0
"""How long a worker may take to end after SIGTERM before it gets SIGKILL."""


def _watch_parent() -> None:
    parent = os.getppid()

    def watch() -> None:
        while os.getppid() == parent:
            time.sleep(0.5)
        os._exit(3)  # the driver is gone: nobody will read our answers

    threading.Thread(target=watch, name="transted-parent-watch", daemon=True).start()


def _init_worker(progress: Any) -> None:
    # Ctrl-C is the driver's: it stops the workers itself (a worker's own KeyboardInterrupt
    # would only print a traceback over the driver's message)
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    _watch_parent()
    if progress is not None:
        report_progress_to(progress)


@contextmanager
def _no_interrupt_inherited() -> Iterator[None]:
    """SIGINT blocked in this thread while it spawns workers: a spawned worker inherits the
    mask, so a Ctrl-C during its start-up (seconds of imports, before its initializer can
    ignore it) is not its to raise; here the signal waits, blocked, and arrives as soon as
    the block ends."""
    if threading.current_thread() is not threading.main_thread():
        yield
        return
    previous = signal.pthread_sigmask(signal.SIG_BLOCK, {signal.SIGINT})
    try:
        yield
    finally:
        signal.pthread_sigmask(signal.SIG_SETMASK, previous)


def _check_seconds(name: str, value: object, what: str, *, zero: bool) -> None:
    """A number of seconds or None (a bool is no number here)."""
    if value is None:
        return
    if (isinstance(value, bool) or not isinstance(value, (int, float))
            or not (value >= 0 if zero else value > 0)):
        raise ValueError(f"`{name}` must be {what} or None, got {value!r}")


def _end(process: Any) -> None:
    """SIGTERM, then SIGKILL if the process is still there after KILL_AFTER_SECONDS."""
    if not process.is_alive():
        return
    process.terminate()
    process.join(KILL_AFTER_SECONDS)
    if process.is_alive():  # a C call that ignores or blocks SIGTERM
        process.kill()
        process.join(KILL_AFTER_SECONDS)


class LocalExecutor(Executor):
    """Score on ``jobs`` worker processes of this machine.

    Parameters
    ----------
    jobs : worker processes (default: every CPU this process may use)
    chunk_size : pairs per worker call (cuts IPC overhead for fast metrics; Lean: use 1)
    in_flight_per_worker : chunks queued per worker (bounds memory on huge inputs)
    start_method : ``spawn`` (default) or ``forkserver``
    min_parallel_seconds : None (default) starts the pool with the first batch; a number
        makes the driver score pairs itself while the pairs left are projected (from its
        mean time per pair so far) to take at most that many seconds in one process, and
        start the pool only past it (:func:`~transted.running.executors.placement.score_stream`
        decides). Ignored with ``pair_timeout`` (only a worker can be killed), for a metric
        that :attr:`~transted.metrics.base.Metric.runs_lean` (a REPL in the driver would
        idle once the pool runs) and once the pool runs.
    pair_timeout : hard wall-clock seconds per pair (None = no limit); a worker stuck longer
        (+ :data:`PAIR_TIMEOUT_GRACE`) on one pair is killed, that pair run again alone
        (the chunk's other pairs as ordinary work), and a pair that passes the limit again gets ``status="timeout"``. It is not part of
        the signature: it only decides which pairs get a score. ``jobs=1`` with a
        ``pair_timeout`` is a one-worker pool (:mod:`~transted.running.executors.placement` makes
        one), since only a separate process can be killed.
    """

    def __init__(self, jobs: int | None = None, *, chunk_size: int = 4,
                 in_flight_per_worker: int = 2, start_method: str | None = None,
                 pair_timeout: float | None = None,
                 min_parallel_seconds: float | None = None):
        jobs = default_jobs() if jobs is None else jobs
        if not isinstance(jobs, int) or jobs < 1:
            raise ValueError(f"`jobs` must be a positive int, got {jobs!r}")
        if not isinstance(chunk_size, int) or chunk_size < 1:
            raise ValueError(f"`chunk_size` must be a positive int, got {chunk_size!r}")
        if not isinstance(in_flight_per_worker, int) or in_flight_per_worker < 1:
            raise ValueError(f"`in_flight_per_worker` must be a positive int, "
                             f"got {in_flight_per_worker!r}")
        _check_seconds("pair_timeout", pair_timeout, "a positive number of seconds",
                       zero=False)
        _check_seconds("min_parallel_seconds", min_parallel_seconds, "a number of seconds >= 0",
                       zero=True)
        methods = multiprocessing.get_all_start_methods()
        start_method = start_method or "spawn"
        if start_method not in ("forkserver", "spawn") or start_method not in methods:
            raise ValueError(f"`start_method` must be 'forkserver' or 'spawn' (available here: "
                             f"{', '.join(methods)}), got {start_method!r}")
        self.workers = jobs
        self.chunk_size = chunk_size
        self.in_flight_per_worker = in_flight_per_worker
        self.start_method = start_method
        self.pair_timeout = None if pair_timeout is None else float(pair_timeout)
        self.min_parallel_seconds = (None if min_parallel_seconds is None
                                     else float(min_parallel_seconds))
        self.scored_in_driver = 0
        self._pool: ProcessPoolExecutor | None = None
        self._progress: Any = None  # this pool's queue of (pair index, worker pid, ended?)
        self._chunk_of: dict[int, Future[Any]] = {}  # pair index -> the call scoring it
        # call -> (worker pid, pair start, pair index)
        self._current: dict[Future[Any], tuple[int, float, int]] = {}
        self._timed_out: set[Future[Any]] = set()
        self._task: tuple[MetricSpec, str] | None = None
        self.restarts = 0
        """How many times a dead worker broke the pool and it was started again."""
        self.killed: list[int] = []
        """The process ids of the workers killed for passing ``pair_timeout``."""

    @property
    def running(self) -> bool:
        return self._pool is not None

    def start(self, spec: MetricSpec, signature: str) -> None:
        self._task = (spec, signature)
        if self._pool is None:
            context = multiprocessing.get_context(self.start_method)
            # a fresh queue per pool: a worker killed mid-put may leave the old one torn
            self._progress = context.Queue()
            self._pool = ProcessPoolExecutor(
                max_workers=self.workers, mp_context=context,
                initializer=_init_worker, initargs=(self._progress,))

    def submit(self, chunk: Chunk) -> Future[Any]:
        if self._task is None:
            raise RuntimeError("submit before start")
        if self._pool is None:  # broken by a dead worker: start a fresh one
            self.restarts += 1
            self.start(*self._task)
        assert self._pool is not None
        with _no_interrupt_inherited():  # the pool spawns its workers in a submit
            future = self._pool.submit(score_chunk, *self._task, chunk)
        if self.pair_timeout is not None:
            self._chunk_of.update((index, future) for index, _ in chunk)
        return future

    def any_ended(self, handles: Sequence[Future[Any]]) -> bool:
        return any(future.done() for future in handles)

    def wait(self, handles: Sequence[Future[Any]]
             ) -> list[tuple[Future[Any], list[tuple[int, dict[str, Any]]] | WorkerDied]]:
        while True:
            # read the reports even when calls keep finishing: a full queue blocks the
            # workers' writes, and then their exit at shutdown
            self._drain_progress()
            done, _ = wait(handles, timeout=POLL_SECONDS, return_when=FIRST_COMPLETED)
            if done:
                break
            if self.pair_timeout is not None:
                self._kill_overdue(handles)
        killed = bool(self._timed_out)
        started = dict(self._current)  # which pair each call was on (the discard clears it)
        if any(isinstance(f.exception(), BrokenProcessPool) for f in done):
            # one death fails every call of the pool: collect them all, then start afresh
            done, _ = wait(handles)
            self._discard_pool(broken=True)
        ended: list[tuple[Future[Any], list[tuple[int, dict[str, Any]]] | WorkerDied]] = []
        for future in done:
            error = future.exception()
            self._current.pop(future, None)
            current = started.get(future)
            if future in self._timed_out:
                self._timed_out.discard(future)
                ended.append((future, TimedOut(f"pair exceeded --pair-timeout "
                                               f"{self.pair_timeout:g}",
                                               index=None if current is None else current[2])))
            elif isinstance(error, BrokenProcessPool):
                # a call broken by our own kill of another worker holds no suspect pair
                ended.append((future, WorkerDied(f"{type(error).__name__}: {error}",
                                                 collateral=killed)))
            elif error is not None:
                raise error
            else:
                ended.append((future, future.result()))
        return ended

    def _drain_progress(self) -> None:
        """Note which pair each call is on, from the workers' start reports; pass each end
        report on (:attr:`on_pair_done`)."""
        if self._progress is None:
            return
        while True:
            try:
                index, pid, ended = self._progress.get_nowait()
            except queue.Empty:
                break
            if ended:
                if self._finished is not None:
                    self._finished(index)
                continue
            future = self._chunk_of.pop(index, None)
            if future is not None:
                self._current[future] = (pid, time.monotonic(), index)

    def _kill_overdue(self, handles: Sequence[Future[Any]]) -> None:
        """Note which pair each call is on; kill the worker of a pair past its deadline."""
        assert self.pair_timeout is not None
        self._drain_progress()
        now = time.monotonic()
        for future in handles:
            started = self._current.get(future)
            if (started is None or future in self._timed_out or future.done()
                    or now - started[1] <= self.pair_timeout + PAIR_TIMEOUT_GRACE):
                continue
            self._timed_out.add(future)
            pid = started[0]
            self.killed.append(pid)
            process = getattr(self._pool, "_processes", None) or {}
            if pid in process:
                _end(process[pid])
            else:  # pragma: no cover - the pool's internals changed: signal the pid
                try:
                    os.kill(pid, signal.SIGKILL)
                except ProcessLookupError:
                    pass

    def _discard_pool(self, broken: bool = False) -> None:
        self._drain_progress()
        if self._pool is not None:
            if broken:  # a broken pool only SIGTERMs its workers: one stuck in C hangs a join
                for process in list((getattr(self._pool, "_processes", None) or {}).values()):
                    _end(process)
            self._pool.shutdown(wait=True, cancel_futures=True)
            self._pool = None
        if self._progress is not None:
            self._progress.close()
            self._progress = None
        self._chunk_of.clear()
        self._current.clear()

    def close(self) -> None:
        self._discard_pool()

    def __exit__(self, *exc: object) -> None:
        if exc[0] is not None:
            # left by an exception (Ctrl-C, or the CLI's exit once it reported one): nobody
            # reads the chunks in flight, so end the workers rather than wait for them
            self._discard_pool(broken=True)
        self.close()
