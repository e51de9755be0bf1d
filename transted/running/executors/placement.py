"""Where pairs are scored, decided here and only here, and the one function that scores them.

Every path that scores a batch of pairs ends in :func:`score_stream`: result files
(:func:`transted.running.batch.score_pairs`, which adds streaming to disk and resume), the API
(``score_many``, ``evaluate``), the sensitivity suites, calibration and the FOL perturbation
tables. It places the pairs:

* in this process, one pair after another, with no executor and no pair timeout when ``jobs``
  is None or 1 or the pairs are too few for a pool to pay off (:data:`SERIAL_UP_TO`);
* on a local pool of ``jobs`` processes started for the call;
* on a given :class:`~transted.running.executors.base.Executor` (local pool, Ray; the caller owns it),
  whose first pairs are scored in this process while the ones left are projected to take at
  most its ``min_parallel_seconds`` here (spawning workers and importing transted into them
  costs seconds); never for a metric that :attr:`~transted.metrics.base.Metric.runs_lean`
  (a REPL in the driver would idle once the pool runs), nor once its workers run;
* with a ``pair_timeout``, always on a pool (of one process for ``jobs`` None or 1): only a
  worker process can be killed when a pair passes it.

:func:`executor_for` turns a command's ``--jobs / --executor / --ray-address /
--pair-timeout`` into the one executor it shares between its metrics (None: this process).
Results always come back in input order.
"""

from __future__ import annotations

import time
from collections.abc import Generator, Iterator, Sequence
from contextlib import contextmanager

from transted.metrics.base import Metric, MetricResult
from transted.reading.pairs import Pair
from transted.running import executors
from transted.running.executors.base import Executor, MetricSpec, default_jobs, serial_scores
from transted.running.executors.guard import score_guarded
from transted.running.executors.run_options import EXECUTORS, POOL_PAYS_OFF_SECONDS, RunOptions

__all__ = ["SERIAL_UP_TO", "EXECUTORS", "check_placement", "score_stream", "executor_for",
           "executor_of", "make_executor"]

SERIAL_UP_TO = 4
"""So few pairs are scored in this process even with ``jobs`` > 1: a pool's start-up costs more."""


def check_placement(jobs: int | None, executor: Executor | None,
                    pair_timeout: float | None) -> None:
    """Refuse a placement that cannot be honoured, before any work (``ValueError``)."""
    if jobs is not None and (not isinstance(jobs, int) or isinstance(jobs, bool) or jobs < 1):
        raise ValueError(f"`jobs` must be a positive int or None, got {jobs!r}")
    if pair_timeout is not None and executor is not None:
        raise ValueError("`pair_timeout` with `executor`: give it to the executor "
                         "(LocalExecutor(..., pair_timeout=...))")
    if pair_timeout is not None:
        executors.LocalExecutor(1, pair_timeout=pair_timeout)  # checks the value


def score_stream(pairs: Sequence[Pair], metric: Metric, *, jobs: int | None = None,
                 executor: Executor | None = None, spec: MetricSpec | None = None,
                 pair_timeout: float | None = None) -> Generator[MetricResult, None, None]:
    """One result per pair of ``pairs``, in input order, scored where the module docstring
    says. Workers rebuild the metric from ``spec`` (default: how the registry made
    ``metric``, :meth:`MetricSpec.of`). The arguments are checked at the call
    (:func:`check_placement`); the pairs are scored as the results are consumed."""
    check_placement(jobs, executor, pair_timeout)
    return _placed(list(pairs), metric, jobs=jobs, executor=executor, spec=spec,
                   pair_timeout=pair_timeout)


def _placed(pairs: list[Pair], metric: Metric, *, jobs: int | None, executor: Executor | None,
            spec: MetricSpec | None, pair_timeout: float | None
            ) -> Generator[MetricResult, None, None]:
    if pair_timeout is not None:
        if not pairs:
            return
        spec = spec if spec is not None else MetricSpec.of(metric)
        with executors.LocalExecutor(jobs or 1, pair_timeout=pair_timeout) as local:
            yield from local.scores(pairs, metric, spec)
        return
    if executor is None and (jobs is None or jobs == 1 or len(pairs) <= SERIAL_UP_TO):
        yield from serial_scores(pairs, metric)
        return
    spec = spec if spec is not None else MetricSpec.of(metric)
    if executor is not None:
        yield from _on_executor(pairs, metric, executor, spec)
        return
    with executors.LocalExecutor(jobs) as local:
        yield from local.scores(pairs, metric, spec)


