"""Lean moves for the TransTED search: the ``norm_num1``/``rfl`` shortcut, ``rw?``
suggestions, and the additional tactic commands of ASSESS Table 1.

ASSESS Appendix B, Algorithm 1: ``eq ← UseTactic(eq, norm_num1)``; if that or ``rfl``
completes the goal the distance is 0 (lines 10-12); otherwise the search expands nodes with
"suggestions by rw? and some given additional tactic commands" (line 17), and "valid nodes"
are "a single goal of equality, or completed" (line 18). Table 1 lists the additional
commands (congrArg, congrFun, forall_congr + intro, implies_congr + exact?, ext,
rw [propext and_imp], norm_cast). Beyond the paper (issue 13): decision tactics as closing
moves and ``plausible`` as a refuter at the root, with post-proof checks (:mod:`.closers`).

Each ``rw?`` suggestion is re-run as its own step from the node, and only that step's
answer counts; the goal comment in the suggestion is never taken as Lean's answer. This
module knows nothing of the search engine: an adapter in ``transted/pipeline/search/providers/``
turns :class:`LeanMove` values into search moves.
"""

from __future__ import annotations

import logging
from collections.abc import Iterator
from dataclasses import dataclass, field
from typing import Literal, NamedTuple

from transted.budget import Budget
from transted.errors import LeanTimeout, ParseError
from transted.pipeline.lean.closers import (
    DECISION_TACTICS,
    REFUTER,
    Refutation,
    closure_checked,
    has_local_context,
    refute_by_plausible,
)
from transted.pipeline.lean.results import StepResult
from transted.pipeline.lean.session import LeanNode, ProofSession
from transted.pipeline.lean.suggestions import parse_suggestions
from transted.pipeline.opt.goal import parse_goal
from transted.pipeline.opt.labels import EQ

__all__ = ["TABLE1_TACTICS", "GoalOutcome", "LeanMove", "Rejection", "LeanMoveProvider",
           "is_equality_goal", "classify_step"]

logger = logging.getLogger("transted.pipeline.lean")

TABLE1_TACTICS: tuple[str, ...] = (
    "apply congrArg",
    "apply congrFun",
    "apply forall_congr; intro _",
    "apply implies_congr; all_goals (try exact?)",
    "ext",
    "rw [propext and_imp]",
    "norm_cast",
)
"""ASSESS Table 1, "Additional Tactic Commands", in the paper's order."""



@dataclass(frozen=True)
class GoalOutcome:
    """A move that left one equality goal: its text, proof-state id and the child node."""

    goal: str
    proof_state: int
    node: LeanNode


class LeanMove(NamedTuple):
    """``(tactic_text, lemma_name_or_None, outcome)``; outcome ``"closed"`` or a goal."""

    tactic: str
    lemma: str | None
    outcome: Literal["closed"] | GoalOutcome


@dataclass(frozen=True)
class Rejection:
    """A tried move that is not a valid search node, and why (kept for diagnostics)."""

    tactic: str
    reason: str


def is_equality_goal(goal: str) -> bool:
    """The goal's target is ``_ = _`` (parsed with the OPT goal parser)."""

    try:
        return parse_goal(goal).target.label == EQ
    except ParseError:
        return False


def classify_step(session: ProofSession, node: LeanNode, tactic: str, result: StepResult
             ) -> Literal["closed"] | GoalOutcome | Rejection:
    """Apply the validity rule of Algorithm 1 (line 18) to one step's answer."""
    if result.closed:
        return "closed"
    if result.failed:
        return Rejection(tactic, "error: " + (result.error or result.status or "error message"))
    if result.sorries:
        return Rejection(tactic, "the step introduced `sorry`")
    if len(result.goals) != 1:
        return Rejection(tactic, f"{len(result.goals)} goals (a valid node has one)")
    child = session.child(node, tactic, result)
    if child is None:
        return Rejection(tactic, "no proof state returned")
    if not is_equality_goal(child.goal):
        return Rejection(tactic, "the goal is not an equality `_ = _`")
    return GoalOutcome(child.goal, child.proof_state, child)


