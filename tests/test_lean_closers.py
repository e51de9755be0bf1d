"""Lean closing moves (decision tactics) and the ``plausible`` refuter (issue 13 item 4).

CONSTRUCTED RESPONSES: no Lean toolchain can run here and no recording of these requests
exists, so every REPL response below is *constructed* by hand in the exact JSON shape of the
recorded ones in tests/data/repl/transcripts (a completed step: ``{"proofStatus":
"Completed", "proofState": n, "goals": []}`` as in upstream ``Mathlib/test/exact``; a thrown
tactic: ``{"message": "Lean error:\\n..."}`` as in the same file; ``#print axioms`` as an
``info`` message in Lean's wording). They test our side of the contract (which requests we
send, how we read the answers), never what Lean would answer. Live behaviour: marker ``lean``.
"""

from __future__ import annotations

import shutil

import pytest

from transted.metrics.registry import get_metric
from transted.pipeline.lean.backend import ReplayBackend
from transted.pipeline.lean.closers import (
    CHECK_NAME,
    REFUTER,
    check_command,
    has_local_context,
    parse_counterexample,
)
from transted.pipeline.lean.equality import equality_command
from transted.pipeline.lean.moves import LeanMoveProvider
from transted.pipeline.lean.session import LeanNode, ProofSession
from transted.reading.pairs import Pair, Statement

REF = Statement(statement="theorem t : ∀ x : ℕ, x < 3 → x ≤ 2 := by sorry")
CAND = Statement(statement="theorem t : ∀ x : ℕ, x ≤ 3 → x ≤ 2 := by sorry")
EQ = equality_command(REF, CAND)
PATH = ("apply forall_congr; intro _",)
OPEN_GOAL = "x : ℕ\n⊢ (x < 3 → x ≤ 2) = (x ≤ 3 → x ≤ 2)"
POS = {"pos": {"line": 0, "column": 0}, "endPos": {"line": 0, "column": 0}}


def constructed_completed(state: int) -> dict:
    return {"proofStatus": "Completed", "proofState": state, "goals": []}


def constructed_thrown(text: str) -> dict:
    return {"message": "Lean error:\n" + text}


def constructed_axioms(axioms: str, *extra: dict) -> dict:
    return {"env": 1, "messages": [*extra, {"severity": "info", **POS,
                                            "data": f"'{CHECK_NAME}' {axioms}"}]}


def _node(path=PATH, goal=OPEN_GOAL) -> LeanNode:
    return LeanNode(EQ, path, 5, goal, 0)


def _exchanges(check_response: dict) -> list[tuple[dict, dict]]:
    return [({"tactic": "rw?", "proofState": 5}, constructed_thrown("rw? found nothing")),
            ({"tactic": "decide", "proofState": 5},
             constructed_thrown("failed to synthesize Decidable")),
            ({"tactic": "omega", "proofState": 5}, constructed_completed(6)),
            ({"cmd": "import Mathlib"}, {"env": 0}),
            ({"cmd": check_command(_node(), "omega"), "env": 0}, check_response)]


def _moves(exchanges, node=None, **kw):
    backend = ReplayBackend(exchanges, source="constructed")
    provider = LeanMoveProvider(tactics=(), **kw)
    moves = list(provider.moves(ProofSession(backend), node or _node()))
    return moves, provider, backend


def test_the_check_command_declares_axioms_and_replays_the_path():
    text = check_command(_node(), "omega")
    assert "axiom thm_P : ∀ x : ℕ, x < 3 → x ≤ 2" in text and "axiom thm_Q" in text
    assert ":= sorry" not in text and "theorem thm_" not in text
    assert text.endswith(f"theorem {CHECK_NAME} : type_of% @thm_P = type_of% @thm_Q := by\n"
                         f"  apply forall_congr; intro _\n  omega\n#print axioms {CHECK_NAME}")


def test_a_closer_counts_after_the_post_proof_check():
    moves, provider, backend = _moves(_exchanges(
        constructed_axioms("depends on axioms: [propext]")))
    assert [(m.tactic, m.outcome) for m in moves] == [("omega", "closed")]
    assert [r.tactic for r in provider.rejected] == ["rw?", "decide"]
    # closers stop at the first that closes: linarith … were never asked
    assert [r.get("tactic") for r in backend.requests if "tactic" in r] == ["rw?", "decide",
                                                                           "omega"]


@pytest.mark.parametrize("check, why", [
    (constructed_axioms("depends on axioms: [propext, sorryAx]"), "post-proof"),
    (constructed_axioms("depends on axioms: [propext, thm_P]"), "post-proof"),
    (constructed_axioms("does not depend on any axioms",
                        {"severity": "error", **POS, "data": "type mismatch"}), "post-proof"),
    (constructed_axioms("does not depend on any axioms",
                        {"severity": "warning", **POS, "data": "declaration uses 'sorry'"}),
     "post-proof"),
])
def test_a_closer_that_fails_the_post_proof_check_is_no_move(check, why):
    exchanges = _exchanges(check)
    # the remaining closers are asked after omega is refused; each throws (constructed)
    exchanges += [({"tactic": t, "proofState": 5}, constructed_thrown(f"{t} failed"))
                  for t in ("norm_num", "linarith", "nlinarith", "positivity", "ring_nf")]
    moves, provider, _ = _moves(exchanges)
    assert moves == []
    assert any(r.tactic == "omega" and why in r.reason for r in provider.rejected)


