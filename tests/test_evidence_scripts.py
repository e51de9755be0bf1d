"""The procedure → Lean script mapping (issue 22, cause 6): every `proved` names the procedure
that decided it and carries the script of that procedure, marked unverified (no Lean here to
replay it). The expected scripts follow the tactics' documented fragments
(transted/pipeline/evidence/scripts.py cites them), not the code's output."""

from __future__ import annotations

from fractions import Fraction

import pytest

from transted.pipeline.evidence import decide_pair, decide_trees
from transted.pipeline.evidence.decide import procedure_for
from transted.pipeline.evidence.scripts import PROCEDURES, congruence, proof_of
from transted.pipeline.evidence.terms import Num, Op, Var
from transted.pipeline.opt import parse_statement, parse_term
from transted.pipeline.search.providers.procedures import closing_tactic

P = "Prop"


def rel(op: str, a, b):
    return Op(op, (a, b), P)


X, Y = Var("x", "ℝ"), Var("y", "ℝ")
N, M = Var("n", "ℕ"), Var("m", "ℕ")
TWO_R, TWO_N = Num(Fraction(2), "ℝ"), Num(Fraction(2), "ℕ")


@pytest.mark.parametrize(("a", "b", "procedure"), [
    # ℕ/ℤ linear, literal % : omega's fragment
    (rel("eq", Op("mod", (N, TWO_N), "ℕ"), Num(Fraction(0), "ℕ")), Op("even", (N,), P),
     "linear-int"),
    (rel("le", N, M), rel("lt", N, Op("add", (M, Num(Fraction(1), "ℕ")), "ℕ")), "linear-int"),
    # one linear atom each side over ℝ: linarith both ways
    (rel("lt", X, TWO_R), rel("lt", Op("mul", (TWO_R, X), "ℝ"), Num(Fraction(4), "ℝ")),
     "linear-field"),
    # a linear system over ℝ (conjunctions of atoms): linarith per conjunct, not simp only [*]
    (Op("and", (rel("le", X, Y), rel("le", Y, X)), P), rel("eq", X, Y), "linear-field-system"),
    # a product of variables: nlinarith, as a first try
    (rel("lt", Op("mul", (X, Y), "ℝ"), TWO_R), rel("lt", Op("mul", (Y, X), "ℝ"), TWO_R),
     "polynomial"),
    # √ is outside every tactic's fragment: z3, no tactic claimed
    (rel("eq", Op("sqrt", (X,), "ℝ"), TWO_R), rel("eq", X, Num(Fraction(4), "ℝ")), "z3"),
    # a cast ℕ → ℝ variable brings a sign linarith does not see: no linarith claim
    (rel("lt", Op("cast", (N,), "ℝ"), TWO_R), rel("lt", Op("cast", (N,), "ℝ"), TWO_R), "z3"),
    # ≠ is not a linarith goal
    (rel("ne", X, TWO_R), Op("not", (rel("eq", X, TWO_R),), P), "z3"),
])
def test_the_procedure_is_the_fragment_the_goal_is_in(a, b, procedure):
    assert procedure_for(a, b)[1] == procedure


def test_each_procedure_maps_to_its_script():
    assert proof_of("identical") == "Iff.rfl"
    assert proof_of("ring-normal-form") == "by ring_nf"
    assert proof_of("linear-int") == "by constructor <;> intro h <;> omega"
    assert proof_of("linear-int", parity=True) == (
        "by simp only [Nat.even_iff, Nat.odd_iff, Int.even_iff, Int.odd_iff]; "
        "constructor <;> intro h <;> omega")
    assert proof_of("linear-field") == "by constructor <;> intro h <;> linarith"
    # two conjuncts → one: rintro both, linarith; one → two: intro, one linarith per conjunct
    assert proof_of("linear-field-system", conjuncts=(2, 1)) == (
        "by constructor <;> [(rintro ⟨h1, h2⟩; linarith); "
        "(intro h1; exact ⟨by linarith, by linarith⟩)]")
    assert proof_of("polynomial") == "by constructor <;> intro h <;> nlinarith"
    assert proof_of("z3") is None and proof_of("congruence") is None
    assert set(PROCEDURES) >= {"identical", "rewriting", "ring-normal-form", "linear-int",
                               "linear-field", "linear-field-system", "polynomial", "z3",
                               "congruence"}


def test_componentwise_closings_are_congruence_terms_not_simp_only():
    assert congruence("and", ["Iff.rfl", "by ring_nf"]) == "and_congr Iff.rfl (by ring_nf)"
    assert congruence("imp", ["by omega", None]) is None  # a part without a tactic
    closing = decide_trees(parse_term("x < 2 ∧ n % 2 = 0"), parse_term("2 * x < 4 ∧ Even n"),
                           {"x": "ℝ", "n": "ℕ"})
    assert closing is not None and closing.procedures == ["congruence", "linear-field",
                                                          "linear-int"]
    tactic, approximate = closing_tactic(closing)
    assert tactic.startswith("exact propext (and_congr (by constructor <;> intro h <;> linarith)")
    assert "simp only [*]" not in tactic and not approximate


def test_a_z3_only_closing_claims_no_tactic():
    closing = decide_trees(parse_term("Real.sqrt x = 2"), parse_term("x = 4"), {"x": "ℝ"})
    assert closing is not None and closing.proof is None and closing.procedures == ["z3"]
    tactic, approximate = closing_tactic(closing)
    assert tactic.startswith("-- decided offline by z3") and approximate


def test_proved_evidence_names_procedures_and_is_unverified():
    ref = parse_statement("theorem t (n : ℕ) (h : 2 ≤ n) : n % 2 = 0 := sorry")
    cand = parse_statement("theorem t (n : ℕ) (h : 2 ≤ n) : Even n := sorry")
    ev = decide_pair(ref, cand)
    assert ev.kind == "proved" and ev.script_status == "unverified"
    assert ev.procedures == ["identical", "linear-int"]
    assert any("omega" in line and "Nat.even_iff" in line for line in ev.script)
    assert not any("simp only [*]" in line for line in ev.script)
