"""Semantic evidence: Lean corner cases in both engines, refutation, decision, vacuity guard."""

from __future__ import annotations

from fractions import Fraction

import pytest
import z3

from transted.pipeline.evidence import (
    Evidence,
    RefuteOptions,
    decide_pair,
    decide_trees,
    pair_evidence,
    refute,
    statement_evidence,
)
from transted.pipeline.evidence.evaluate import evaluate_term
from transted.pipeline.evidence.smt import Encoder, check_sat, known_unencodable
from transted.pipeline.evidence.terms import Num, Op, Unsupported, Var
from transted.pipeline.evidence.translate import shape_of, translate_prop
from transted.pipeline.opt import parse_statement, parse_statement_normalized, parse_term
from transted.pipeline.opt.elaborate import scope_from_header


def stmt(text: str):
    return parse_statement(text + " := sorry")


def value_of(expr: str, typ: str):
    """Evaluate the closed term ``expr`` of type ``typ`` with both engines; both must agree."""
    # `(5 : ℕ)!` is notation scoped in Nat: the terms are read under `open Nat`
    prop = translate_prop(parse_term(f"({expr} : {typ}) = v"), {"v": typ},
                          scope_from_header("open Nat"))
    assert isinstance(prop, Op) and prop.op == "eq"
    exact = evaluate_term(prop.args[0], {})
    enc = Encoder()
    lhs = enc.encode(prop.args[0])
    v = enc.var("v", typ)
    res = check_sat(enc, v == lhs)
    assert res.status == "sat" and res.model is not None
    # z3 sees the term with Lean's semantics too (the encoder folds closed terms exactly, so we
    # also check the unfolded encoding below for the operations themselves)
    return exact, res.model["v"]


# -- corner cases, both engines ------------------------------------------------------------
CORNERS = [
    ("(2 : ℕ) - 3", "ℕ", 0),
    ("(-7 : ℤ) / 2", "ℤ", -4),
    ("(-7 : ℤ) % 2", "ℤ", 1),
    ("(7 : ℤ) / (-2)", "ℤ", -3),
    ("(7 : ℤ) % (-2)", "ℤ", 1),
    ("(7 : ℕ) / 2", "ℕ", 3),
    ("(7 : ℕ) % 0", "ℕ", 7),
    ("(7 : ℕ) / 0", "ℕ", 0),
    ("(1 : ℝ) / 0", "ℝ", Fraction(0)),
    ("Real.sqrt (-1)", "ℝ", Fraction(0)),
    ("Real.sqrt (9 / 4)", "ℝ", Fraction(3, 2)),
    ("((0 : ℝ))⁻¹", "ℝ", Fraction(0)),
    ("⌊(-1 / 2 : ℝ)⌋", "ℤ", -1),
    ("⌈(-1 / 2 : ℝ)⌉", "ℤ", 0),
    ("(5 : ℕ)!", "ℕ", 120),
    ("∑ i ∈ Finset.range 4, i", "ℕ", 6),
    ("∏ i ∈ Finset.Icc 1 4, i", "ℕ", 24),
]


@pytest.mark.parametrize(("expr", "typ", "expected"), CORNERS)
def test_corner_cases_exact_evaluation(expr, typ, expected):
    exact, _ = value_of(expr, typ)
    assert exact == expected


def _z3_value(term_text: str, env: dict[str, str], assignment: dict[str, int | Fraction]):
    """The value z3 gives ``term`` with the variables pinned (no constant folding possible)."""
    prop = translate_prop(parse_term(f"{term_text} = v"), {**env, "v": env["v"]})
    enc = Encoder()
    formula = enc.encode(prop)
    pins = [enc.var(n, env[n]) == enc.const(val, env[n]) for n, val in assignment.items()]
    res = check_sat(enc, z3.And(formula, *pins))
    assert res.status == "sat" and res.model is not None
    return res.model["v"]


