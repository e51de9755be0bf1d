"""A backend that replaces its Lean REPL after N requests or when its memory passes a limit.

A long-lived REPL grows (every environment it elaborated stays in memory), so a worker that
scores thousands of pairs restarts it now and then (USER_NEEDS 1). The restart happens
*between* requests, bumps ``generation`` (every env / proof-state id of the old process is
dead), and :class:`~transted.pipeline.lean.session.ProofSession` then re-runs a header's imports once
and rebuilds nodes by replaying their tactic path. Pairs with the same header share the
imported environment while the REPL lives: the session caches it by the import lines.
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Any

from transted.pipeline.lean.backend import ReplBackend
from transted.pipeline.lean.results import CommandResult, StepResult

__all__ = ["RecyclingBackend", "process_rss_mb"]


def process_rss_mb(pid: int) -> float | None:
    """Resident memory of process ``pid`` in MiB (psutil if installed, else /proc)."""
    try:
        import psutil
    except ImportError:  # pragma: no cover - psutil is optional
        psutil = None
    try:
        if psutil is not None:
            return float(psutil.Process(pid).memory_info().rss) / 2**20
        for line in Path(f"/proc/{pid}/status").read_text().splitlines():
            if line.startswith("VmRSS:"):
                return float(line.split()[1]) / 1024
    except Exception:  # noqa: BLE001 - a vanished process has no memory to measure
        return None
    return None


def _backend_rss_mb(backend: ReplBackend) -> float | None:
    pid_of = getattr(backend, "_current_pid", None)  # LeanInteractBackend's REPL process
    pid = pid_of() if callable(pid_of) else None
    return None if pid is None else process_rss_mb(pid)


class RecyclingBackend(ReplBackend):
    """Delegate to a backend made by ``factory``; replace it when a policy limit is hit.

    Limits are checked by :meth:`between_pairs`, which the batch worker calls before each
    pair: replacing the REPL in the middle of a pair would strand the proof-state ids the
    search holds (callers stamp a node with ``generation`` *after* a request returns).

    Parameters
    ----------
    factory : picklable callable making the real backend (live or replay)
    max_commands : replace the backend once it was sent this many requests (None = never)
    max_rss_mb : replace it once its process's resident memory exceeds this (None = never)
    rss_probe : the memory of a backend in MiB, or None when unknown (tests pass a fake)
    """

    def __init__(self, factory: Callable[[], ReplBackend], *, max_commands: int | None = 2000,
                 max_rss_mb: float | None = None,
                 rss_probe: Callable[[ReplBackend], float | None] = _backend_rss_mb):
        if max_commands is not None and (not isinstance(max_commands, int) or max_commands < 1):
            raise ValueError(f"`max_commands` must be a positive int or None, got {max_commands!r}")
        if max_rss_mb is not None and not max_rss_mb > 0:
            raise ValueError(f"`max_rss_mb` must be positive or None, got {max_rss_mb!r}")
        self.factory = factory
        self.max_commands = max_commands
        self.max_rss_mb = max_rss_mb
        self.rss_probe = rss_probe
        self.recycled: list[str] = []
        """Why each replacement happened (``commands`` / ``rss``), in order."""
        self.commands = 0
        """Requests sent to the current inner backend."""
        self._inner: ReplBackend | None = None
        self._retired = 0  # generations used up by replaced backends

    @property
    def inner(self) -> ReplBackend:
        if self._inner is None:
            self._inner = self.factory()
        return self._inner

    @property
    def generation(self) -> int:  # type: ignore[override]
        # a fresh process's ids must never be taken for a replaced one's
        return self._retired + (0 if self._inner is None else self._inner.generation)

    def send(self, request: dict[str, Any], *, timeout: float | None = None
             ) -> CommandResult | StepResult:
        self.commands += 1  # a request that failed or timed out still grew the REPL
        return self.inner.send(request, timeout=timeout)

    def between_pairs(self) -> str | None:
        """Replace the inner backend if a limit is reached; returns the reason, or None."""
        if self._inner is None:
            return None
        reason = None
        if self.max_commands is not None and self.commands >= self.max_commands:
            reason = "commands"
        elif self.max_rss_mb is not None:
            rss = self.rss_probe(self._inner)
            if rss is not None and rss > self.max_rss_mb:
                reason = "rss"
        if reason is not None:
            self._retired += self._inner.generation + 1
            self._inner.close()
            self._inner = None
            self.commands = 0
            self.recycled.append(reason)
        return reason

    def signature_fields(self) -> dict[str, str]:
        return self.inner.signature_fields()

    def close(self) -> None:
        if self._inner is not None:
            self._inner.close()
            self._inner = None
