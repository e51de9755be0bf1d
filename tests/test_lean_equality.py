"""Pair → Lean commands (no Lean needed: this is text). Expected strings written by hand."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from transted.errors import InputError
from transted.pipeline.lean.equality import declaration, equality_command, split_header
from transted.reading.pairs import Statement, read_pairs

DATA = Path(__file__).parent / "data"


@pytest.mark.parametrize(("statement", "expected"), [
    # ASSESS C.2, exercise_1_1b label
    ("theorem exercise_1_1b (x : ℝ) (y : ℚ) (h : y ≠ 0) : ( Irrational x ) → "
     "Irrational ( x * y ) := by sorry",
     "theorem thm_P (x : ℝ) (y : ℚ) (h : y ≠ 0) : ( Irrational x ) → Irrational ( x * y ) "
     ":= sorry"),
    # ASSESS C.2, mathd_algebra_142 prediction: `let ... := ...` is not the proof
    ("theorem my_favorite_theorem : let B : ℝ × ℝ := (7, -1); ∀ m b : ℝ, B.2 = m * B.1 + b "
     "→ m + b = 5 := by sorry",
     "theorem thm_P : let B : ℝ × ℝ := (7, -1); ∀ m b : ℝ, B.2 = m * B.1 + b → m + b = 5 "
     ":= sorry"),
    # dev set exercise_2_4: an optional-argument default inside parentheses
    ("theorem exercise_2_4 {a : ℤ} (f_a := λ n m : ℕ => Int.gcd n m) : f_a 1 1 = 1 := by sorry",
     "theorem thm_P {a : ℤ} (f_a := λ n m : ℕ => Int.gcd n m) : f_a 1 1 = 1 := sorry"),
    # statements files: ends in `:=` or `:= by` with no proof
    ("theorem exercise_1_13a {f : ℂ → ℂ} (Ω : Set ℂ) :\n  f 0 = f 0 :=",
     "theorem thm_P {f : ℂ → ℂ} (Ω : Set ℂ) :\n  f 0 = f 0 := sorry"),
    ("lemma foo (n : ℕ) : n + 0 = n := by\n", "theorem thm_P (n : ℕ) : n + 0 = n := sorry"),
    ("example : (1 : ℕ) = 1 := by rfl", "theorem thm_P : (1 : ℕ) = 1 := sorry"),
    ("theorem t : True", "theorem thm_P : True := sorry"),
])
def test_declaration_renames_and_replaces_the_proof(statement, expected):
    assert declaration(statement, "thm_P") == expected


def test_declaration_as_axiom_and_with_body():
    s = "theorem t (x : ℕ) : x = x := by sorry"
    assert declaration(s, "thm_Q", keyword="axiom") == "axiom thm_Q (x : ℕ) : x = x"
    assert declaration(s, "thm_Q", body="by\n  rfl") == "theorem thm_Q (x : ℕ) : x = x := by\n  rfl"


def test_not_a_declaration_names_the_input():
    with pytest.raises(InputError, match="candidate: expected a `theorem`"):
        declaration("def f := 1", "thm_Q", source="candidate")


def test_split_header_minif2f():
    row = json.loads((DATA / "statements" / "minif2f.jsonl").open(encoding="utf-8").readline())
    h = split_header(row["header"])
    assert h.imports == ("import Mathlib", "import Aesop")
    assert h.body == ("set_option maxHeartbeats 0", "open BigOperators Real Nat Topology Rat")
    assert h.opens == ("open BigOperators Real Nat Topology Rat",)
    assert split_header(None).imports == ("import Mathlib",)


def test_equality_command_layout():
    ref = Statement(statement="theorem a (x : ℝ) : x = x := by sorry",
                    header="import Mathlib\nopen Real\n")
    cand = Statement(statement="theorem b (y : ℝ) : y = y := by sorry",
                     header="import Mathlib\nopen Nat\n")
    eq = equality_command(ref, cand)
    assert eq.imports == "import Mathlib"
    assert eq.command == (
        "section\nopen Real\nset_option autoImplicit false in\n"
        "theorem thm_P (x : ℝ) : x = x := sorry\nend\n\n"
        "section\nopen Nat\nset_option autoImplicit false in\n"
        "theorem thm_Q (y : ℝ) : y = y := sorry\nend\n\n"
        "open Real\nopen Nat\n"
        "example : type_of% @thm_P = type_of% @thm_Q := by sorry")
    assert eq.goal_line == 15  # 5 + 1 blank, 5 + 1 blank, 2 opens, then the example
    assert eq.command.splitlines()[eq.goal_line - 1].startswith("example :")
    assert "autoImplicit" not in equality_command(ref, cand, auto_implicit=True).command


def test_every_dev_pair_builds_an_equality_command():
    pairs = read_pairs(DATA / "gted" / "proofnet.jsonl")
    for pair in pairs:
        eq = equality_command(pair.reference, pair.candidate)
        lines = eq.command.splitlines()
        assert lines[eq.goal_line - 1].startswith("example : type_of% @thm_P"), pair.id
        assert sum(ln.startswith("theorem thm_P ") for ln in lines) == 1, pair.id
        assert sum(ln.startswith("theorem thm_Q ") for ln in lines) == 1, pair.id
        assert eq.command.count(":= sorry") == 2, pair.id  # the proofs were replaced
        assert eq.imports.startswith("import Mathlib")
