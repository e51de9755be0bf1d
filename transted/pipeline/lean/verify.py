"""Replay verification: re-run a tactic path (e.g. one found by the offline search) in Lean.

Each step runs on the state the previous step left, under the same validity rule as the
search (one equality goal, or completed; ASSESS Algorithm 1 line 18). The result is
``verified`` (every step ran; ``closed`` tells whether the last one completed the proof) or
``broken`` at the first failing step, with Lean's reason; ``elaboration-failed`` when the
pair's equality does not elaborate at all.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Literal

from transted.pipeline.lean.moves import GoalOutcome, Rejection, classify_step
from transted.pipeline.lean.session import LeanNode, ProofSession
from transted.reading.pairs import Pair

__all__ = ["Verification", "verify_steps", "verify_pair_path"]


@dataclass(frozen=True)
class Verification:
    """Outcome of replaying a path.

    ``failed_step`` is the 0-based index of the first step that broke; ``goal`` is the goal
    text after the last successful step (None when closed).
    """

    status: Literal["verified", "broken", "elaboration-failed"]
    steps_run: int
    closed: bool = False
    failed_step: int | None = None
    reason: str | None = None
    goal: str | None = None

    def as_dict(self) -> dict[str, object]:
        return {"status": self.status, "steps_run": self.steps_run, "closed": self.closed,
                "failed_step": self.failed_step, "reason": self.reason}


def verify_steps(session: ProofSession, start: LeanNode, tactics: Sequence[str]
                 ) -> Verification:
    """Replay ``tactics`` from ``start`` step by step.

    A step after one that completed the proof is itself a failure ("no goals").
    """
    node = start
    for i, tactic in enumerate(tactics):
        result = session.step(node, tactic)
        outcome = classify_step(session, node, tactic, result)
        if isinstance(outcome, Rejection):
            return Verification("broken", i, failed_step=i, reason=outcome.reason,
                                goal=node.goal)
        if outcome == "closed":
            if i != len(tactics) - 1:
                return Verification("broken", i + 1, failed_step=i + 1,
                                    reason="the proof was already complete")
            return Verification("verified", i + 1, closed=True)
        if isinstance(outcome, GoalOutcome):
            node = outcome.node
    return Verification("verified", len(tactics), goal=node.goal)


def verify_pair_path(session: ProofSession, pair: Pair, tactics: Sequence[str]
                     ) -> Verification:
    """Elaborate ``pair``'s equality, then :func:`verify_steps`."""
    elaboration = session.elaborate(pair)
    if elaboration.node is None:
        reason = elaboration.error or "; ".join(m.data for m in elaboration.messages)
        return Verification("elaboration-failed", 0, reason=reason)
    return verify_steps(session, elaboration.node, tactics)
