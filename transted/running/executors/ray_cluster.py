"""Ray: the same chunk tasks on actors of a Ray cluster (or a local Ray instance).

Each actor is one worker process holding one metric (and, for Lean metrics, one recycling
REPL), built from the :class:`~transted.running.executors.base.MetricSpec` like a local worker. The
driver keeps a bounded number of calls out, gets results back through Ray's object store,
and alone writes the output file; an actor that dies is replaced and its chunk's pairs are
re-run one by one (a pair answered twice is written once: the reorder buffer keys on the
input index). Ray is an optional extra (``pip install transted[ray]``).
"""

from __future__ import annotations

import os
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import transted
from transted.running.executors.base import Chunk, Executor, MetricSpec, WorkerDied, score_chunk

__all__ = ["RayExecutor"]


class _ScoreActor:
    def __init__(self, spec: MetricSpec, signature: str):
        self.spec, self.signature = spec, signature

    def score(self, chunk: Chunk) -> list[tuple[int, dict[str, Any]]]:
        return score_chunk(self.spec, self.signature, chunk)

    def pid(self) -> int:
        return os.getpid()


def _import_ray() -> Any:
    try:
        import ray
    except ImportError as e:
        raise ImportError("--executor ray needs Ray: pip install 'transted[ray]'") from e
    return ray


class RayExecutor(Executor):
    """Score on Ray actors, one metric (and Lean REPL) per actor.

    Parameters
    ----------
    address : a running cluster (``"auto"``, ``"ray://head:10001"``, ``"head:6379"``);
        None starts a local Ray instance with ``workers`` CPUs (unless Ray is already up)
    workers : actors to run (default: the cluster's CPU count)
    chunk_size, in_flight_per_worker : as for :class:`~transted.running.executors.LocalExecutor`
    init_options : extra keyword arguments for ``ray.init``
    """

    def __init__(self, address: str | None = None, *, workers: int | None = None,
                 chunk_size: int = 4, in_flight_per_worker: int = 2,
                 init_options: dict[str, Any] | None = None):
        if workers is not None and (not isinstance(workers, int) or workers < 1):
            raise ValueError(f"`workers` must be a positive int or None, got {workers!r}")
        if not isinstance(chunk_size, int) or chunk_size < 1:
            raise ValueError(f"`chunk_size` must be a positive int, got {chunk_size!r}")
        self.ray = _import_ray()
        self.address = address
        self.requested_workers = workers
        self.chunk_size = chunk_size
        self.in_flight_per_worker = in_flight_per_worker
        self.init_options = dict(init_options or {})
        self.restarts = 0
        self._owns_ray = False
        self._task: tuple[MetricSpec, str] | None = None
        self._actors: list[Any] = []
        self._load: dict[int, int] = {}  # actor slot -> calls out
        self._calls: dict[Any, tuple[int, Any]] = {}  # ObjectRef -> (actor slot, actor)

    @property
    def running(self) -> bool:
        return bool(self._actors)

    def connect(self) -> None:
        """``ray.init`` if Ray is not up yet (kept out of per-pair timing by callers)."""
        ray = self.ray
        if ray.is_initialized():
            return
        options: dict[str, Any] = {"include_dashboard": False, "log_to_driver": False,
                                   **self.init_options}
        if self.address is None:
            options.setdefault("num_cpus", self.requested_workers)
            # local workers import this very transted, even from a source checkout
            package_root = str(Path(transted.__file__).resolve().parents[1])
            path = os.pathsep.join(filter(None, [package_root, os.environ.get("PYTHONPATH")]))
            options.setdefault("runtime_env", {"env_vars": {"PYTHONPATH": path}})
        ray.init(address=self.address, **options)
        self._owns_ray = True

    def start(self, spec: MetricSpec, signature: str) -> None:
        self.connect()
        if self._task == (spec, signature) and self._actors:
            return
        self._kill_actors()
        self._task = (spec, signature)
        count = self.requested_workers or max(1, int(self.ray.cluster_resources().get("CPU", 1)))
        self.workers = count
        self._actors = [self._new_actor() for _ in range(count)]
        self._load = dict.fromkeys(range(count), 0)

    def _new_actor(self) -> Any:
        assert self._task is not None
        actor_class = self.ray.remote(num_cpus=1, max_restarts=0)(_ScoreActor)
        return actor_class.remote(*self._task)

    def submit(self, chunk: Chunk) -> Any:
        slot = min(self._load, key=lambda s: (self._load[s], s))
        actor = self._actors[slot]
        ref = actor.score.remote(chunk)
        self._load[slot] += 1
        self._calls[ref] = (slot, actor)
        return ref

    def any_ended(self, handles: Sequence[Any]) -> bool:
        ready, _ = self.ray.wait(list(handles), num_returns=1, timeout=0)
        return bool(ready)

    def wait(self, handles: Sequence[Any]
             ) -> list[tuple[Any, list[tuple[int, dict[str, Any]]] | WorkerDied]]:
        ray = self.ray
        ready, _ = ray.wait(list(handles), num_returns=1)
        ended: list[tuple[Any, list[tuple[int, dict[str, Any]]] | WorkerDied]] = []
        for ref in ready:
            slot, actor = self._calls.pop(ref)
            self._load[slot] -= 1
            try:
                ended.append((ref, ray.get(ref)))
            except (ray.exceptions.RayActorError, ray.exceptions.WorkerCrashedError) as e:
                ended.append((ref, WorkerDied(f"{type(e).__name__}: {str(e)[:200]}")))
                if self._actors[slot] is actor:  # not yet replaced for an earlier call
                    self._replace(slot)
            except ray.exceptions.RayTaskError as e:
                raise e.as_instanceof_cause() from None  # a bug in scoring: abort as locally
        return ended

    def _replace(self, slot: int) -> None:
        self.ray.kill(self._actors[slot], no_restart=True)
        self._actors[slot] = self._new_actor()
        self.restarts += 1

    def actor_pids(self) -> list[int]:
        """The process id of each actor (tests and memory reports)."""
        return list(self.ray.get([a.pid.remote() for a in self._actors]))

    def _kill_actors(self) -> None:
        for actor in self._actors:
            self.ray.kill(actor, no_restart=True)
        self._actors, self._load, self._calls = [], {}, {}

    def close(self) -> None:
        if self.ray.is_initialized():
            self._kill_actors()
            if self._owns_ray:
                self.ray.shutdown()
                self._owns_ray = False
