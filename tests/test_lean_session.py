"""Session, moves and replay verification against recorded REPL transcripts only.

Where no recording exists for a request, the replay backend refuses (UnrecordedRequest) and
the tests assert exactly that: nothing here invents Lean's answer.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from transted.pipeline.lean.backend import ReplayBackend, UnrecordedRequest
from transted.pipeline.lean.equality import EqualityCommand
from transted.pipeline.lean.moves import GoalOutcome, LeanMoveProvider, Rejection, classify_step
from transted.pipeline.lean.session import LeanNode, ProofSession
from transted.pipeline.lean.verify import verify_steps

pytest.importorskip("lean_interact", reason="lean-interact (extra `lean`) is not installed")

UPSTREAM = Path(__file__).parent / "data" / "repl" / "transcripts" / "upstream_repl_test"


def _start(session: ProofSession, imports: str, command: str) -> LeanNode:
    """A node at the first sorry of ``command`` (recorded), as the search would hold it."""
    result = (session.run_command(imports, command) if imports
              else session.backend.command(command))
    sorry = result.sorries[0]
    eq = EqualityCommand(imports=imports, command=command, goal_line=sorry.line or 1)
    return LeanNode(eq, (), sorry.proof_state, sorry.goal, session.backend.generation)


def test_verified_and_closed_path():
    session = ProofSession(ReplayBackend.from_transcript(UPSTREAM / "proof_transitivity.in"))
    node = _start(session, "", "example (x y z : Nat) (h1 : x = y) (h2 : y = z) : x = z := "
                               "by sorry")
    assert node.goal == "x y z : Nat\nh1 : x = y\nh2 : y = z\n⊢ x = z"
    v = verify_steps(session, node, ["exact Eq.trans h1 h2"])
    assert (v.status, v.closed, v.steps_run, v.failed_step) == ("verified", True, 1, None)


def test_two_goals_break_the_path():
    session = ProofSession(ReplayBackend.from_transcript(UPSTREAM / "Mathlib" / "test"
                                                         / "induction.in"))
    node = _start(session, "import Mathlib", "theorem foo (x : Nat) : x = x := by sorry")
    assert node.goal == "x : ℕ\n⊢ x = x"
    v = verify_steps(session, node, ["induction x"])
    assert (v.status, v.failed_step, v.goal) == ("broken", 0, "x : ℕ\n⊢ x = x")
    assert "2 goals" in v.reason


def test_a_step_that_slips_in_sorry_is_rejected():
    session = ProofSession(ReplayBackend.from_transcript(UPSTREAM / "have_by_sorry.in"))
    node = _start(session, "", "theorem foo (x : Int) : x = x := by\n  have h : x = 1 := by sorry")
    tactic = "have h : x = 1 := by sorry"
    result = session.step(node, tactic)
    assert result.goals == ("x : Int\nh : x = 1\n⊢ x = 1",) and result.sorries
    outcome = classify_step(session, node, tactic, result)
    assert isinstance(outcome, Rejection) and "sorry" in outcome.reason
    assert session.child(node, tactic, result) is None


def test_a_kernel_error_with_no_goals_is_not_closed():
    session = ProofSession(ReplayBackend.from_transcript(UPSTREAM / "app_type_mismatch2.in"))
    node = _start(session, "", "example : 1 = 0 := sorry")
    first = session.step(node, "cases 1")
    assert len(first.goals) == 2
    second = session.step(LeanNode(node.equality, ("cases 1",), 1, first.goals[0], 0), "rfl")
    assert second.goals == ("case succ\nn✝ : Nat\n⊢ n✝ + 1 = 0",)
    child = LeanNode(node.equality, ("cases 1", "rfl"), 2, second.goals[0], 0)
    tactic = "have: true := by\n    apply ?succ\n    trivial"
    outcome = classify_step(session, child, tactic, session.step(child, tactic))
    assert isinstance(outcome, Rejection) and outcome.reason.startswith("error: Error: kernel")


def test_suggestions_are_rerun_as_their_own_step():
    backend = ReplayBackend.from_transcript(UPSTREAM / "Mathlib" / "test" / "exact.in")
    session = ProofSession(backend)
    node = _start(session, "import Mathlib", "theorem test : 0 < 1 := by sorry")
    provider = LeanMoveProvider(suggest="exact?", tactics=())
    with pytest.raises(UnrecordedRequest):  # the re-run was never recorded: no invented answer
        list(provider.moves(session, node))
    assert backend.requests[-2:] == [{"tactic": "exact?", "proofState": 0},
                                     {"tactic": "exact Nat.one_pos", "proofState": 0}]


def test_failed_suggestion_tactic_gives_no_moves():
    backend = ReplayBackend.from_transcript(UPSTREAM / "Mathlib" / "test" / "exact.in")
    session = ProofSession(backend)
    session.run_command("import Mathlib", "theorem test : 0 < 1 := by sorry")
    backend.tactic("exact?", 0)
    node = _start(session, "import Mathlib", "theorem test : 3 = 7 := by sorry")
    assert node.proof_state == 2
    provider = LeanMoveProvider(suggest="exact?", tactics=())
    assert list(provider.moves(session, node)) == []
    assert "could not close the goal" in provider.rejected[0].reason


def test_a_stale_node_is_rebuilt_not_reused():
    """After a restart (generation + 1) the node's proof-state id is dead: the session
    re-elaborates (starting with the imports) instead of sending the stale id."""
    backend = ReplayBackend.from_transcript(UPSTREAM / "proof_transitivity.in")
    session = ProofSession(backend)
    node = _start(session, "", "example (x y z : Nat) (h1 : x = y) (h2 : y = z) : x = z := "
                               "by sorry")
    stale = LeanNode(EqualityCommand("import Mathlib", node.equality.command, 1),
                     (), node.proof_state, node.goal, node.generation)
    backend.generation += 1
    with pytest.raises(UnrecordedRequest):
        session.step(stale, "exact Eq.trans h1 h2")
    assert backend.requests[-1] == {"cmd": "import Mathlib"}


def test_goal_outcome_for_one_equality_goal():
    session = ProofSession(ReplayBackend.from_transcript(UPSTREAM / "Mathlib" / "test"
                                                         / "induction.in"))
    node = _start(session, "import Mathlib", "theorem foo (x : Nat) : x = x := by sorry")
    session.step(node, "induction x")
    two = LeanNode(node.equality, ("induction x",), 1, "", node.generation)
    tactic = "next => rfl"
    outcome = classify_step(session, two, tactic, session.step(two, tactic))
    assert isinstance(outcome, GoalOutcome)
    assert outcome.goal == "case succ\nn✝ : ℕ\na✝ : n✝ = n✝\n⊢ n✝ + 1 = n✝ + 1"
    assert outcome.proof_state == 2 and outcome.node.path == ("induction x", "next => rfl")
