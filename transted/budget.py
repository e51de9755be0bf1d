"""The budget of one pair, shared by the search and the evidence engines.

Two kinds of limit, never mixed:

* **work** (deterministic): units counted by the caller (the search charges one unit per move
  it receives; the evidence engines are bounded by z3's ``rlimit`` and their sample counts,
  which are work units of their own). A result decided by work is the same on a loaded
  machine as on an idle one.
* **the deadline** (a safety net): seconds on a monotonic clock from the budget's creation.
  It exists so that no pair runs forever. It never changes an answer silently: once a
  deadline is reached (``reason == "time"``), the budget and every budget it was made from
  (:meth:`Budget.within`) say so (:attr:`Budget.deadline_hit`), and the metric ends the pair
  with ``status: "timeout"`` and no score, never with what the work had reached so far.

A pair has one :class:`Budget`; a stage of it (the evidence engines, one decision inside the
search, refutation's half of the evidence) runs under :meth:`Budget.within`, a budget whose
deadline is its own safety net capped by what is left of the pair's. The address-space cap of
a batch worker (:func:`limit_memory`) is the per-process part of the same limits.
"""

from __future__ import annotations

import resource
import time
from collections.abc import Callable
from typing import Literal

from transted.errors import TranstedError

__all__ = ["Budget", "BudgetExceeded", "limit_memory", "memory_limit"]

Reason = Literal["work", "time"]


class BudgetExceeded(TranstedError):
    """Raised by :meth:`Budget.check` inside a loop that cannot return a partial result."""

    def __init__(self, reason: Reason):
        super().__init__(f"budget exceeded ({'deadline' if reason == 'time' else 'max_work'})")
        self.reason: Reason = reason


class Budget:
    """Work counter plus deadline of one pair (or of one stage of it).

    Parameters
    ----------
    max_work : units of work at most; None: no limit
    max_time : seconds from construction at most (monotonic clock); None: no deadline
    clock : the clock, in seconds (tests pass a fake one)

    ``reason`` is None while the budget holds, then ``"work"`` (deterministic) or ``"time"``
    (the deadline fired: the result may depend on machine load).

    The budget is checked *inside* long computations: the search charges one unit per move,
    and providers (and any long loop: canonicalisation, TED) call :meth:`spent` or
    :meth:`check` between units of their own work, so no single step runs past the deadline
    by more than one unit of work.
    """

    __slots__ = ("max_work", "max_time", "work", "started", "deadline", "reason", "clock",
                 "parent", "deadline_hit")

    def __init__(self, max_work: int | None = None, max_time: float | None = None, *,
                 clock: Callable[[], float] = time.monotonic):
        if max_work is not None and (not isinstance(max_work, int) or isinstance(max_work, bool)
                                     or max_work < 0):
            raise ValueError(f"`max_work` must be a non-negative int or None, got {max_work!r}")
        if max_time is not None and (not isinstance(max_time, (int, float))
                                     or isinstance(max_time, bool) or max_time <= 0):
            raise ValueError(f"`max_time` must be a positive number or None, got {max_time!r}")
        self.max_work = max_work
        self.max_time = max_time
        self.clock = clock
        self.work = 0
        self.started = clock()
        self.deadline = None if max_time is None else self.started + max_time
        self.reason: Reason | None = None
        self.parent: Budget | None = None
        self.deadline_hit = False
        """A deadline was reached here or in a stage made from this budget (sticky)."""

    def within(self, max_time: float) -> Budget:
        """A budget for one stage of this pair: its own work counter, and a deadline
        ``max_time`` seconds from now or this budget's deadline, whichever comes first
        (``max_time`` is then what is left here, possibly 0: the stage is already over)."""
        left = self.remaining_time()
        stage = Budget(clock=self.clock)
        stage.parent = self
        stage.max_time = max_time if left is None else min(max_time, left)
        stage.deadline = stage.started + stage.max_time
        return stage

    def charge(self, units: int = 1) -> bool:
        """Count ``units`` of work; True when the budget is now spent (work or deadline)."""
        self.work += units
        return self.spent()

    def spent(self) -> bool:
        """True once the work limit is reached or the deadline is reached (sticky; by time
        exactly when :meth:`remaining_time` is 0)."""
        if self.reason is not None:
            return True
        if self.max_work is not None and self.work >= self.max_work:
            self.reason = "work"
        elif self.deadline is not None and self.clock() >= self.deadline:
            self.reach_deadline()
        return self.reason is not None

    def reach_deadline(self) -> None:
        """Record the deadline here and in every budget this one was made from: the pair's
        result is void (a timeout), so no later stage of it should start either. Also called
        by a stage whose own wall-clock safety net ended a step (a z3 call's ``timeout``)."""
        budget: Budget | None = self
        while budget is not None:
            budget.deadline_hit = True
            if budget.reason is None:
                budget.reason = "time"
            budget = budget.parent

    def check(self, units: int = 0) -> None:
        """Count ``units`` and raise :class:`BudgetExceeded` when the budget is spent."""
        self.work += units
        if self.spent():
            raise BudgetExceeded(self.reason)  # type: ignore[arg-type]

    def remaining_time(self) -> float | None:
        """Seconds left before the deadline (0 when past it); None without a deadline."""
        if self.deadline is None:
            return None
        left = self.deadline - self.clock()
        if left <= 0:
            self.reach_deadline()  # a caller asking is a caller that would stop here
            return 0.0
        return left

    def elapsed(self) -> float:
        """Seconds since this budget was made (a measurement, never a limit)."""
        return self.clock() - self.started

    @property
    def timed_out(self) -> bool:
        return self.reason == "time"

    def __repr__(self) -> str:
        return (f"Budget(work={self.work}/{self.max_work}, max_time={self.max_time}, "
                f"reason={self.reason})")


# -- the per-process part: a batch worker's address space ----------------------------------
def limit_memory(max_bytes: int) -> int | None:
    """Cap this process's address space (``RLIMIT_AS``) at ``max_bytes``; return the previous
    soft limit (None when it was unlimited).

    A worker that still meets an allocation the size guards did not predict (a C extension)
    then gets a ``MemoryError`` inside that pair, which it reports as that pair's error,
    instead of the machine swapping or the OOM killer taking the whole batch. Call it first
    thing in a worker process, never in the parent: the limit is inherited by children and an
    unprivileged process cannot raise it again. Only the soft limit is set (the hard one is
    left, so a caller may restore the previous value).
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
