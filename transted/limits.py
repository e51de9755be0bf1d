"""Per-process resource limits for batch workers.

:func:`limit_memory` caps the address space of the calling process (``RLIMIT_AS``), so a
worker that still meets an allocation the size guards did not predict (a C extension) gets a
``MemoryError`` inside that pair — which the worker reports as that pair's error — instead of
the machine swapping or the OOM killer taking the whole batch. Call it first thing in a worker
process, never in the parent (the limit is inherited by children and cannot be raised again
by an unprivileged process).
"""

from __future__ import annotations

import resource

__all__ = ["limit_memory", "memory_limit"]


def limit_memory(max_bytes: int) -> int | None:
    """Cap this process's address space at ``max_bytes``; return the previous soft limit.

    Returns ``None`` when the previous limit was unlimited. Only the soft limit is set (the
    hard one is left, so a caller may restore the previous value).
    """
    if isinstance(max_bytes, bool) or not isinstance(max_bytes, int) or max_bytes < 2**26:
        raise ValueError(f"`max_bytes` must be an int >= 64 MiB, got {max_bytes!r}")
    soft, hard = resource.getrlimit(resource.RLIMIT_AS)
    if hard != resource.RLIM_INFINITY and max_bytes > hard:
        raise ValueError(f"`max_bytes` {max_bytes} is above the hard limit {hard}")
    resource.setrlimit(resource.RLIMIT_AS, (max_bytes, hard))
    return None if soft == resource.RLIM_INFINITY else soft


def memory_limit() -> int | None:
    """The current soft address-space limit in bytes, or ``None`` if unlimited."""
    soft, _ = resource.getrlimit(resource.RLIMIT_AS)
    return None if soft == resource.RLIM_INFINITY else soft