def _on_executor(pairs: list[Pair], metric: Metric, executor: Executor, spec: MetricSpec
                 ) -> Iterator[MetricResult]:
    """``executor``'s results, after a first stretch scored here while the rest is not worth
    starting its workers (its ``min_parallel_seconds``). The projection leaves out the first
    pair: it pays this process's one-time loads (the name table, the notation, the metric's
    caches, about 1 s), which a pair after it never pays again."""
    first = 0
    if (executor.min_parallel_seconds is not None and not executor.running
            and executor.pair_timeout is None and not metric.runs_lean):
        warm = 0.0
        while first < len(pairs):
            if first >= 2 and ((time.monotonic() - warm) / (first - 1) * (len(pairs) - first)
                               > executor.min_parallel_seconds):
                break
            result = score_guarded(metric, pairs[first])
            first += 1
            if first == 1:
                warm = time.monotonic()
            executor.scored_in_driver += 1  # before the yield: the caller may stop here
            yield result
    yield from executor.scores(pairs[first:], metric, spec)


def make_executor(executor: str = "local", *, jobs: int | None = None,
                  ray_address: str | None = None, chunk_size: int = 4,
                  pair_timeout: float | None = None,
                  min_parallel_seconds: float | None = None) -> Executor:
    """The executor named ``executor``; ``jobs`` = worker processes (local) or actors (ray;
    None = one per CPU of the cluster). ``pair_timeout`` (kill a worker stuck on one pair)
    and ``min_parallel_seconds`` (start the workers only when the batch is worth it) are the
    local executor's only."""
    if executor == "local":
        return executors.LocalExecutor(jobs, chunk_size=chunk_size, pair_timeout=pair_timeout,
                             min_parallel_seconds=min_parallel_seconds)
    if pair_timeout is not None:
        raise ValueError("`pair_timeout` is supported by the local executor only")
    if min_parallel_seconds is not None:
        raise ValueError("`min_parallel_seconds` is supported by the local executor only")
    if executor == "ray":

        return executors.RayExecutor(address=ray_address, workers=jobs, chunk_size=chunk_size)
    raise ValueError(f"`executor` must be one of {', '.join(EXECUTORS)}, got {executor!r}")


@contextmanager
def executor_of(run: RunOptions) -> Iterator[Executor | None]:
    """The executor ``run`` asks for (:func:`executor_for`; None: score in this process),
    shut down on leaving; a caller's own executor (``run.executor`` an object) is yielded as
    it is and left running."""
    if run.owned_executor is not None:
        if run.pair_timeout is not None:
            raise ValueError("`pair_timeout` with `executor` (a ready one): give it to the "
                             "executor (LocalExecutor(..., pair_timeout=...))")
        yield run.owned_executor
        return
    assert isinstance(run.executor, str)
    pool = executor_for(run.jobs, run.executor, ray_address=run.ray_address,
                        pair_timeout=run.pair_timeout)
    if pool is None:
        yield None
        return
    with pool:
        yield pool


def executor_for(jobs: int | None, executor: str = "local", *, ray_address: str | None = None,
                 pair_timeout: float | None = None) -> Executor | None:
    """The executor a command's flags ask for; None: score in this process.

    ``jobs`` None (the CLI's default) is every core, the local workers started only once the
    batch is worth it (:data:`~transted.running.executors.run_options.POOL_PAYS_OFF_SECONDS`); 0 is every
    core from the start; 1 is this process, or a one-worker pool with ``pair_timeout``. With
    Ray, None and 0 ask for one actor per CPU of the cluster. The caller closes the executor.
    """
    if executor == "ray":
        return make_executor("ray", jobs=jobs or None, ray_address=ray_address,
                             pair_timeout=pair_timeout)
    if ray_address is not None:
        raise ValueError("`ray_address` needs the ray executor")
    workers = default_jobs() if not jobs else jobs
    if workers == 1:
        return (None if pair_timeout is None
                else executors.LocalExecutor(1, pair_timeout=pair_timeout))
    return make_executor(executor, jobs=workers, pair_timeout=pair_timeout,
                         min_parallel_seconds=POOL_PAYS_OFF_SECONDS if jobs is None else None)
