"""Goals as the REPL prints them: every recorded fixture and every benchmark `goal` field."""

from __future__ import annotations

import json

import pytest

from transted.errors import ParseError
from transted.pipeline.opt import OptOptions, parse_statement, parse_term
from transted.pipeline.opt.declaration import header_opens, parse_declaration
from transted.pipeline.opt.goal import parse_goal, parse_goals
from transted.pipeline.opt.scope import free_names


def test_every_recorded_goal_fixture_parses(data_dir):
    fixtures = json.loads((data_dir / "repl" / "goal_fixtures.json").read_text(encoding="utf-8"))
    assert len(fixtures) == 97
    for fx in fixtures:
        goals = parse_goals(fx["text"])
        assert len(goals) == fx["text"].count("⊢"), fx["text"]


def test_every_benchmark_goal_parses_and_matches_its_statement_binders(statement_rows):
    auto_bound = {}
    for row in statement_rows:
        goals = parse_goals(row["goal"], opens=header_opens(row["header"]))
        assert len(goals) == 1
        # Lean introduces every binder of the theorem as one hypothesis name of the initial
        # goal (an anonymous instance binder shows as inst✝, a `_` binder as x✝) ...
        decl = parse_declaration(row["formal_statement"], header=row["header"])
        declared = [{"_": "x✝"}.get(n, n) for g in decl.binders for n in (g.names or ["inst✝"])]
        names = [n for h in goals[0].hypotheses for n in h.names]
        # a shadowed duplicate name shows as h₀✝; strip the inaccessible mark to compare
        extra = [n for n in names if n not in declared and n.split("✝")[0] + "✝" not in declared
                 and n.split("✝")[0] not in declared]
        assert len(names) == len(declared) + len(extra), row["name"]
        # ... plus auto-bound implicits: names the statement leaves unbound. Our parser must
        # see them free too (e.g. `∏ k in s, 1 + 1 / 2 ^ k` binds k only in `1`: body r:67).
        if extra:
            tree = parse_statement(row["formal_statement"], header=row["header"],
                                   options=OptOptions(normalize=False))
            assert set(extra) <= free_names(tree), row["name"]
            auto_bound[row["name"]] = extra
    # as recorded in Lean's goals (the `goal` field), not computed by us
    assert auto_bound == {"induction_pord1p1on2powklt5on2": ["k"], "amc12a_2021_p9": ["k"],
                          "induction_prod1p1onk3le3m1onn": ["k"], "mathd_algebra_158": ["k"],
                          "mathd_algebra_342": ["k"], "exercise_24_3a": ["I"]}


def test_hypotheses_case_tag_and_inaccessible_names():
    goal = parse_goal("case succ\nx y : ℕ\ninst✝ : Group G\nhx : x + 1 > x\n⊢ x + 1 + 1 > x + 1")
    assert goal.case == "succ"
    assert [h.names for h in goal.hypotheses] == [("x", "y"), ("inst✝",), ("hx",)]
    assert goal.hypotheses[1].type == parse_term("Group G")
    assert goal.target == parse_term("x + 1 + 1 > x + 1")


def test_wrapped_hypothesis_and_let_value():
    goal = parse_goal("hS :\n  ∀ s ∈ S,\n    ∃ a, s = a\nn : ℕ := 5\n⊢ IsTopologicalBasis S")
    assert goal.hypotheses[0].type == parse_term("∀ s ∈ S, ∃ a, s = a")
    assert goal.hypotheses[1].value == parse_term("5")


def test_goal_target_matches_the_statement_conclusion(statement_rows):
    row = next(r for r in statement_rows if r["name"] == "amc12a_2015_p10")
    goal = parse_goals(row["goal"], opens=header_opens(row["header"]))[0]
    stmt = parse_statement(row["formal_statement"], header=row["header"])
    body = stmt
    while body.label in ("∀ <SLOT>, <SLOT>", "<SLOT> → <SLOT>"):
        body = body.children[1]
    assert goal.target == body


def test_unsolved_goals_message_and_no_goals():
    goals = parse_goals("unsolved goals\ncase zero\n⊢ 0 + 1 > 0\n\ncase succ\nx : Nat\n⊢ x + 1 > x")
    assert [g.case for g in goals] == ["zero", "succ"]
    assert parse_goals("no goals") == []


def test_goal_error_is_positioned_in_the_whole_text():
    with pytest.raises(ParseError) as info:
        parse_goals("x : ℕ\n⊢ x + = 1")
    assert (info.value.line, info.value.column) == (2, 7)