@dataclass
class LeanMoveProvider:
    """Generates the Lean moves at a node.

    Parameters
    ----------
    suggest : the tactic whose "Try this" suggestions become moves (``rw?``).
    tactics : the additional tactic commands (Table 1).
    hypothesis_rewrites : also use suggestions ``rw [...] at h`` (they leave the target
        unchanged, so they never lower the TED; off by default).
    closers : decision tactics tried as closing moves below the root on goals with a local
        context, each accepted only after the post-proof checks (:mod:`.closers`).
    refuter : the tactic that looks for a counterexample at the root (None: off).
    """

    suggest: str = "rw?"
    tactics: tuple[str, ...] = TABLE1_TACTICS
    hypothesis_rewrites: bool = False
    closers: tuple[str, ...] = DECISION_TACTICS
    refuter: str | None = REFUTER
    rejected: list[Rejection] = field(default_factory=list)

    def options(self) -> dict[str, object]:
        """What changes the moves (for signatures)."""
        return {"suggest": self.suggest, "tactics": len(self.tactics),
                "hyp-rewrites": self.hypothesis_rewrites,
                "closers": ",".join(self.closers) or "none",
                "refuter": "plausible" if self.refuter == REFUTER else (self.refuter or "none")}

    def refute(self, session: ProofSession, node: LeanNode) -> Refutation | None:
        """A counterexample to the root goal ``node`` (see :func:`.closers.refute`)."""
        return None if self.refuter is None else refute_by_plausible(session, node, self.refuter)

    def shortcut(self, session: ProofSession, node: LeanNode) -> tuple[LeanNode, bool]:
        """Algorithm 1 lines 10-12: ``norm_num1``, then ``rfl``.

        Returns the node to search from (after ``norm_num1`` when it left one equality)
        and whether the goal was completed.
        """
        start = node
        outcome = self._try(session, node, "norm_num1")
        if outcome == "closed":
            return node, True
        if isinstance(outcome, GoalOutcome):
            start = outcome.node
        return start, self._try(session, start, "rfl") == "closed"

    def moves(self, session: ProofSession, node: LeanNode, *, budget: Budget | None = None
              ) -> Iterator[LeanMove]:
        """Yield the valid moves at ``node``: re-run ``rw?`` suggestions, then Table 1.

        ``budget`` (the pair's :class:`~transted.budget.Budget`) is checked before every
        REPL request.
        """
        seen: set[str] = set()
        if budget is not None and budget.spent():
            return
        for tactic, lemma in self._suggested(session, node):
            if tactic not in seen:
                if budget is not None and budget.spent():
                    return
                seen.add(tactic)
                outcome = self._try(session, node, tactic)
                if not isinstance(outcome, Rejection):
                    yield LeanMove(tactic, lemma, outcome)
        for tactic in self.tactics:
            if tactic not in seen:
                if budget is not None and budget.spent():
                    return
                seen.add(tactic)
                outcome = self._try(session, node, tactic)
                if not isinstance(outcome, Rejection):
                    yield LeanMove(tactic, None, outcome)
        if not node.path or not has_local_context(node.goal):
            return  # the vacuity guard of .closers: never at the root, only open formulas
        for tactic in self.closers:
            if tactic in seen or (budget is not None and budget.spent()):
                continue
            seen.add(tactic)
            if self._close(session, node, tactic):
                yield LeanMove(tactic, None, "closed")
                return  # one closing move is enough: the goal is done

    def _close(self, session: ProofSession, node: LeanNode, tactic: str) -> bool:
        try:
            result = session.step(node, tactic)
        except LeanTimeout:
            self.rejected.append(Rejection(tactic, "timeout"))
            return False
        why = closure_checked(session, node, tactic, result)
        if why is not None:
            logger.debug("closer %r rejected: %s", tactic, why)
            self.rejected.append(Rejection(tactic, why))
        return why is None

    def _suggested(self, session: ProofSession, node: LeanNode) -> list[tuple[str, str | None]]:
        try:
            result = session.step(node, self.suggest)
        except LeanTimeout:
            self.rejected.append(Rejection(self.suggest, "timeout"))
            return []
        found: list[tuple[str, str | None]] = []
        for message in result.infos():
            for s in parse_suggestions(message):
                if s.location is not None and not self.hypothesis_rewrites:
                    continue
                found.append((s.tactic, s.lemma))
        if not found and result.error:
            self.rejected.append(Rejection(self.suggest, result.error))
        return found

    def _try(self, session: ProofSession, node: LeanNode, tactic: str
             ) -> Literal["closed"] | GoalOutcome | Rejection:
        try:
            result = session.step(node, tactic)
        except LeanTimeout:
            outcome: Literal["closed"] | GoalOutcome | Rejection = Rejection(tactic, "timeout")
        else:
            outcome = classify_step(session, node, tactic, result)
        if isinstance(outcome, Rejection):
            logger.debug("move %r rejected: %s", tactic, outcome.reason)
            self.rejected.append(outcome)
        return outcome
