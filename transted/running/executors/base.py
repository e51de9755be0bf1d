"""What every executor shares: the metric spec, the per-process metric, the driver loop.

A worker never receives a live metric: it gets a :class:`MetricSpec` (registry name and
options, plus an optional picklable Lean backend factory) and builds the metric once per
process (:func:`score_chunk`). The driver feeds bounded chunks of ``(index, pair)``, keeps at
most ``max_in_flight`` chunks out, and puts results back in input order with a reorder
buffer (:func:`in_order`). Each pair is scored through the guard
(:func:`~transted.running.executors.guard.score_guarded`: an exception is that pair's error line). A
worker that dies (segfault, OOM kill) makes its chunk suspect:
each of its pairs is re-run alone, and a pair whose lone run kills a worker again is
recorded as an infrastructure error — never dropped, never written twice. An executor
with a ``pair_timeout`` kills a worker stuck on one pair (:class:`TimedOut`); its chunk is
re-run the same way, and a pair that again passes the deadline gets ``status="timeout"``.
"""

from __future__ import annotations

import os
from abc import ABC, abstractmethod
from collections import deque
from collections.abc import Callable, Iterable, Iterator, Sequence
from dataclasses import dataclass, field
from itertools import islice
from typing import Any

from transted.loading import is_reference, load_reference
from transted.metrics.base import Metric, MetricResult, pair_hash
from transted.metrics.registry import get_metric
from transted.pipeline.lean.recycling import RecyclingBackend
from transted.reading.pairs import Pair
from transted.running.executors.guard import score_guarded

__all__ = ["MetricSpec", "LeanWorkerPolicy", "Executor", "Chunk", "WorkerDied", "TimedOut",
           "default_jobs", "score_chunk", "in_order", "worker_died_result", "timeout_result"]

Chunk = tuple[tuple[int, Pair], ...]
"""``(index, pair)`` items sent to one worker call; the index is the driver's order key."""


def default_jobs() -> int:
    """The CPUs this process may run on (``os.sched_getaffinity``, else ``os.cpu_count``)."""
    try:
        return max(1, len(os.sched_getaffinity(0)))
    except AttributeError:  # pragma: no cover - macOS / Windows
        return max(1, os.cpu_count() or 1)


@dataclass(frozen=True)
class LeanWorkerPolicy:
    """When a worker's Lean REPL is replaced (see :class:`~transted.pipeline.lean.recycling.RecyclingBackend`).

    max_commands : restart the REPL after this many requests (None = never)
    max_rss_mb : restart it when its resident memory passes this many MiB (None = never)
    """

    max_commands: int | None = 2000
    max_rss_mb: float | None = 8192.0


@dataclass(frozen=True)
class MetricSpec:
    """How a worker builds its own copy of the driver's metric.

    name : a registry name (``ted``, ``transted`` ...) or ``"package.module:Class"``
    options : keyword options of that metric (picklable values only; no live backend)
    backend_factory : picklable callable making the Lean backend, e.g.
        ``functools.partial(LeanInteractBackend, ServerConfig(...))``; each worker wraps
        its one backend in a recycling backend governed by ``lean_policy``
    """

    name: str
    options: dict[str, Any] = field(default_factory=dict)
    backend_factory: Callable[[], Any] | None = None
    lean_policy: LeanWorkerPolicy = LeanWorkerPolicy()

    @classmethod
    def of(cls, metric: Metric) -> MetricSpec:
        """The spec of a metric made by :func:`~transted.metrics.registry.get_metric`."""
        if metric.construction is None:
            raise ValueError(f"`metric`: {type(metric).__name__} was not made by get_metric; "
                             "pass `spec=MetricSpec(...)` so workers can rebuild it")
        name, options = metric.construction
        if options.get("backend") is not None:
            raise ValueError("`metric` holds a live Lean backend, which cannot be sent to "
                             "worker processes; pass `spec=MetricSpec(name, options, "
                             "backend_factory=...)` instead")
        return cls(name, dict(options))

    def build(self) -> Metric:
        """A fresh metric as this spec describes (the driver's copy, or a worker's)."""
        return self.build_with_backend()[0]

    def build_with_backend(self) -> tuple[Metric, Any]:
        """The metric and its recycling Lean backend (None without ``backend_factory``)."""
        options = dict(self.options)
        backend = None
        if self.backend_factory is not None:

            backend = RecyclingBackend(
                self.backend_factory, max_commands=self.lean_policy.max_commands,
                max_rss_mb=self.lean_policy.max_rss_mb)
            options["backend"] = backend
        if is_reference(self.name) and not self.name.startswith("published:"):
            metric: Metric = load_reference(self.name)(**options)
            return metric, backend

        return get_metric(self.name, **options), backend


# -- worker side ------------------------------------------------------------------------
_worker_metric: tuple[MetricSpec, Metric, Any] | None = None  # this process's metric, backend
_worker_progress: Any = None  # a queue: (pair index, pid, finished?) as each pair starts, ends


def report_progress_to(queue: Any) -> None:
    """Worker initializer: announce each pair's start (the driver's clock for a pair timeout)
    and end (progress displays) on ``queue``."""
    global _worker_progress
    _worker_progress = queue


