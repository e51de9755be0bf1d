"""Every recorded "Try this" message through the suggestion parser.

Expected fields are read off the recorded text by hand (table below, one row per message,
in file order), never from the parser's own output. ``goal_before_RECONSTRUCTED_not_recorded``
is not used anywhere.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from transted.pipeline.lean.suggestions import parse_suggestions, split_rules

DATA = json.loads((Path(__file__).parent / "data" / "repl" / "try_this_messages.json")
                  .read_text(encoding="utf-8"))
MESSAGES = [m["data"] for entry in DATA["try_this_messages"] for m in entry["messages"]]

# (tactic, closes, goal_after, rule names with ← flag, location)
EXPECTED = [
    ("rw [@List.map_append]", True, None, [("List.map_append", False)], None),
    ("rw [@Nat.le_iff_lt_or_eq]", False, "x < y ∨ x = y", [("Nat.le_iff_lt_or_eq", False)], None),
    ("rw [@Nat.mul_self_le_mul_self_iff]", False, "x * x ≤ y * y",
     [("Nat.mul_self_le_mul_self_iff", False)], None),
    ("rw [@le_iff_eq_or_lt]", False, "x = y ∨ x < y", [("le_iff_eq_or_lt", False)], None),
    ("rw [@le_iff_exists_add]", False, "∃ c, y = x + c", [("le_iff_exists_add", False)], None),
    ("rw [← @Nat.le_eq]", False, "Nat.le x y", [("Nat.le_eq", True)], None),
    ("rw [← @Nat.not_lt]", False, "¬y < x", [("Nat.not_lt", True)], None),
    ("rw [← @Int.ofNat_le]", False, "↑x ≤ ↑y", [("Int.ofNat_le", True)], None),
    ("rw [← @String.Pos.mk_le_mk]", False, "{ byteIdx := x } ≤ { byteIdx := y }",
     [("String.Pos.mk_le_mk", True)], None),
    ("rw [@mul_one] at hyp", False, "g = h", [("mul_one", False)], "hyp"),
    ("rw [← @eq_div_iff_mul_eq'] at hyp", False, "g = h / 1", [("eq_div_iff_mul_eq'", True)],
     "hyp"),
    ("rw [← @inv_one] at hyp", False, "g * 1⁻¹ = h", [("inv_one", True)], "hyp"),
    ("rw [@iff_def]", False, "(foo x = 1 → ∃ k, x = ↑k) ∧ ((∃ k, x = ↑k) → foo x = 1)",
     [("iff_def", False)], None),
    ("rw [@Iff.comm]", False, "(∃ k, x = ↑k) ↔ foo x = 1", [("Iff.comm", False)], None),
    ("rw [@iff_eq_eq]", False, "(foo x = 1) = ∃ k, x = ↑k", [("iff_eq_eq", False)], None),
    ("rw [six_eq_seven]", False, "∀ (x : ℕ), x ≤ 7", [("six_eq_seven", False)], None),
    ("rw [← @Nat.cast_eq_ofNat]", False, "∀ (x : ℕ), x ≤ ↑6", [("Nat.cast_eq_ofNat", True)],
     None),
    ("rw [List.map_append]", True, None, [("List.map_append", False)], None),
    ("rw [← h₁ p]", False, "Q a", [("h₁", True)], None),
    ("rw [Nat.one_mul]", True, None, [("Nat.one_mul", False)], None),
    ("rw [← h₁ p]", False, "Q a", [("h₁", True)], None),
    ("rw [List.map_append]", True, None, [("List.map_append", False)], None),
    ("rw [← h₁ p]", False, "Q a", [("h₁", True)], None),
    ("exact Nat.one_pos", False, None, [], None),
    ("exact Nat.one_pos", False, None, [], None),
    ("exact Nat.one_pos", False, None, [], None),
    ("exact Nat.zero_eq_one_mod_iff.mp rfl", False, None, [], None),
    ("refine fun a => ?_", False, None, [], None),
]


def test_every_message_is_covered():
    assert len(MESSAGES) == len(EXPECTED)


@pytest.mark.parametrize(("text", "expected"), list(zip(MESSAGES, EXPECTED, strict=True)))
def test_recorded_message(text: str, expected):
    tactic, closes, goal_after, rules, location = expected
    [s] = parse_suggestions(text)  # one suggestion per recorded message
    assert s.tactic == tactic
    assert s.closes is closes
    assert s.goal_after == goal_after
    assert [(r.name, r.reverse) for r in s.rules] == rules
    assert s.location == location
    assert s.kind == tactic.split()[0]
    assert s.lemma == (rules[0][0] if len(rules) == 1 else None)


def test_apply_question_remaining_subgoals():
    [s] = parse_suggestions(MESSAGES[-1])
    assert s.remaining == ("⊢ 3 > 2 → 3 > 4", "⊢ 4 ≤ 2")


def test_reverse_rule_term_keeps_arguments():
    [s] = parse_suggestions("Try this: rw [← h₁ p]\n-- Q a")
    assert s.rules[0].term == "h₁ p"


def test_not_a_suggestion():
    assert parse_suggestions("declaration uses `sorry`") == []
    assert parse_suggestions("unsolved goals\n⊢ False") == []


def test_several_suggestions_in_one_message():
    # A constructed input, not a recording (no multi-item message is recorded): it checks
    # only that `[apply]` markers start new items, as they do in the recorded v4.25+ format.
    text = ("Try these:\n  [apply] rw [Nat.add_comm]\n  -- b + a = c\n"
            "  [apply] rw [← Nat.add_zero a]\n  -- a + 0 + b = c")
    got = parse_suggestions(text)
    assert [s.tactic for s in got] == ["rw [Nat.add_comm]", "rw [← Nat.add_zero a]"]
    assert [s.goal_after for s in got] == ["b + a = c", "a + 0 + b = c"]


@pytest.mark.parametrize(("text", "parts"), [
    ("a, b", ["a", "b"]),
    ("← f (x, y), g", ["← f (x, y)", "g"]),
    ("", []),
])
def test_split_rules(text, parts):
    assert split_rules(text) == parts
