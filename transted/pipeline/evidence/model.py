"""The evidence a pair carries: ``proved`` (with a Lean script), ``refuted`` (with a witness and
the failing side) or ``none`` (with the reason the engines abstained)."""

from __future__ import annotations

from fractions import Fraction
from typing import Literal

from pydantic import BaseModel, ConfigDict

from transted.reading.pairs import Side

__all__ = ["Evidence", "EvidenceKind", "format_exact", "EVIDENCE_VERSION", "VACUOUS_REASON"]

EVIDENCE_VERSION = "6"  # 6: a pair whose two sides' hypotheses are both proved contradictory is proved (vacuity, evidence/vacuity.py); 5: one z3 context per encoder (a witness independent of earlier calls); 4: exact values capped by size (MAX_VALUE_BITS), a clock-ended solver call ends the pair; 3: lowering of the shared elaboration, abstains on its issues; 2: rlimit budgets
"""Bump when an encoding, the vacuity rule or the abstention rules change (goes into signatures)."""

EvidenceKind = Literal["proved", "refuted", "none"]

VACUOUS_REASON = ("both sides' hypotheses are contradictory: both statements hold, so the pair "
                  "is equivalent under mutual provability")
"""The reason of a ``proved`` that rests on vacuity (:mod:`transted.pipeline.evidence.vacuity`)."""


def format_exact(value: int | Fraction | bool) -> str:
    """``3``, ``-1/2``, ``true``: exact, as Lean would read it back."""
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, Fraction) and value.denominator != 1:
        return f"{value.numerator}/{value.denominator}"
    return str(int(value))


class Evidence(BaseModel):
    """Semantic evidence for one pair (or one sub-goal)."""

    model_config = ConfigDict(extra="forbid", frozen=True)

    kind: EvidenceKind
    engine: str | None = None
    """``eval`` (exact evaluation), ``z3``, ``sympy``, or a combination ``z3+sympy``."""
    witness: dict[str, str] = {}
    """Variable → exact value (refuted only)."""
    failing_side: Side | None = None
    """The statement that is false at the witness (refuted only)."""
    script: list[str] = []
    """Lean tactic lines that would close the goal (proved only; not checked offline)."""
    tactics: list[str] = []
    """The Lean tactic each decided component is named after (``omega``, ``linarith``, …)."""
    procedures: list[str] = []
    """The procedure that decided each part (:data:`transted.pipeline.evidence.scripts.PROCEDURES`)."""
    script_status: Literal["unverified"] | None = None
    """``unverified``: an offline script, never replayed in Lean (proved only)."""
    reason: str | None = None
    """Why the engines abstained or timed out (none), or what was shown (refuted/proved)."""
    ms: float = 0.0
