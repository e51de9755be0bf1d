"""Lean baselines (typecheck, defeq, beq) where no Lean is available, and the closure rule."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from transted.metrics.lean_baselines import BEqCheck, DefEq, Typecheck
from transted.metrics.registry import get_metric
from transted.pipeline.lean.backend import ReplayBackend
from transted.pipeline.lean.closure import axioms_used, clean_closure
from transted.pipeline.lean.results import CommandResult, LeanMessage
from transted.reading.pairs import read_pairs

ROOT = Path(__file__).resolve().parents[1]
PAIR = read_pairs(ROOT / "tests" / "data" / "gted" / "proofnet.jsonl")[0]
TRANSCRIPT = ROOT / "tests" / "data" / "repl" / "transcripts" / "upstream_repl_test" / "file.in"


@pytest.mark.parametrize("name", ["typecheck", "defeq", "beq"])
def test_registered_classes(name):
    metric = get_metric(name, project=str(ROOT))
    assert metric.name == name and metric.binary
    assert type(metric) is {"typecheck": Typecheck, "defeq": DefEq, "beq": BEqCheck}[name]


@pytest.mark.skipif(shutil.which("lake") is not None, reason="`lake` is on PATH here")
@pytest.mark.parametrize("name", ["typecheck", "defeq", "beq"])
def test_without_lean_the_result_is_unavailable_not_a_score(name):
    result = get_metric(name, project=str(ROOT)).score_pair(PAIR)
    assert result.status == "unavailable" and result.score is None
    assert result.error.startswith("unavailable: Lean backend not ready")
    assert "|lean:v4.32.0|mathlib:v4.32.0@81a5d257c8e4|" in result.signature


@pytest.mark.parametrize("cls", [Typecheck, DefEq, BEqCheck])
def test_replay_backend_never_invents_an_answer(cls):
    metric = cls(backend=ReplayBackend.from_transcript(TRANSCRIPT))
    result = metric.score_pair(PAIR)
    assert result.status == "unavailable" and "no recorded answer" in result.error
    assert "backend:replay:file" in result.signature


def test_options_in_signature():
    assert "explicit:yes" in str(DefEq(explicit=True, project=str(ROOT)).signature)
    assert "auto-implicit:yes" in str(Typecheck(project=str(ROOT)).signature)
    with pytest.raises(ValueError, match="`timeout`"):
        BEqCheck(timeout=0)


def test_beq_scripts_follow_the_issue_order():
    scripts = BEqCheck().scripts("thm_P")
    assert scripts[0] == "exact?"
    assert scripts[1] == "intros\n  apply thm_P <;> tauto"
    assert scripts[-1] == "intros\n  have h := @thm_P\n  exact?"
    assert len(scripts) == 9


def _info(*texts: str, errors: tuple[str, ...] = (), sorry: bool = False) -> CommandResult:
    msgs = [LeanMessage("info", t) for t in texts] + [LeanMessage("error", e) for e in errors]
    if sorry:
        msgs.append(LeanMessage("warning", "declaration uses `sorry`"))
    return CommandResult(env=3, messages=tuple(msgs))


# `#print axioms` output format as in Lean's own #guard_msgs tests:
#   /-- info: 'Foam.t193' does not depend on any axioms -/
#   "'Scope.fromBytes'_append' depends on axioms: [propext]"
def test_axioms_used_parses_both_forms():
    assert axioms_used(_info("'thm_Q' does not depend on any axioms"), "thm_Q") == frozenset()
    got = axioms_used(_info("'thm_Q' depends on axioms: [propext, Classical.choice, thm_P]"),
                      "thm_Q")
    assert got == {"propext", "Classical.choice", "thm_P"}
    assert axioms_used(_info("'other' does not depend on any axioms"), "thm_Q") is None


@pytest.mark.parametrize(("result", "ok"), [
    (_info("'thm_Q' depends on axioms: [propext, thm_P]"), True),
    (_info("'thm_Q' depends on axioms: [propext, sorryAx, thm_P]"), False),   # sorry slipped in
    (_info("'thm_Q' depends on axioms: [thm_P]", sorry=True), False),
    (_info("'thm_Q' depends on axioms: [thm_P]", errors=("unsolved goals",)), False),
    (_info("'thm_Q' depends on axioms: [my_axiom, thm_P]"), False),         # foreign axiom
    (_info("Try this: exact thm_Q", "'thm_Q' depends on axioms: [thm_P]"), False),  # self-use
    (_info(), False),                                                       # no axiom report
])
def test_clean_closure(result, ok):
    assert clean_closure(result, "thm_Q", "thm_P") is ok


@pytest.mark.parametrize("cls", [Typecheck, DefEq, BEqCheck])
def test_signature_is_stable_across_scoring(cls):
    """A batch refuses to mix signatures: starting the backend must not change it."""
    metric = cls(project=str(ROOT))
    before = str(metric.signature)
    metric.score_pair(PAIR)
    assert str(metric.signature) == before
    assert "|backend:lean-interact|" in before
