"""Elaboration-faithful normalisation (transted.opt.normalize): each step makes equal exactly
what Lean elaborates to the same term, and never two different statements."""

from __future__ import annotations

import pytest

from transted.opt import OptOptions, parse_statement, parse_statement_normalized, parse_term
from transted.opt.normalize import is_auto_bound_name, normalize

RAW = OptOptions(normalize=False)


def stmt(text: str, header: str | None = None) -> object:
    return parse_statement(text, header=header)


SAME = [
    # GT.gt / GE.ge are reducible: `a > b` is `b < a`
    ("theorem t (a b : ℝ) : a > b", "theorem t (a b : ℝ) : b < a"),
    ("theorem t (a b : ℝ) : a + b ≥ 2", "theorem t (a b : ℝ) : 2 ≤ a + b"),
    # Ne: `a ≠ b` is `¬(a = b)`; `∉` is notation for `¬(a ∈ s)`
    ("theorem t (a b : ℝ) : a ≠ b", "theorem t (a b : ℝ) : ¬(a = b)"),
    ("theorem t (a : ℝ) (s : Set ℝ) : a ∉ s", "theorem t (a : ℝ) (s : Set ℝ) : ¬(a ∈ s)"),
    # notation synonyms
    ("theorem t (x : ℝ) : √x = 2", "theorem t (x : ℝ) : Real.sqrt x = 2"),
    ("theorem t (x : ℝ) : |x| = 2", "theorem t (x : ℝ) : abs x = 2"),
    ("theorem t : π > 3", "theorem t : 3 < Real.pi"),
    # under `open Real` both spellings are the shortened name
    ("theorem t (x : ℝ) : √x = π", "theorem t (x : ℝ) : sqrt x = pi"),
    # generalized field notation, receiver type from a binder
    ("theorem t (s : Finset ℕ) (h : s.Nonempty) : 0 < s.card",
     "theorem t (s : Finset ℕ) (h : Finset.Nonempty s) : 0 < Finset.card s"),
    # ... the receiver goes where `List.map`'s list argument is; the result type is a List
    ("theorem t (l : List ℕ) (f : ℕ → ℕ) : (l.map f).sum = 0",
     "theorem t (l : List ℕ) (f : ℕ → ℕ) : List.sum (List.map f l) = 0"),
    ("theorem t (n : ℕ) : (Finset.range n).sum (fun i => i) = 0",
     "theorem t (n : ℕ) : Finset.sum (Finset.range n) (fun i => i) = 0"),
    # binder sugar: `∀ (_ : p), q` is `p → q`
    ("theorem t : ∀ (k : ℕ) (_ : k ≠ 0), 0 < k", "theorem t : ∀ k : ℕ, k ≠ 0 → 0 < k"),
    ("theorem t : ∀ (k) (_ : k ≠ 0), 0 < k", "theorem t : ∀ k ≠ 0, 0 < k"),
    # a homogeneous relation types an untyped binder from a numeral's ascription
    ("theorem t : ∃ x < (1:ℝ), x ^ 2 = 4", "theorem t : ∃ x : ℝ, x < 1 ∧ x ^ 2 = 4"),
    ("theorem t : ∀ x > (0:ℚ), x ^ 2 > 0", "theorem t : ∀ x : ℚ, 0 < x → 0 < x ^ 2"),
]
HEADERS = {7: "open Real"}


@pytest.mark.parametrize("i", range(len(SAME)))
def test_lean_equal_spellings_give_one_tree(i):
    a, b = SAME[i]
    header = HEADERS.get(i)
    assert stmt(a, header) == stmt(b, header)
    # ... and they differed before normalisation (the test exercises a step)
    assert parse_statement(a, header=header, options=RAW) != parse_statement(b, header=header,
                                                                          options=RAW)


