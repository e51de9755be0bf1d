"""A worker pool for Lean batches: one REPL backend per process.

Tactic-mode REPL state is per process, so the safe model is one server per worker process
(lean-interact's docs say the same: build one config, then one server per process). Workers
are spawned (not forked: a forked copy of a live REPL pipe is not usable), recycled after
``max_tasks_per_worker`` items to bound the REPL's memory growth (USER_NEEDS 1), and a
failing item is recorded as that item's error while the batch goes on. Tasks that score
with a metric live with the metrics (``transted.metrics.lean_baselines.score_pair_task``):
this package never imports ``transted.metrics``.
"""

from __future__ import annotations

import multiprocessing
import multiprocessing.util
import sys
from collections.abc import Callable, Iterable, Iterator
from concurrent.futures import ProcessPoolExecutor
from dataclasses import dataclass
from typing import Any, Generic, TypeVar

from transted.errors import TranstedError
from transted.lean.backend import ReplBackend
from transted.lean.results import CommandResult, StepResult

__all__ = ["LeanWorkerPool", "WorkResult", "run_request"]

T = TypeVar("T")
R = TypeVar("R")

_worker_backend: ReplBackend | None = None  # this worker process's own backend


@dataclass(frozen=True)
class WorkResult(Generic[R]):
    """One item's outcome: ``value`` or the ``error`` that stopped it."""

    value: R | None = None
    error: str | None = None


def _init_worker(factory: Callable[[], ReplBackend]) -> None:
    global _worker_backend
    _worker_backend = factory()
    multiprocessing.util.Finalize(_worker_backend, _worker_backend.close, exitpriority=10)


def _call(task: Callable[[ReplBackend, Any], Any], item: Any) -> WorkResult[Any]:
    if _worker_backend is None:
        return WorkResult(error="worker has no backend (initializer did not run)")
    try:
        return WorkResult(value=task(_worker_backend, item))
    except TranstedError as e:
        return WorkResult(error=f"{type(e).__name__}: {e}")


def run_request(backend: ReplBackend, request: dict[str, Any]) -> CommandResult | StepResult:
    """Task: send one raw REPL request."""
    return backend.send(request)


class LeanWorkerPool:
    """Run ``task(backend, item)`` over items on worker processes, results in input order.

    Parameters
    ----------
    backend_factory : picklable callable making one backend per worker (e.g.
        ``functools.partial(LeanInteractBackend, ServerConfig(...))``).
    workers : number of worker processes.
    max_tasks_per_worker : recycle a worker after this many items (None = never).
    """

    def __init__(self, backend_factory: Callable[[], ReplBackend], *, workers: int = 2,
                 max_tasks_per_worker: int | None = 200):
        if workers < 1:
            raise ValueError(f"`workers` must be >= 1, got {workers!r}")
        if max_tasks_per_worker is not None and max_tasks_per_worker < 1:
            raise ValueError(f"`max_tasks_per_worker` must be >= 1 or None, "
                             f"got {max_tasks_per_worker!r}")
        self.backend_factory = backend_factory
        self.workers = workers
        self.max_tasks_per_worker = max_tasks_per_worker

    def map(self, task: Callable[[ReplBackend, T], R], items: Iterable[T]
            ) -> Iterator[WorkResult[R]]:
        """Yield one :class:`WorkResult` per item, in input order."""
        items = list(items)
        if not items:
            return
        extra: dict[str, Any] = {}
        if sys.version_info >= (3, 11):  # recycling workers needs Python 3.11
            extra["max_tasks_per_child"] = self.max_tasks_per_worker
        with ProcessPoolExecutor(max_workers=self.workers,
                                 mp_context=multiprocessing.get_context("spawn"),
                                 initializer=_init_worker, initargs=(self.backend_factory,),
                                 **extra) as executor:
            futures = [executor.submit(_call, task, item) for item in items]
            for future in futures:
                try:
                    yield future.result()
                except Exception as e:  # noqa: BLE001 - a dead worker is that item's error
                    yield WorkResult(error=f"worker failed: {type(e).__name__}: {e}")