@pytest.mark.parametrize(("term", "types", "assignment", "expected"), [
    ("a - b", {"a": "ℕ", "b": "ℕ", "v": "ℕ"}, {"a": 2, "b": 3}, 0),
    ("a / b", {"a": "ℤ", "b": "ℤ", "v": "ℤ"}, {"a": -7, "b": 2}, -4),
    ("a % b", {"a": "ℤ", "b": "ℤ", "v": "ℤ"}, {"a": -7, "b": 2}, 1),
    ("a / b", {"a": "ℤ", "b": "ℤ", "v": "ℤ"}, {"a": 7, "b": -2}, -3),
    ("a / b", {"a": "ℕ", "b": "ℕ", "v": "ℕ"}, {"a": 7, "b": 2}, 3),
    ("a / b", {"a": "ℕ", "b": "ℕ", "v": "ℕ"}, {"a": 7, "b": 0}, 0),
    ("a % b", {"a": "ℤ", "b": "ℤ", "v": "ℤ"}, {"a": -7, "b": 0}, -7),
    ("a / b", {"a": "ℝ", "b": "ℝ", "v": "ℝ"}, {"a": Fraction(1), "b": Fraction(0)}, 0),
    ("Real.sqrt a", {"a": "ℝ", "v": "ℝ"}, {"a": Fraction(-1)}, 0),
    ("Real.sqrt a", {"a": "ℝ", "v": "ℝ"}, {"a": Fraction(9, 4)}, Fraction(3, 2)),
    ("⌊a⌋", {"a": "ℝ", "v": "ℤ"}, {"a": Fraction(-1, 2)}, -1),
])
def test_corner_cases_z3_and_evaluation_agree(term, types, assignment, expected):
    assert _z3_value(term, types, assignment) == expected
    prop = translate_prop(parse_term(f"{term} = v"), types)
    assert isinstance(prop, Op)
    assert evaluate_term(prop.args[0], assignment) == expected


# -- typing (elaboration as Lean's binop%) --------------------------------------------------
def test_numerals_take_the_typed_operand_type_and_default_to_nat():
    shape = shape_of(stmt("theorem t (x : ℝ) : x / 2 = 1 ∧ 7 / 2 = 3"))
    assert shape.complete
    # x / 2 is real division; the closed 7 / 2 = 3 is ℕ (Lean's default numeral type): true
    assert evaluate_term(shape.prop(), {"x": Fraction(2)}) is True
    assert evaluate_term(shape.prop(), {"x": Fraction(1)}) is False


def test_coercion_casts_nat_into_the_region_type():
    shape = shape_of(stmt("theorem t (n : ℕ) (x : ℝ) (h : x = n - 3) : x < 0"))
    assert shape.complete
    # ↑n - 3 is real subtraction, not truncated: n = 1 gives x = -2
    assert evaluate_term(shape.prop(), {"n": 1, "x": Fraction(-2)}) is True


@pytest.mark.parametrize("text", [
    "theorem t (f : ℕ → ℕ) : f 0 = 0",
    "theorem t (z : ℂ) : z = z",
    "theorem t (x : ℝ) : x ^ (1 / 2 : ℝ) = 1",
    "theorem t (y : ℝ) : Real.log y = 0",
])
def test_unmodelled_constructs_abstain(text):
    shape = shape_of(stmt(text))
    assert not shape.complete and shape.errors
    with pytest.raises(Unsupported):
        shape.prop()


# -- refutation ------------------------------------------------------------------------------
def test_wrong_numeral_is_refuted_with_a_witness_that_checks():
    ref = stmt("theorem t (n : ℕ) (h : n % 5 = 3) : 2 * n % 5 = 1")
    cand = stmt("theorem t (n : ℕ) (h : n % 5 = 3) : 2 * n % 5 = 2")
    for engines in (("eval",), ("z3",)):
        ev = refute(ref, cand, RefuteOptions(engines=engines))
        assert ev.kind == "refuted" and ev.failing_side == "candidate"
        n = int(ev.witness["n"])
        assert n % 5 == 3 and (2 * n) % 5 != 2


def test_dropped_hypothesis_is_refuted_by_division_by_zero_or_negative():
    ref = stmt("theorem t (a b : ℝ) (ha : 0 < a) (hb : 0 < b) : a / b + b / a ≥ 2")
    cand = stmt("theorem t (a b : ℝ) (ha : 0 < a) : a / b + b / a ≥ 2")
    ev = refute(ref, cand)
    assert ev.kind == "refuted"
    a, b = Fraction(ev.witness["a"]), Fraction(ev.witness["b"])
    value = (a / b if b else 0) + (b / a if a else 0)
    assert a > 0 and b <= 0 and value < 2


def test_both_true_statements_are_not_refuted():
    ref = stmt("theorem t (x : ℝ) (h : 1 < x) : Real.sqrt x < x")
    cand = stmt("theorem t (x : ℝ) (h : 1 < x) : Real.sqrt x ≤ x")
    assert refute(ref, cand).kind == "none"
    assert refute(ref, cand, RefuteOptions(assume_reference=False)).kind == "none"