def test_a_step_that_completes_with_sorry_is_never_checked_further():
    sorry_step = {"proofStatus": "Completed", "proofState": 6, "goals": [],
                  "sorries": [{"proofState": 7, "goal": "⊢ False", **POS}]}
    exchanges = [e for e in _exchanges({}) if e[0].get("tactic") != "omega"
                 and "cmd" not in e[0]]
    exchanges.append(({"tactic": "omega", "proofState": 5}, sorry_step))
    exchanges += [({"tactic": t, "proofState": 5}, constructed_thrown(f"{t} failed"))
                  for t in ("norm_num", "linarith", "nlinarith", "positivity", "ring_nf")]
    moves, provider, backend = _moves(exchanges)
    assert moves == [] and not any("cmd" in r for r in backend.requests)


@pytest.mark.parametrize("path, goal", [((), OPEN_GOAL),  # the root: the statements
                                        (PATH, "⊢ (2 + 2 = 4) = (3 + 3 = 6)")])  # closed
def test_vacuity_guard_no_closer_on_the_root_or_a_closed_goal(path, goal):
    exchanges = [({"tactic": "rw?", "proofState": 5}, constructed_thrown("nothing"))]
    moves, _, backend = _moves(exchanges, node=_node(path, goal))
    assert moves == [] and backend.requests == [{"tactic": "rw?", "proofState": 5}]
    assert has_local_context(OPEN_GOAL) and not has_local_context("⊢ (2 + 2 = 4) = (3 = 3)")


# Plausible's message format as its README and docstring print it (text, not a recording).
FOUND = ("===================\nFound a counter-example!\nx := 3\nguard: 3 ≤ 3\n"
         "issue: 3 ≤ 2 does not hold\n(0 shrinks)\n-------------------")
FOUND_OLD = "===================\nFound problems!\n\nx := 258\n-------------------"


def test_counterexample_parsing():
    assert parse_counterexample(FOUND) == ((("x", "3"),), "3 ≤ 2 does not hold")
    assert parse_counterexample(FOUND_OLD) == ((("x", "258"),), None)
    assert parse_counterexample("Gave up after failing to generate values that fulfill the "
                                "preconditions 100 times.") is None


def _pair_exchanges(refuter_response: dict) -> list[tuple[dict, dict]]:
    goal = "⊢ (∀ x : ℕ, x < 3 → x ≤ 2) = ∀ x : ℕ, x ≤ 3 → x ≤ 2"
    elaborated = {"sorries": [{"proofState": 0, "goal": goal,
                               "pos": {"line": EQ.goal_line, "column": 60},
                               "endPos": {"line": EQ.goal_line, "column": 65}}],
                  "messages": [{"severity": "warning", **POS,
                                "data": "declaration uses 'sorry'"}], "env": 1}
    return [({"cmd": "import Mathlib"}, {"env": 0}),
            ({"cmd": EQ.command, "env": 0}, elaborated),
            ({"tactic": "norm_num1", "proofState": 0}, constructed_thrown("norm_num1 failed")),
            ({"tactic": "rfl", "proofState": 0}, constructed_thrown("rfl failed")),
            ({"tactic": REFUTER, "proofState": 0}, refuter_response)]


def test_metric_reports_lean_refutation_as_evidence():
    pair = Pair(id="p", reference=REF, candidate=CAND)
    backend = ReplayBackend(_pair_exchanges(constructed_thrown(FOUND)), source="constructed")
    # evidence=False: only the provider's finding (the offline engines would refute it too)
    metric = get_metric("transted", providers="lean", backend=backend, max_expansions=0,
                        evidence=False)
    result = metric.score_pair(pair)
    assert result.status == "ok", result.error
    assert result.details["evidence"] == "refuted" and result.score == 0.0
    d = result.details["evidence_detail"]
    assert (d["engine"], d["witness"], d["script"], d["reason"]) == (
        "lean", {"x": "3"}, [REFUTER], "3 ≤ 2 does not hold")
    assert "closers:decide,omega,norm_num,linarith,nlinarith,positivity,ring_nf" in str(
        metric.signature) and "refuter:plausible" in str(metric.signature)


def test_no_counterexample_no_evidence():
    pair = Pair(id="p", reference=REF, candidate=CAND)
    backend = ReplayBackend(_pair_exchanges(constructed_thrown("plausible: Gave up")),
                            source="constructed")
    result = get_metric("transted", providers="lean", backend=backend,
                        max_expansions=0, evidence=False).score_pair(pair)
    assert result.status == "ok" and result.details["evidence"] == "none"


@pytest.mark.lean
@pytest.mark.skipif(shutil.which("lake") is None, reason="no Lean toolchain: `lake` is not "
                    "on PATH (install elan, then run `transted setup`; see docs/LEAN.md)")
def test_live_refuter_and_closers_run():  # pragma: no cover - needs Lean
    # no expectation of what Lean answers: only that whatever it reports is well-formed
    pair = Pair(id="p", reference=REF, candidate=CAND)
    with get_metric("transted", providers="lean", max_expansions=4) as metric:
        result = metric.score_pair(pair)
    assert result.status == "ok"
    for item in result.details.get("evidence", []):
        assert item["kind"] == "refuted" and item["witness"]