def score_chunk(spec: MetricSpec, signature: str, chunk: Chunk) -> list[tuple[int, dict[str, Any]]]:
    """Worker task: score a chunk with this process's metric (built on first use).

    Between pairs a recycling Lean backend may replace its REPL (command count, memory)."""
    global _worker_metric
    if _worker_metric is None or _worker_metric[0] != spec:
        if _worker_metric is not None and _worker_metric[2] is not None:
            _worker_metric[2].close()
        _worker_metric = (spec, *spec.build_with_backend())
    _, metric, backend = _worker_metric
    if str(metric.signature) != signature:
        # a worker with another install or Lean version would mix signatures in one file
        raise RuntimeError(f"worker (pid {os.getpid()}) builds signature `{metric.signature}`, "
                           f"the driver `{signature}`: every node needs the same install")
    rows = []
    for index, pair in chunk:
        if backend is not None:
            backend.between_pairs()
        if _worker_progress is not None:
            _worker_progress.put((index, os.getpid(), False))
        rows.append((index, score_guarded(metric, pair).model_dump()))
        if _worker_progress is not None:
            _worker_progress.put((index, os.getpid(), True))
    return rows


# -- driver side ------------------------------------------------------------------------
@dataclass(frozen=True)
class WorkerDied:
    """A chunk's worker process ended before answering. ``collateral``: the call failed only
    because the executor killed another worker (a pair past its timeout broke the pool), so
    its pairs are simply run again."""

    reason: str
    collateral: bool = False


@dataclass(frozen=True)
class TimedOut(WorkerDied):
    """A chunk's worker was killed because one pair ran past the executor's ``pair_timeout``;
    ``index`` is that pair's (None when its start report was not seen)."""

    index: int | None = None


def timeout_result(pair: Pair, metric: Metric, pair_timeout: float) -> MetricResult:
    """The line of a pair whose lone run passed ``pair_timeout`` again (its worker killed)."""
    return MetricResult(id=pair.id, metric=metric.name, signature=str(metric.signature),
                        input=pair_hash(pair), score=None, status="timeout",
                        error=f"timeout: pair exceeded --pair-timeout {pair_timeout:g} "
                              "(worker killed)")


def worker_died_result(pair: Pair, metric: Metric, reason: str) -> MetricResult:
    """The infrastructure-error line for a pair whose lone run killed its worker."""
    return MetricResult(id=pair.id, metric=metric.name, signature=str(metric.signature),
                        input=pair_hash(pair), score=None, status="error",
                        error=f"infrastructure: worker process died while scoring this pair "
                              f"({reason})")


Handle = Any


