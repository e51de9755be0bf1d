"""Where batch scoring runs: in this process, on a local process pool, or on a Ray cluster.

:mod:`~transted.executors.placement` decides where each batch's pairs are scored and holds the
one function that scores a stream of pairs (:func:`score_stream`); :func:`executor_for` turns
the CLI's ``--jobs / --executor / --ray-address / --pair-timeout`` into an :class:`Executor`.
Results always come back to the driver in input order; only the driver writes output files.
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
from transted.executors.placement import (
    EXECUTORS,
    check_placement,
    executor_for,
    make_executor,
    score_stream,
)
from transted.executors.ray_cluster import RayExecutor

__all__ = ["Executor", "LeanWorkerPolicy", "LocalExecutor", "MetricSpec", "RayExecutor",
           "default_jobs", "in_order", "make_executor", "score_chunk", "serial_scores",
           "EXECUTORS", "check_placement", "executor_for", "score_stream"]


def __getattr__(name: str) -> object:
    if name == "RayExecutor":  # lazy: importing ray costs seconds

        return RayExecutor
    raise AttributeError(name)
