"""How a batch runs, one record for every command and API function that scores many pairs.

:class:`RunOptions` is the single home of the execution options that ``score``, ``eval``,
``regress`` and ``sensitivity`` share with :func:`transted.score_many` and
:func:`transted.evaluate`: where pairs are scored (``jobs``, ``executor``, ``ray_address``), the
hard per-pair limit (``pair_timeout``), and what happens to earlier results (``out``,
``resume``). Its field defaults are the defaults of the CLI flags (``transted.cli.options``
reads them), so the two can never drift apart. This module imports nothing heavy: the CLI
reads it to print ``--help``.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, replace
from pathlib import Path
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from transted.running.executors.base import Executor

__all__ = ["RunOptions", "EXECUTORS", "POOL_PAYS_OFF_SECONDS"]

EXECUTORS: tuple[str, ...] = ("local", "ray")
"""Where workers run: local processes, or a Ray cluster (extra ``ray``)."""

POOL_PAYS_OFF_SECONDS = 5.0
"""With the default ``jobs`` (None) the local pool starts only once the batch is projected to
take longer than this in one process. Spawning a worker and importing transted into it takes
about 2.5 s on the project's 2-core machines (``python -X importtime``: scipy and sympy are
most of it), and with J workers R seconds of work take about 2.5 + R/J: on two cores the pool
pays off from about R = 5 s."""


@dataclass(frozen=True)
class RunOptions:
    """The execution options of one batch run (the CLI flags are named after the fields).

    Parameters
    ----------
    jobs : worker processes (``--jobs``). None: every core, the pool started only once the
        batch is projected to take over :data:`POOL_PAYS_OFF_SECONDS` in one process; 0: every
        core from the start; 1: this process. Ray: actors (None/0: one per cluster CPU).
    executor : ``"local"`` or ``"ray"`` (``--executor``), or a ready
        :class:`~transted.running.executors.base.Executor` the caller owns (API only).
    ray_address : the Ray cluster to join (``--ray-address``; default a local Ray).
    pair_timeout : hard wall-clock seconds per pair (``--pair-timeout``): the pair runs in a
        worker process killed past it and gets status ``timeout``.
    out : where results go (``--out``): a result file (``score``) or a report folder
        (``eval``, ``regress``, ``sensitivity``); None: stdout or a temporary folder.
    resume : keep the results already in ``out`` (``--resume/--no-resume``).
    """

    jobs: int | None = None
    executor: str | Executor = "local"
    ray_address: str | None = None
    pair_timeout: float | None = None
    out: str | Path | None = None
    resume: bool = True

    def __post_init__(self) -> None:
        jobs = self.jobs
        if jobs is not None and (isinstance(jobs, bool) or not isinstance(jobs, int)
                                 or jobs < 0):
            raise ValueError(f"`jobs` must be an int >= 0 or None, got {jobs!r}")
        if isinstance(self.executor, str) and self.executor not in EXECUTORS:
            raise ValueError(f"`executor` must be one of {', '.join(EXECUTORS)} or an "
                             f"Executor, got {self.executor!r}")
        if self.ray_address is not None and self.executor != "ray":
            raise ValueError("`ray_address` needs `executor='ray'`")
        timeout = self.pair_timeout
        if timeout is not None and (isinstance(timeout, bool)
                                    or not isinstance(timeout, (int, float))
                                    or not math.isfinite(timeout) or timeout <= 0):
            raise ValueError(f"`pair_timeout` must be a number of seconds > 0, got {timeout!r}")
        if not isinstance(self.resume, bool):
            raise ValueError(f"`resume` must be a bool, got {self.resume!r}")

    @classmethod
    def merged(cls, run: RunOptions | None, **given: Any) -> RunOptions:
        """``run`` (default: the defaults) with the keyword arguments an API function was
        given the old way (each a field name; None and absent mean "not given"). A value
        given both ways must agree, else ``ValueError`` names it."""
        base = run if run is not None else cls()
        updates = {}
        for name, value in given.items():
            if value is None:
                continue
            current = getattr(base, name)
            if run is not None and current != getattr(cls, name) and current != value:
                raise ValueError(f"`{name}` given twice: {value!r} and run.{name}={current!r}")
            updates[name] = value
        return replace(base, **updates) if updates else base

    def placed(self, executor: Executor | None) -> RunOptions:
        """These options once the placement is made (:func:`~transted.running.executors.placement.
        executor_of`): on ``executor`` (which carries the pair timeout), or in this process
        when None."""
        if executor is None:
            return replace(self, jobs=1, executor="local", ray_address=None, pair_timeout=None)
        return replace(self, jobs=None, executor=executor, ray_address=None, pair_timeout=None)

    @property
    def owned_executor(self) -> Executor | None:
        """The caller's own executor (``executor`` given as an object), else None."""
        return None if isinstance(self.executor, str) else self.executor