class Executor(ABC):
    """Runs :func:`score_chunk` calls somewhere; :meth:`scores` is the driver loop.

    Subclasses provide start/submit/wait/close; ``workers`` is how many calls run at once.
    """

    workers: int = 1
    chunk_size: int = 4
    in_flight_per_worker: int = 2
    max_deaths_before_answer: int = 3
    pair_timeout: float | None = None
    min_parallel_seconds: float | None = None
    """Score a batch's first pairs in the driver while the rest is projected to take at most
    this many seconds there (:func:`~transted.running.executors.placement.score_stream`); None: the
    workers take every pair."""
    scored_in_driver: int = 0
    """Pairs the driver scored itself: while the workers were not worth starting, or while
    they started."""
    on_pair_done: Callable[[str], None] | None = None
    """Called with a pair's id as soon as a worker finished it, out of input order (progress
    displays: a slow pair holds back the in-order results, not the count); local workers
    report each pair, Ray actors each chunk."""
    _finished: Callable[[int], None] | None = None  # the running scores() call's reporter

    @property
    def running(self) -> bool:
        """The workers are up (a batch then goes to them whole)."""
        return False

    def start(self, spec: MetricSpec, signature: str) -> None:  # noqa: B027 - optional hook
        """Bring workers up (idempotent); called before the first submit."""

    @abstractmethod
    def submit(self, chunk: Chunk) -> Handle:
        """Start one :func:`score_chunk` call."""

    @abstractmethod
    def wait(self, handles: Sequence[Handle]
             ) -> list[tuple[Handle, list[tuple[int, dict[str, Any]]] | WorkerDied]]:
        """Block until at least one call ended; return every ended call's outcome.

        A call that raised anything but a worker death re-raises here (a bug aborts the
        batch, as it does in one process)."""

    def any_ended(self, handles: Sequence[Handle]) -> bool:
        """Whether a call of ``handles`` has ended, without blocking (True: an executor
        that cannot tell never has the driver score pairs while its workers start)."""
        return True

    def close(self) -> None:  # noqa: B027 - optional hook
        """Stop the workers."""

    def __enter__(self) -> Executor:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    def scores(self, pairs: Sequence[Pair], metric: Metric, spec: MetricSpec
               ) -> Iterator[MetricResult]:
        """One result per pair of ``pairs``, in input order, computed on the workers.

        Chunks go out in three kinds: ordinary ones; a pair that passed ``pair_timeout``, run
        again as a chunk of its own (alongside others: its start report times it); and after
        a worker's death, each pair of its chunk alone with nothing else running, so a second
        death names its pair. The pairs of calls that failed only because a timed-out worker
        was killed, and a timed-out chunk's other pairs, go out again as ordinary chunks."""
        if not pairs:
            return
        signature = str(metric.signature)
        # while the workers start (spawn, imports, the metric: seconds), the driver scores
        # pairs itself, the ones after those already sent; never with a pair timeout (only a
        # worker can be killed) nor for a metric that runs Lean (a REPL that would then idle)
        helping = not self.running and self.pair_timeout is None and not metric.runs_lean
        self.start(spec, signature)
        todo = iter(enumerate(pairs))
        max_in_flight = max(1, self.workers * self.in_flight_per_worker)
        again: deque[tuple[int, Pair]] = deque()  # ordinary work to send again
        overdue: deque[tuple[int, Pair]] = deque()  # passed pair_timeout once: run alone
        suspects: deque[tuple[int, Pair]] = deque()  # in a chunk whose worker died
        running: dict[Any, tuple[Chunk, str]] = {}  # handle -> (chunk, kind)
        exhausted = False
        answered = 0  # chunks that came back; deaths before any answer mean broken workers
        deaths = 0
        reported: set[int] = set()

        def finished(index: int) -> None:
            if self.on_pair_done is not None and index not in reported:
                reported.add(index)
                self.on_pair_done(pairs[index].id)
        self._finished = finished

        def next_chunk() -> tuple[Chunk, str] | None:
            nonlocal exhausted
            if again:
                return tuple(again.popleft() for _ in range(min(self.chunk_size, len(again)))), \
                    "chunk"
            if overdue:
                return (overdue.popleft(),), "overdue"
            chunk = tuple(islice(todo, self.chunk_size)) if not exhausted else ()
            exhausted = exhausted or not chunk
            return (chunk, "chunk") if chunk else None

        def completed() -> Iterator[tuple[int, MetricResult]]:
            nonlocal answered, deaths, exhausted, helping
            while True:
                if not suspects:
                    while len(running) < max_in_flight and (item := next_chunk()) is not None:
                        running[self.submit(item[0])] = item
                elif not running:  # a suspect runs alone, so a death names its pair
                    lone = (suspects.popleft(),)
                    running[self.submit(lone)] = (lone, "suspect")
                if not running:
                    return
                while helping and not exhausted and not self.any_ended(list(running)):
                    mine = next(todo, None)
                    if mine is None:
                        exhausted = True
                        break
                    result = score_guarded(metric, mine[1])
                    self.scored_in_driver += 1  # before the yield: the caller may stop here
                    finished(mine[0])
                    yield mine[0], result
                helping = False
                for handle, outcome in self.wait(list(running)):
                    chunk, kind = running.pop(handle)
                    if isinstance(outcome, TimedOut):
                        if kind != "chunk":  # its second run: the pair's answer
                            index, pair = chunk[0]
                            finished(index)
                            assert self.pair_timeout is not None
                            yield index, timeout_result(pair, metric, self.pair_timeout)
                        elif outcome.index is None:  # its start was not seen: find it alone
                            suspects.extend(chunk)
                        else:
                            overdue.extend(item for item in chunk if item[0] == outcome.index)
                            again.extend(item for item in chunk if item[0] != outcome.index)
                        continue
                    if isinstance(outcome, WorkerDied):
                        if outcome.collateral:
                            (suspects if kind == "suspect" else
                             overdue if kind == "overdue" else again).extend(chunk)
                            continue
                        deaths += kind == "suspect"  # one breakage fails many chunks
                        if not answered and deaths >= self.max_deaths_before_answer:
                            raise RuntimeError(f"{deaths} workers died, each scoring one pair, "
                                               f"before any answered ({outcome.reason}); they cannot "
                                               "start here (a script run without "
                                               "`if __name__ == '__main__':`?)")
                        if kind == "suspect":
                            index, pair = chunk[0]
                            finished(index)
                            yield index, worker_died_result(pair, metric, outcome.reason)
                        else:
                            suspects.extend(chunk)
                        continue
                    answered += 1
                    for index, row in outcome:
                        finished(index)
                        yield index, MetricResult.model_validate(row)

        yield from in_order(completed())


def in_order(results: Iterable[tuple[int, MetricResult]]) -> Iterator[MetricResult]:
    """Reorder buffer: yield results by index 0, 1, 2 ...; an index seen before is dropped.

    Out-of-order results wait in the buffer until all their predecessors were yielded, so a
    file written from this stream is always a prefix of the input order (what resume needs).
    """
    buffer: dict[int, MetricResult] = {}
    next_index = 0
    for index, result in results:
        if index < next_index or index in buffer:
            continue  # a retried call answered twice: keep the first answer
        buffer[index] = result
        while next_index in buffer:
            yield buffer.pop(next_index)
            next_index += 1


def serial_scores(pairs: Iterable[Pair], metric: Metric) -> Iterator[MetricResult]:
    """The in-process path (``jobs=1``): the driver's own metric, one pair after another."""
    for pair in pairs:
        yield score_guarded(metric, pair)
