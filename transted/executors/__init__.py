"""Where batch scoring runs: in this process, on a local process pool, or on a Ray cluster.

:func:`make_executor` turns the CLI's ``--jobs / --executor / --ray-address`` into an
:class:`Executor`; :func:`transted.batch.score_pairs` takes one (or ``jobs``). Results always
come back to the driver in input order; only the driver writes the output file.
"""

from __future__ import annotations

from transted.executors.base import (
    Executor,
    LeanWorkerPolicy,
    MetricSpec,
    default_jobs,
    in_order,
    score_chunk,
    serial_scores,
)
from transted.executors.local import LocalExecutor

__all__ = ["Executor", "LeanWorkerPolicy", "LocalExecutor", "MetricSpec", "RayExecutor",
           "default_jobs", "in_order", "make_executor", "score_chunk", "serial_scores",
           "EXECUTORS"]

EXECUTORS: tuple[str, ...] = ("local", "ray")


def make_executor(executor: str = "local", *, jobs: int | None = None,
                  ray_address: str | None = None, chunk_size: int = 4,
                  pair_timeout: float | None = None,
                  min_parallel_seconds: float | None = None) -> Executor:
    """The executor the CLI flags name; ``jobs`` = worker processes (local) or actors (ray;
    None = one per CPU of the cluster). ``pair_timeout`` (kill a worker stuck on one pair)
    and ``min_parallel_seconds`` (start the pool only when the batch is worth it) are the
    local executor's only."""
    if executor == "local":
        return LocalExecutor(jobs, chunk_size=chunk_size, pair_timeout=pair_timeout,
                             min_parallel_seconds=min_parallel_seconds)
    if pair_timeout is not None:
        raise ValueError("`pair_timeout` is supported by the local executor only")
    if min_parallel_seconds is not None:
        raise ValueError("`min_parallel_seconds` is supported by the local executor only")
    if executor == "ray":
        from transted.executors.ray_cluster import RayExecutor

        return RayExecutor(address=ray_address, workers=jobs, chunk_size=chunk_size)
    raise ValueError(f"`executor` must be one of {', '.join(EXECUTORS)}, got {executor!r}")


def __getattr__(name: str) -> object:
    if name == "RayExecutor":  # lazy: importing ray costs seconds
        from transted.executors.ray_cluster import RayExecutor

        return RayExecutor
    raise AttributeError(name)
