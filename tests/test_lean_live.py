"""Live Lean tests: run only where `lake` is on PATH and `transted setup` has been run.

Everywhere else they are SKIPPED (reported as skipped, never as passed). They were not run
on the machines transted was developed on (no Lean there); see docs/LEAN.md.
"""

from __future__ import annotations

import shutil
from functools import partial
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]

pytestmark = [
    pytest.mark.lean,
    pytest.mark.skipif(shutil.which("lake") is None,
                       reason="no Lean toolchain: `lake` is not on PATH (install elan, then "
                              "run `transted setup`; see docs/LEAN.md)"),
]

REF = ("theorem exercise_1_1b (x : ℝ) (y : ℚ) (h : y ≠ 0) : ( Irrational x ) → "
       "Irrational ( x * y ) := by sorry")
CAND = ("theorem mul_rat_tac_11959 (r : ℚ) (x : ℝ) (h : Irrational x) (hr : r ≠ 0) : "
        "Irrational (r * x) := by sorry")


@pytest.fixture(scope="module")
def session():
    from transted.pipeline.lean.server import LeanInteractBackend, ServerConfig
    from transted.pipeline.lean.session import ProofSession

    backend = LeanInteractBackend(ServerConfig(project=str(ROOT), timeout=300))
    yield ProofSession(backend, timeout=300)
    backend.close()


def _pair(ref: str, cand: str):
    from transted.reading.pairs import Pair, Statement

    return Pair(id="live", reference=Statement(statement=ref, header="import Mathlib"),
                candidate=Statement(statement=cand, header="import Mathlib"))


def test_doctor_all_ok():
    from transted.pipeline.lean.project import LeanProject

    assert all(c.ok for c in LeanProject(ROOT).checks())


def test_equality_elaborates_to_an_equality_goal(session):
    from transted.pipeline.lean.moves import is_equality_goal

    elab = session.elaborate(_pair(REF, CAND))
    assert elab.status == "elaborated"
    assert is_equality_goal(elab.node.goal)


def test_identical_statements_close_by_the_shortcut(session):
    from transted.pipeline.lean.moves import LeanMoveProvider

    elab = session.elaborate(_pair(REF, REF))
    _, closed = LeanMoveProvider().shortcut(session, elab.node)
    assert closed


def test_rw_question_moves_are_equalities(session):
    from transted.pipeline.lean.moves import GoalOutcome, LeanMoveProvider, is_equality_goal

    elab = session.elaborate(_pair(REF, CAND))
    moves = list(LeanMoveProvider().moves(session, elab.node))
    assert moves
    for move in moves:
        assert move.outcome == "closed" or (isinstance(move.outcome, GoalOutcome)
                                            and is_equality_goal(move.outcome.goal))


def test_paper_c2_path_replays(session):
    """ASSESS Appendix C.2 (exercise_1_1b): the transformation path printed in the paper."""
    from transted.pipeline.lean.verify import verify_pair_path

    path = ["rw [forall_swap]", "apply forall_congr; intro _",
            "rw [← isRegular_iff_ne_zero']", "apply forall_congr; intro _",
            "rw [forall_swap]", "rw [@Rat.cast_comm]"]
    v = verify_pair_path(session, _pair(REF, CAND), path)
    assert v.status == "verified", v


def test_elaboration_failure_is_a_status(session):
    elab = session.elaborate(_pair(REF, "theorem bad : undefined_thing_xyz = 1 := by sorry"))
    assert elab.status == "elaboration-failed" and elab.messages


@pytest.mark.parametrize(("name", "cand", "expected"), [
    ("typecheck", CAND, 1.0),
    ("defeq", REF, 1.0),
    ("beq", REF, 1.0),
    ("beq", "theorem f : (1 : ℕ) = 2 := by sorry", 0.0),
])
def test_baselines(session, name, cand, expected):
    from transted.metrics.registry import get_metric

    metric = get_metric(name, backend=session.backend, timeout=300)
    result = metric.score_pair(_pair(REF, cand))
    assert result.status == "ok" and result.score == expected, result


def test_executor_workers_live():
    """Two worker processes, one live REPL each, answer a Lean metric's pairs."""
    from transted.pipeline.lean.server import LeanInteractBackend, ServerConfig
    from transted.running.executors import LocalExecutor, MetricSpec, score_stream

    spec = MetricSpec("typecheck", {"timeout": 300},
                      backend_factory=partial(LeanInteractBackend,
                                              ServerConfig(project=str(ROOT), timeout=300)))
    pairs = [_pair(REF, "theorem t : 1 + 1 = 2 := rfl")] * 2
    with LocalExecutor(2, chunk_size=1) as executor:
        results = list(score_stream(pairs, spec.build(), executor=executor, spec=spec))
    assert [(r.status, r.score) for r in results] == [("ok", 1.0)] * 2, results


def test_language_server_tree_and_goals():
    from transted.pipeline.lean.lsp import LeanLanguageServer

    with LeanLanguageServer(ROOT) as lsp:
        tree = lsp.statement_tree("theorem t (x : ℕ) : x + 0 = x := by sorry")
        assert "<SLOT> = <SLOT>" in tree.labels()
        goals = lsp.goals_at("import Mathlib\nexample (x : ℕ) : x + 0 = x := by\n  simp\n", 2, 2)
        assert goals and goals[0].endswith("⊢ x + 0 = x")