def test_truncated_subtraction_separates_nat_from_real():
    ref = stmt("theorem t (a b c : ℝ) : a - b = c ↔ a = b + c")
    nat = stmt("theorem t (a b c : ℕ) : a - b = c ↔ a = b + c")
    ev = refute(ref, nat)
    assert ev.kind == "refuted"
    a, b, c = (int(ev.witness[k]) for k in "abc")
    assert (max(a - b, 0) == c) != (a == b + c)


def test_without_assuming_the_reference_a_refutation_needs_a_proof_of_the_other_side():
    ref = stmt("theorem t (x : ℝ) : x ^ 2 ≥ 0")
    cand = stmt("theorem t (x : ℝ) : x ^ 2 > 0")
    ev = refute(ref, cand, RefuteOptions(assume_reference=False))
    assert ev.kind == "refuted" and ev.witness == {"x": "0"}
    # two false statements: each false, neither proved, so no refutation
    f1 = stmt("theorem t (x : ℝ) : x > 0")
    f2 = stmt("theorem t (x : ℝ) : x < 0")
    assert refute(f1, f2, RefuteOptions(assume_reference=False)).kind == "none"


def test_moved_condition_is_not_refuted():
    # the condition moves from a hypothesis into the conclusion: same theorem
    ref = stmt("theorem t (x : ℤ) (h : x > 0) : x ≥ 1")
    cand = stmt("theorem t (x : ℤ) : x > 0 → x ≥ 1")
    assert refute(ref, cand).kind == "none"
    assert refute(ref, cand, RefuteOptions(assume_reference=False)).kind == "none"


def test_benchmark_statement_true_is_not_claimed_false():
    assert statement_evidence(stmt("theorem t (n : ℕ) (h : n % 5 = 3) : 2 * n % 5 = 1")
                              ).kind == "none"
    ev = statement_evidence(stmt("theorem t (n : ℕ) : n - 1 + 1 = n"))
    assert ev.kind == "refuted" and ev.witness == {"n": "0"}


# -- decision and the vacuity guard -----------------------------------------------------------
def test_even_vs_mod_two_is_proved_by_omega():
    ev = decide_pair(stmt("theorem t (n : ℕ) (h : Even n) : n ^ 2 % 2 = 0"),
                     stmt("theorem t (n : ℕ) (h : n % 2 = 0) : n ^ 2 % 2 = 0"))
    assert ev.kind == "proved" and "omega" in ev.tactics
    assert any("Nat.even_iff" in line for line in ev.script)


def test_three_x_vs_x_plus_x_plus_x_is_proved_by_ring_nf():
    ev = decide_pair(stmt("theorem t (x : ℝ) : 3 * x = 6 ↔ x = 2"),
                     stmt("theorem t (x : ℝ) : x + x + x = 6 ↔ x = 2"))
    assert ev.kind == "proved" and "ring_nf" in ev.tactics and "iff_congr" in ev.tactics


def test_sub_eq_vs_eq_add_is_proved_over_real_not_over_nat():
    real = decide_pair(stmt("theorem t (a b c : ℝ) (h : a - b = c) : a ≤ b + c"),
                       stmt("theorem t (a b c : ℝ) (h : a = b + c) : a ≤ b + c"))
    assert real.kind == "proved" and "linarith" in real.tactics
    nat = decide_pair(stmt("theorem t (a b c : ℕ) (h : a - b = c) : a ≤ b + c"),
                      stmt("theorem t (a b c : ℕ) (h : a = b + c) : a ≤ b + c"))
    assert nat.kind == "none"


@pytest.mark.parametrize(("p", "q"), [
    ("theorem t : 2 + 2 = 4", "theorem t : 3 * 3 = 9"),
    ("theorem t : Nat.Prime 7", "theorem t : (10 : ℤ) % 3 = 1"),
    ("theorem t (x : ℝ) : x + 0 = x", "theorem t (x : ℝ) : x * 1 = x"),
    ("theorem t (x : ℝ) (h : 1 < x) : Real.sqrt x < x",
     "theorem t (x : ℝ) (h : 1 < x) : Real.sqrt x ≤ x"),
    ("theorem t (n : ℕ) : n + 1 > 0", "theorem t (n : ℕ) : n * n ≥ 0"),
])
def test_vacuity_guard_never_closes_two_true_statements(p, q):
    ev = pair_evidence(stmt(p), stmt(q))
    assert ev.kind != "proved"


