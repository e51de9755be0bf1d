"""Goal parsing of every recorded goal string in ``goal_fixtures.json`` (REPL output).

Each fixture is split by hand into case tag, hypothesis lines (``names : type``) and the
``⊢`` target; the parsed goal must have the same case tag, the same hypothesis names, and
hypothesis types / target equal to the OPT parser's trees of those substrings. None of the
recorded goals wraps a line, so the line split is exact.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from transted.pipeline.lean.moves import is_equality_goal

goal = pytest.importorskip("transted.pipeline.opt.goal", reason="the OPT goal parser is not available")
from transted.pipeline.opt import parse_term  # noqa: E402

FIXTURES = json.loads((Path(__file__).parent / "data" / "repl" / "goal_fixtures.json")
                      .read_text(encoding="utf-8"))


def _by_hand(text: str):
    """(case, [(names, type text, value text or None)], target text)."""
    lines = text.splitlines()
    case = lines[0][5:] if lines[0].startswith("case ") else None
    hyps = []
    for line in lines[1 if case else 0:]:
        if line.startswith("⊢ "):
            return case, hyps, line[2:]
        names, ty = line.split(" : ", 1)
        ty, _, value = ty.partition(" := ")  # a let-bound hypothesis `h : t := v`
        hyps.append((tuple(names.split()), ty, value or None))
    raise AssertionError(f"no target in {text!r}")


def _check(parsed, text: str) -> None:
    case, hyps, target = _by_hand(text)
    assert parsed.case == case
    assert [h.names for h in parsed.hypotheses] == [names for names, _, _ in hyps]
    assert [h.type for h in parsed.hypotheses] == [parse_term(ty) for _, ty, _ in hyps]
    assert [h.value for h in parsed.hypotheses] == [
        parse_term(v) if v else None for _, _, v in hyps]
    assert parsed.target == parse_term(target)


@pytest.mark.parametrize("fixture", FIXTURES, ids=lambda f: f"{Path(f['file']).stem}:"
                         f"{f['response_index']}:{f['kind']}")
def test_goal_fixture(fixture):
    text = fixture["text"]
    if text == "no goals":  # `tactics[].goals` after a closing tactic
        assert goal.parse_goals(text) == []
    elif fixture["kind"] == "message.unsolved_goals":
        body = text.split("\n", 1)[1]
        goals = goal.parse_goals(text)
        assert len(goals) == body.count("⊢")
        for parsed, chunk in zip(goals, body.split("\n\n"), strict=True):
            _check(parsed, chunk)
    else:
        _check(goal.parse_goal(text), text)


def test_fixture_count():
    assert len(FIXTURES) == 97  # entries in tests/data/repl/goal_fixtures.json


@pytest.mark.parametrize(("text", "expected"), [
    ("x : ℕ\n⊢ x = x", True),                                     # induction.expected.out
    ("case succ\nn✝ : ℕ\na✝ : n✝ = n✝\n⊢ n✝ + 1 = n✝ + 1", True),   # induction.expected.out
    ("x : ℝ\nh0 : |x| > 1\n⊢ x < 0 ∨ 2 * x > 2", False),          # on_goal.expected.out
    ("⊢ Nat", False),                                            # proof_step.expected.out
    ("⊢ 0 < 1", False),                                          # exact.expected.out
])
def test_equality_goal_validity(text, expected):
    """ASSESS Algorithm 1 line 18: a valid node's target is an equality."""
    assert is_equality_goal(text) is expected
