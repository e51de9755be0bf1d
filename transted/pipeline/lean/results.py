"""What Lean answered, as plain values (the first tier of lean-interact's two error tiers).

An elaboration error or an unproved goal is a *value* here; only transport failures raise
(:class:`~transted.errors.LeanTimeout`, :class:`~transted.errors.LeanCrashed`). Judgements
built on these values have three outcomes everywhere (USER_NEEDS 4): ``proved``,
``not-proved`` and ``unknown`` with a reason; a closed goal whose response also carries an
error, a ``sorry`` or a non-``Completed`` status is never counted as proved.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Literal

__all__ = ["LeanMessage", "SorryGoal", "CommandResult", "StepResult", "Outcome",
           "SORRY_WARNINGS"]

Severity = Literal["error", "warning", "info", "trace"]

SORRY_WARNINGS = ("declaration uses 'sorry'", "declaration uses `sorry`")
"""The sorry warning as Lean printed it before and after the quote style changed."""


@dataclass(frozen=True)
class LeanMessage:
    """A diagnostic: severity, text, and 1-based line / 0-based column as the REPL gives."""

    severity: Severity
    data: str
    line: int | None = None
    column: int | None = None
    end_line: int | None = None
    end_column: int | None = None

    @property
    def is_sorry_warning(self) -> bool:
        return self.severity == "warning" and self.data in SORRY_WARNINGS


@dataclass(frozen=True)
class SorryGoal:
    """A ``sorry`` in submitted code: the goal text there and its proof-state id."""

    goal: str
    proof_state: int | None = None
    line: int | None = None
    column: int | None = None


@dataclass(frozen=True)
class CommandResult:
    """The REPL's answer to a command (``{"cmd": ...}``).

    ``error`` holds the text of a REPL-level refusal (``{"message": "..."}``, e.g. an unknown
    environment); then ``env`` is None.
    """

    env: int | None
    messages: tuple[LeanMessage, ...] = ()
    sorries: tuple[SorryGoal, ...] = ()
    error: str | None = None

    @property
    def errors(self) -> tuple[LeanMessage, ...]:
        return tuple(m for m in self.messages if m.severity == "error")

    @property
    def ok(self) -> bool:
        """Elaborated without any error (sorries allowed)."""
        return self.error is None and not self.errors

    @property
    def uses_sorry(self) -> bool:
        return bool(self.sorries) or any(m.is_sorry_warning for m in self.messages)

    def infos(self) -> tuple[str, ...]:
        return tuple(m.data for m in self.messages if m.severity == "info")


@dataclass(frozen=True)
class StepResult:
    """The REPL's answer to a tactic (``{"tactic": ..., "proofState": n}``).

    ``error`` holds the text of a REPL-level failure (``{"message": "Lean error:\\n..."}``:
    the tactic threw); ``status`` is the REPL's ``proofStatus`` (``Completed``,
    ``Incomplete: open goals remain``, ``Error: kernel type check failed ...``).
    """

    proof_state: int | None
    goals: tuple[str, ...] = ()
    messages: tuple[LeanMessage, ...] = ()
    sorries: tuple[SorryGoal, ...] = ()
    status: str | None = None
    error: str | None = None

    @property
    def failed(self) -> bool:
        """The tactic did not run cleanly: thrown, error message, or an ``Error`` status."""
        return (self.error is not None or any(m.severity == "error" for m in self.messages)
                or (self.status or "").startswith("Error"))

    @property
    def closed(self) -> bool:
        """All goals closed, cleanly: ``goals == []`` alone is not enough.

        ``goals == []`` next to an error (e.g. ``Error: kernel type check failed``, recorded
        in the REPL's ``app_type_mismatch2`` test) or a ``sorry`` is a failure.
        """
        return (not self.failed and not self.goals and not self.sorries
                and self.status == "Completed")

    def infos(self) -> tuple[str, ...]:
        return tuple(m.data for m in self.messages if m.severity == "info")


@dataclass(frozen=True)
class Outcome:
    """A three-valued judgement: ``proved``, ``not-proved`` or ``unknown`` (with a reason)."""

    status: Literal["proved", "not-proved", "unknown"]
    reason: str = ""
    details: dict[str, object] = field(default_factory=dict)

    @property
    def proved(self) -> bool:
        return self.status == "proved"