def test_decide_trees_on_a_search_goal():
    closing = decide_trees(parse_term("n % 2 = 0"), parse_term("Even n"), {"n": "ℤ"})
    assert closing is not None and closing.tactics == ["omega"]
    assert decide_trees(parse_term("n % 2 = 0"), parse_term("Odd n"), {"n": "ℤ"}) is None


# -- budgets ---------------------------------------------------------------------------------
def test_budget_is_respected_and_falls_back_to_none():
    hard = stmt("theorem t (x y z : ℝ) (h : x * y * z = 1) (h2 : x ^ 3 + y ^ 3 = z ^ 3 + 7) : "
                "x ^ 5 * y + z ^ 4 ≥ Real.sqrt (x ^ 2 + 1) - 100")
    ev = pair_evidence(hard, hard, RefuteOptions(budget_ms=30, call_timeout_ms=10))
    assert isinstance(ev, Evidence) and ev.kind == "none"
    assert ev.ms < 30 + 300  # one call may overrun by its own timeout; 2 shared cores jitter


# -- score rule and summary ------------------------------------------------------------------
def test_score_rule_caps_refuted_and_closes_proved():
    from transted.pipeline.evidence import REFUTED_SCORE_CAP, apply_score_rule
    assert apply_score_rule(0.97, Evidence(kind="refuted")) == min(0.97, REFUTED_SCORE_CAP) == 0
    assert apply_score_rule(0.6, Evidence(kind="proved")) == 1.0
    assert apply_score_rule(0.6, Evidence(kind="none")) == 0.6


def test_evidence_summary_counts_and_precision():
    from transted.pipeline.evidence import evidence_summary
    out = evidence_summary(["proved", "proved", "refuted", "none", "refuted"],
                           [True, False, False, True, None])
    assert out["evidence_counts"] == {"proved": 2, "refuted": 2, "none": 1}
    # proved: 1 of 2 labelled true; refuted: 1 labelled (false) of which 1 right
    assert out["evidence_precision"] == {"proved": 0.5, "refuted": 1.0}
    with pytest.raises(ValueError, match="differ in length"):
        evidence_summary(["none"], [])


def test_decide_trees_takes_the_search_state_locals():
    from transted.pipeline.search.state import Local, State
    state = State(parse_term("3 * x = 6"), parse_term("x + x + x = 6"),
                  (Local("x", parse_term("ℝ")),))
    closing = decide_trees(state.lhs, state.rhs, state.local_types())
    assert closing is not None and closing.tactics == ["ring_nf"]
    # a local of a non-number type leaves the goal undecided
    state = State(parse_term("3 * x = 6"), parse_term("x + x + x = 6"),
                  (Local("x", parse_term("G")),))
    assert decide_trees(state.lhs, state.rhs, state.local_types()) is None


def test_identical_false_statements_are_not_refuted():
    # a false benchmark statement (miniF2F induction_sum_odd) paired with itself
    text = "theorem t (n : ℕ) : (∑ k in Finset.range n, 2 * k) + 1 = n ^ 2"
    assert statement_evidence(stmt(text)).kind == "refuted"
    ev = refute(stmt(text), stmt(text))
    assert ev.kind == "none" and "both statements false" in (ev.reason or "")


@pytest.mark.parametrize("text", [
    "theorem t (x : ℝ) : x % 2 = 0",  # no `Mod ℝ` instance: never evaluate it as an integer
    "theorem t (x : ℝ) : (x)! = 1",
])
def test_ill_typed_or_ambiguous_terms_abstain(text):
    assert not shape_of(stmt(text)).complete


def test_a_cast_with_no_other_type_in_sight_takes_the_numerals_default():
    # `↑n` is postponed (elabCoe: tryPostponeIfNoneOrMVar); the relation's type is the
    # numeral's, defaulted to ℕ (instOfNatNat); resumed with that expected type, `↑n` is `n`
    shape = shape_of(stmt("theorem t (n : ℕ) : ↑n = 2"))
    assert shape.complete and evaluate_term(shape.prop(), {"n": 2}) is True


