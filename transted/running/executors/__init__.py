"""Where batch scoring runs: in this process, on a local process pool, or on a Ray cluster.

:class:`RunOptions` (:mod:`~transted.running.executors.run_options`) is how a run asks for it (the
CLI's ``--jobs / --executor / --ray-address / --pair-timeout / --out / --resume``);
:mod:`~transted.running.executors.placement` decides where each batch's pairs are scored and holds the
one function that scores a stream of pairs (:func:`score_stream`); :func:`executor_of` turns
a :class:`RunOptions` into an :class:`Executor`. Results always come back to the driver in
input order; only the driver writes output files.

The names are loaded on first use (PEP 562): the CLI reads :class:`RunOptions` to print its
help without importing the pool, the metrics or Ray.
"""

from __future__ import annotations

import importlib
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from transted.running.executors.base import (
        Executor,
        LeanWorkerPolicy,
        MetricSpec,
        default_jobs,
        in_order,
        score_chunk,
        serial_scores,
    )
    from transted.running.executors.local import LocalExecutor
    from transted.running.executors.placement import (
        check_placement,
        executor_for,
        executor_of,
        make_executor,
        score_stream,
    )
    from transted.running.executors.ray_cluster import RayExecutor
    from transted.running.executors.run_options import EXECUTORS, RunOptions

_HOMES = {
    "Executor": "base", "LeanWorkerPolicy": "base", "MetricSpec": "base", "default_jobs": "base",
    "in_order": "base", "score_chunk": "base", "serial_scores": "base",
    "LocalExecutor": "local", "RayExecutor": "ray_cluster",  # ray: imported only when named
    "check_placement": "placement", "executor_for": "placement", "executor_of": "placement",
    "make_executor": "placement", "score_stream": "placement",
    "EXECUTORS": "run_options", "RunOptions": "run_options",
}

__all__ = ["EXECUTORS", "Executor", "LeanWorkerPolicy", "LocalExecutor", "MetricSpec",
           "RayExecutor", "RunOptions", "check_placement", "default_jobs", "executor_for",
           "executor_of", "in_order", "make_executor", "score_chunk", "score_stream",
           "serial_scores"]


def __getattr__(name: str) -> Any:
    home = _HOMES.get(name)
    if home is None:
        raise AttributeError(f"module 'transted.running.executors' has no attribute {name!r}")
    return getattr(importlib.import_module(f"transted.running.executors.{home}"), name)


def __dir__() -> list[str]:
    return sorted(set(globals()) | set(_HOMES))
