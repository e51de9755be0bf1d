"""The budget of one pair: a work counter (deterministic) and a deadline (safety net).

A search must give the same ``expanded`` and distance on a loaded machine as on an idle one,
so its limits are counted in work (goals expanded, moves generated), never in seconds; the
wall clock is only a hard per-pair cap, and a pair stopped by it says so (``timeout``).

The budget is checked *inside* expansions: the engine charges one unit per move it
receives, and providers (and any long loop: canonicalisation, TED) call :meth:`Budget.spent`
or :meth:`Budget.check` between units of their own work, so no single expansion can run
past the deadline by more than one unit of work.
"""

from __future__ import annotations

import time
from typing import Literal

from transted.errors import TranstedError

__all__ = ["Budget", "BudgetExceeded"]

Reason = Literal["work", "time"]


class BudgetExceeded(TranstedError):
    """Raised by :meth:`Budget.check` inside a loop that cannot return a partial result."""

    def __init__(self, reason: Reason):
        super().__init__(f"budget exceeded ({'deadline' if reason == 'time' else 'max_work'})")
        self.reason: Reason = reason


class Budget:
    """Work counter plus deadline, shared by the engine and the providers of one pair.

    Parameters
    ----------
    max_work : units of work at most (moves generated, states evaluated); None: no limit
    max_time : seconds from construction at most (wall clock); None: no deadline
    clock : the clock (tests pass a fake one)

    ``reason`` is None while the budget holds, then ``"work"`` (deterministic) or ``"time"``
    (the deadline fired: the result may depend on machine load).
    """

    __slots__ = ("max_work", "max_time", "work", "deadline", "reason", "_clock")

    def __init__(self, max_work: int | None = None, max_time: float | None = None, *,
                 clock=time.perf_counter):
        if max_work is not None and (not isinstance(max_work, int) or isinstance(max_work, bool)
                                     or max_work < 0):
            raise ValueError(f"`max_work` must be a non-negative int or None, got {max_work!r}")
        if max_time is not None and (not isinstance(max_time, (int, float))
                                     or isinstance(max_time, bool) or max_time <= 0):
            raise ValueError(f"`max_time` must be a positive number or None, got {max_time!r}")
        self.max_work = max_work
        self.max_time = max_time
        self._clock = clock
        self.work = 0
        self.deadline = None if max_time is None else clock() + max_time
        self.reason: Reason | None = None

    def charge(self, units: int = 1) -> bool:
        """Count ``units`` of work; True when the budget is now spent (work or deadline)."""
        self.work += units
        return self.spent()

    def spent(self) -> bool:
        """True once the work limit is reached or the deadline has passed (sticky)."""
        if self.reason is not None:
            return True
        if self.max_work is not None and self.work >= self.max_work:
            self.reason = "work"
        elif self.deadline is not None and self._clock() > self.deadline:
            self.reason = "time"
        return self.reason is not None

    def check(self, units: int = 0) -> None:
        """Count ``units`` and raise :class:`BudgetExceeded` when the budget is spent."""
        self.work += units
        if self.spent():
            raise BudgetExceeded(self.reason)  # type: ignore[arg-type]

    def remaining_time(self) -> float | None:
        """Seconds left before the deadline (0 when past it); None without a deadline."""
        if self.deadline is None:
            return None
        return max(0.0, self.deadline - self._clock())

    @property
    def timed_out(self) -> bool:
        return self.reason == "time"

    def __repr__(self) -> str:
        return (f"Budget(work={self.work}/{self.max_work}, max_time={self.max_time}, "
                f"reason={self.reason})")