DIFFERENT = [
    # `>` swaps its operands: `a > b` is not `a < b`
    ("theorem t (a b : ℝ) : a > b", "theorem t (a b : ℝ) : a < b"),
    ("theorem t (a b : ℝ) : a ≥ b", "theorem t (a b : ℝ) : a ≤ b"),
    ("theorem t (a b : ℝ) : a ≥ b", "theorem t (a b : ℝ) : b < a"),
    # `≠` is not `=`
    ("theorem t (a b : ℝ) : a ≠ b", "theorem t (a b : ℝ) : a = b"),
    # a local `card` is not Finset.card; a receiver of unknown type is left alone
    ("theorem t (s : Finset ℕ) (card : Finset ℕ → ℕ) : 0 < card s",
     "theorem t (s : Finset ℕ) (card : Finset ℕ → ℕ) : 0 < Finset.card s"),
    ("theorem t (s : Set ℕ) : 0 < s.card", "theorem t (s : Set ℕ) : 0 < Finset.card s"),
    # a used binder is not an arrow
    ("theorem t : ∀ (k : ℕ), k = k", "theorem t : ℕ → k = k"),
    # the ascription's type is kept: ℝ is not ℕ; a non-numeral ascription may hide a coercion
    ("theorem t : ∃ x < (1:ℝ), x ^ 2 = 4", "theorem t : ∃ x : ℕ, x < 1 ∧ x ^ 2 = 4"),
    ("theorem t (n : ℕ) : ∃ x, x < (n:ℝ)", "theorem t (n : ℕ) : ∃ x : ℝ, x < n"),
    # sqrt of the wrong argument
    ("theorem t (x y : ℝ) : √x = 2", "theorem t (x y : ℝ) : Real.sqrt y = 2"),
]


@pytest.mark.parametrize("i", range(len(DIFFERENT)))
def test_different_statements_stay_different(i):
    a, b = DIFFERENT[i]
    assert stmt(a) != stmt(b)


def test_swap_moves_the_operands():
    assert stmt("theorem t (a b : ℝ) : a > b + 1") == parse_term("∀ a : ℝ, ∀ b : ℝ, b + 1 < a")


def test_field_notation_with_the_type_namespace_open_keeps_argument_order():
    # under `open List`, `map l f` might be the opened `List.map` written out: not reordered
    out = parse_statement_normalized("theorem t (l : List ℕ) (f : ℕ → ℕ) : (l.map f).sum = 0",
                                     header="open List")
    assert "x.map is List.map" not in out.applied


def test_auto_bound_matches_leans_goals(statement_rows):
    found = {}
    for row in statement_rows:
        out = parse_statement_normalized(row["formal_statement"], header=row["header"])
        if out.auto_bound:
            found[row["name"]] = list(out.auto_bound)
    # Lean's own goals (tests/data/statements, field `goal`) show these auto-bound implicits
    lean = {"induction_pord1p1on2powklt5on2": ["k"], "amc12a_2021_p9": ["k"],
            "induction_prod1p1onk3le3m1onn": ["k"], "mathd_algebra_158": ["k"],
            "mathd_algebra_342": ["k"], "exercise_24_3a": ["I"]}
    # a known parser artefact, not auto-bound in Lean: `→L[ℂ]` read as `→ L[ℂ]` (the set
    # images `{(x, f x) | x ∈ E}` / `{(|f x|) | x ∈ s}` bind their `x` since issue 23)
    artefacts = {"exercise_2_9": ["L"]}
    assert found == {**lean, **artefacts}


def test_auto_bound_names_follow_lean_rule():
    assert is_auto_bound_name("k") and is_auto_bound_name("x₁") and is_auto_bound_name("h'")
    assert not is_auto_bound_name("ℝ") and not is_auto_bound_name("xs")
    tree = parse_statement("theorem t (x : ℝ) : x + y = 1", options=RAW)
    out = normalize(tree)
    assert out.auto_bound == ("y",)
    assert out.tree == parse_term("∀ y, ∀ x : ℝ, x + y = 1")


def test_normalize_off_reproduces_the_raw_tree():
    text = "theorem t (a b : ℝ) : a > b ∧ √a ≠ |b|"
    assert parse_statement(text, options=RAW) == parse_term("∀ a : ℝ, ∀ b : ℝ, a > b ∧ √a ≠ |b|")