@pytest.mark.parametrize(("text", "kind"), [
    ("theorem t (x : ℝ) : x = π", "auto-bound"),  # π is scoped in Real: not opened here
    ("theorem t (s : Finset ℕ) : card s = 3", "auto-bound"),  # no `open Finset`
    ("theorem t (x : ℝ) (h : x ∈ Finset.Icc (0 : ℝ) 1) : x ≤ 1", "missing-instance"),
])
def test_statements_with_elaboration_issues_abstain_with_the_issue(text, kind):
    shape = shape_of(parse_statement_normalized(text + " := sorry").elaboration)
    assert not shape.complete and kind in shape.errors[0] and "elaboration" in shape.errors[0]


def test_nonlinear_arithmetic_under_a_quantifier_abstains_within_budget():
    # ProofNet exercise_3_4: z3 ran for minutes on this despite its 100 ms timeout
    ref = stmt("theorem t : ¬ ∃ x y : ℤ, 3*x^2 + 2 = y^2")
    cand = stmt("theorem t : ¬ ∃ x y : ℤ, y^2 = 3*x^2 + 2")
    ev = pair_evidence(ref, cand)
    assert ev.kind == "none" and ev.ms < 2000
    q = stmt("theorem t (z : ℤ) : ¬ ∃ x y : ℤ, 3*x^2 + z = y^2")
    assert refute(q, q, RefuteOptions(engines=("z3",))).kind == "none"


def test_a_renaming_that_would_capture_a_bound_variable_abstains():
    from transted.pipeline.evidence import pair_evidence
    from transted.pipeline.opt import parse_statement

    ref = parse_statement("theorem t (a b : ℕ) : ∃ c : ℕ, c = a + b := sorry")
    cand = parse_statement("theorem t (x y : ℕ) : ∃ a : ℕ, a = x + y := sorry")
    evidence = pair_evidence(ref, cand)
    assert evidence.kind == "none" and "capture" in evidence.reason


def test_the_lowering_reads_every_bundled_statement(statement_rows):
    # every Lean-checked statement either lowers or abstains with a reason (never a crash),
    # and the `∀ (_ : P), Q` binders of the raw tree are read as hypotheses
    complete = 0
    for row in statement_rows:
        out = parse_statement_normalized(row["formal_statement"], header=row["header"])
        shape = shape_of(out.elaboration)
        assert shape.complete or shape.errors, row["name"]
        complete += shape.complete
    assert complete >= 255  # the translator before the shared elaboration modelled 255 (a3b40ea)
    shape = shape_of(parse_statement_normalized(
        "theorem t : ∀ (x : ℝ) (_ : x ≠ -2), x + 2 ≠ 0 := sorry").elaboration)
    assert shape.complete and shape.vars == {"x": "ℝ"} and len(shape.hyps) == 1


def test_both_sides_vacuous_is_proved_and_says_why():
    # issue 31 cause 6: 2 * a = 7 has no solution in ℕ (and 2 * a = 9 neither): both statements
    # hold by absurd, so they are mutually provable whatever their conclusions
    from transted.pipeline.evidence.vacuity import VACUOUS_REASON

    ref = parse_statement("theorem t (a : ℕ) (h : 2 * a = 7) : a = 1 := sorry")
    cand = parse_statement("theorem t (a : ℕ) (h : 2 * a = 9) : a = 2 := sorry")
    ev = pair_evidence(ref, cand)
    assert ev.kind == "proved" and ev.reason == VACUOUS_REASON
    assert ev.procedures == ["vacuous", "vacuous"] and ev.script_status == "unverified"
    # only the candidate's hypotheses contradictory: vacuity decides nothing
    sound = parse_statement("theorem t (a : ℕ) (h : 2 * a = 8) : a = 4 := sorry")
    assert pair_evidence(sound, cand).kind != "proved"


def test_a_term_that_did_not_encode_is_refused_again_without_a_context():
    x = Var("x", "ℝ")
    term = Op("lt", (Op("log", (x,), "ℝ"), Num(Fraction(1), "ℝ")), "Prop")
    first = Encoder()
    with pytest.raises(Unsupported) as once:
        first.encode(term)
    assert first._ctx is not None  # the first try made a context before meeting `log`
    again = Encoder()
    with pytest.raises(Unsupported) as twice:
        again.encode(term)
    assert str(twice.value) == str(once.value)  # the same reason, as a fresh try gives
    assert again._ctx is None  # and no context was made for it
    assert known_unencodable(term)
    fine = Op("lt", (x, Num(Fraction(1), "ℝ")), "Prop")
    assert not known_unencodable(fine)
    assert Encoder().encode(fine) is not None
