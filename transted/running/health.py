"""Whether a batch run measured enough to be trusted: how many pairs got an answer.

A pair is *answered* when the metric judged it: ``status="ok"``, or ``"invalid"`` (a
candidate confidently recognised as invalid Lean: a judgement, not a failure). Every other
status (``error``, ``unavailable``, ``too_large``, ``timeout``) is a failure to score. A run in
which no pair was answered, or whose share of failures is above a bound, measured too little
to pass a gate on: the CLI exits with its own code then (``transted.cli.exits``).
"""

from __future__ import annotations

import math
from collections import Counter
from collections.abc import Iterable
from dataclasses import dataclass, field
from typing import Any

__all__ = ["ANSWERED", "RunHealth", "run_health", "check_error_rate"]

ANSWERED = frozenset({"ok", "invalid"})
"""Statuses that are answers; ``invalid`` candidates are answers, not errors."""


def check_error_rate(value: float | None, *, option: str = "max_error_rate") -> None:
    """Refuse a bound outside [0, 1] (``ValueError`` naming ``option``)."""
    if value is not None and not (isinstance(value, (int, float)) and not isinstance(value, bool)
                                  and math.isfinite(value) and 0 <= value <= 1):
        raise ValueError(f"{option} must be a number in [0, 1], got {value!r}")


@dataclass(frozen=True)
class RunHealth:
    """How a run's pairs ended: ``n`` pairs, ``answered`` of them judged, the failures by
    status, and the first failure's message (often the whole story: a missing extra)."""

    n: int
    answered: int
    failures: dict[str, int] = field(default_factory=dict)
    first_error: str | None = None

    @property
    def failed(self) -> int:
        return self.n - self.answered

    @property
    def error_rate(self) -> float:
        """Share of pairs not answered (0 for an empty run)."""
        return self.failed / self.n if self.n else 0.0

    def problem(self, max_error_rate: float | None = None) -> str | None:
        """Why the run measured too little, or None: no pair answered (an empty run too), or
        an error rate above ``max_error_rate``."""
        check_error_rate(max_error_rate)
        if self.answered == 0:
            if self.n == 0:
                return "no pair to score"
            why = f": {self.first_error}" if self.first_error else ""
            return f"no pair scored ({self._counts()}){why}"
        if max_error_rate is not None and self.error_rate > max_error_rate:
            return (f"{self.failed} of {self.n} pairs not scored ({100 * self.error_rate:.1f}% "
                    f"> max error rate {100 * max_error_rate:g}%: {self._counts()})")
        return None

    def _counts(self) -> str:
        return ", ".join(f"{v} {'errors' if k == 'error' and v != 1 else k}"
                         for k, v in sorted(self.failures.items()))


def run_health(results: Iterable[Any]) -> RunHealth:
    """The :class:`RunHealth` of ``results`` (anything with ``status`` and ``error``)."""
    n = answered = 0
    failures: Counter[str] = Counter()
    first_error = None
    for r in results:
        n += 1
        if r.status in ANSWERED:
            answered += 1
            continue
        failures[r.status] += 1
        if first_error is None and r.error:
            first_error = str(r.error).splitlines()[0]
    return RunHealth(n, answered, dict(failures), first_error)
