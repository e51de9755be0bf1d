"""Elaboration-faithful normalisation (transted.pipeline.opt.normalize): each step makes equal exactly
what Lean elaborates to the same term, and never two different statements."""

from __future__ import annotations

import pytest

from transted.pipeline.opt import (
    OptOptions,
    parse_statement,
    parse_statement_normalized,
    parse_term,
)
from transted.pipeline.opt.normalize import normalize

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
    # `π` is notation scoped in Real: with `open Real` it is Real.pi
    ("theorem t : π > 3", "theorem t : 3 < Real.pi"),
    # under `open Real`, `sqrt` names Real.sqrt (not protected); `π` is Real.pi
    ("theorem t (x : ℝ) : √x = π", "theorem t (x : ℝ) : sqrt x = Real.pi"),
    # generalized field notation, receiver type from a binder
    ("theorem t (s : Finset ℕ) (h : s.Nonempty) : 0 < s.card",
     "theorem t (s : Finset ℕ) (h : Finset.Nonempty s) : 0 < Finset.card s"),
    # ... the receiver goes where `List.map`'s list argument is; the result type is a List
    ("theorem t (l : List ℕ) (f : ℕ → ℕ) : (l.map f).sum = 0",
     "theorem t (l : List ℕ) (f : ℕ → ℕ) : List.sum (List.map f l) = 0"),
    ("theorem t (n : ℕ) : (Finset.range n).sum (fun i => i) = 0",
     "theorem t (n : ℕ) : Finset.sum (Finset.range n) (fun i => i) = 0"),
    # a structure field the name table knows: the structure is its only explicit argument
    ("theorem t (d : ℚ) : d.den = 1", "theorem t (d : ℚ) : Rat.den d = 1"),
    # binder sugar: `∀ (_ : p), q` is `p → q`
    ("theorem t : ∀ (k : ℕ) (_ : k ≠ 0), 0 < k", "theorem t : ∀ k : ℕ, k ≠ 0 → 0 < k"),
    ("theorem t : ∀ (k) (_ : k ≠ 0), 0 < k", "theorem t : ∀ k ≠ 0, 0 < k"),
    # a homogeneous relation types an untyped binder from a numeral's ascription
    ("theorem t : ∃ x < (1:ℝ), x ^ 2 = 4", "theorem t : ∃ x : ℝ, x < 1 ∧ x ^ 2 = 4"),
    ("theorem t : ∀ x > (0:ℚ), x ^ 2 > 0", "theorem t : ∀ x : ℚ, 0 < x → 0 < x ^ 2"),
    # `¬ p` is notation for `Not p` (Lean core Init/Core.lean), `$` is application
    ("theorem t (x : ℝ) : Not (x ≤ 0)", "theorem t (x : ℝ) : ¬ (x ≤ 0)"),
    # an auto-bound type variable (Lean core AutoBound.lean) is `{G : Type u_1}`
    ("theorem t [Group G] (a : G) : a * a⁻¹ = 1",
     "theorem t {G : Type*} [Group G] (a : G) : a * a⁻¹ = 1"),
    # field notation on a constant the index types (Mathlib/GroupTheory/Index.lean:
    # Subgroup.index {G} [Group G] (H : Subgroup G) : ℕ)
    ("theorem t {G : Type*} [Group G] (H : Subgroup G) : H.index = 2",
     "theorem t {G : Type*} [Group G] (H : Subgroup G) : Subgroup.index H = 2"),
    # eta: `fun x => f x` is `f`, `fun y => g 1 y` is `g 1` (Lean 4's definitional eta)
    ("theorem t (f : ℝ → ℝ) (h : Continuous fun x => f x) : True",
     "theorem t (f : ℝ → ℝ) (h : Continuous f) : True"),
    ("theorem t (g : ℕ → ℕ → ℕ) : Monotone (fun y => g 1 y)",
     "theorem t (g : ℕ → ℕ → ℕ) : Monotone (g 1)"),
    # notations read as their constants: `a ≡ b [MOD n]` is `Nat.ModEq n a b`, `f '' s` is
    # `Set.image f s`, `‖x‖` is `Norm.norm x`, `Gˣ` is `Units G`
    ("theorem t (a b : ℕ) : a ≡ b [MOD 3]", "theorem t (a b : ℕ) : Nat.ModEq 3 a b"),
    ("theorem t (f : ℕ → ℕ) (s : Set ℕ) : f '' s = s",
     "theorem t (f : ℕ → ℕ) (s : Set ℕ) : Set.image f s = s"),
    ("theorem t (z : ℂ) : ‖z‖ = 1", "theorem t (z : ℂ) : norm z = 1"),
    ("theorem t (a : ℤˣ) : a * a = 1", "theorem t (a : Units ℤ) : a * a = 1"),
]
HEADERS = {6: "open Real", 7: "open Real"}


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
    # `π` is notation scoped in Real: without `open Real` it is an auto-bound variable
    ("theorem t : π > 3", "theorem t : 3 < Real.pi"),
    # Real.pi is protected: `open Real` does not make `pi` mean it (`pi` is auto-bound)
    ("theorem t (x : ℝ) (h : x = Real.pi) : x > 3", "theorem t (x : ℝ) (h : x = pi) : x > 3",
     "open Real"),
    # `open Nat Real`: Real.sqrt and Nat.sqrt stay apart (the parser keeps names as written)
    ("theorem t (n : ℕ) (h : n = 2) : Real.sqrt n > 1", "theorem t (n : ℕ) (h : n = 2) : "
     "Nat.sqrt n > 1", "open Nat Real"),
    # a plain application `card s` is not the field notation `s.card`
    ("theorem t (s : Finset ℕ) : s.card = 3", "theorem t (s : Finset ℕ) : card s = 3"),
    # `n !` is notation scoped in Nat: without `open Nat` it is not Nat.factorial
    ("theorem t (n : ℕ) : n ! = 2", "theorem t (n : ℕ) : Nat.factorial n = 2"),
    # the receiver goes to Nat.ModEq's first ℕ argument, the modulus (Mathlib
    # Data/Nat/ModEq.lean: def ModEq (n a b : ℕ)): `x.ModEq 5 2` is `Nat.ModEq x 5 2`
    ("theorem t (x : ℕ) : x.ModEq 5 2", "theorem t (x : ℕ) : Nat.ModEq 5 x 2"),
    # eta needs an untyped binder (a typed one may hide a cast) and the variable last
    ("theorem t (f : ℝ → ℝ) : Monotone (fun n : ℕ => f n)", "theorem t (f : ℝ → ℝ) : Monotone f"),
    ("theorem t (g : ℕ → ℕ → ℕ) : Monotone (fun y => g y 1)",
     "theorem t (g : ℕ → ℕ → ℕ) : Monotone (g 1)"),
    # the modulus is `n` of `[MOD n]`, not the first operand
    ("theorem t (a b : ℕ) : a ≡ b [MOD 3]", "theorem t (a b : ℕ) : Nat.ModEq a b 3"),
]


@pytest.mark.parametrize("i", range(len(DIFFERENT)))
def test_different_statements_stay_different(i):
    a, b, *header = DIFFERENT[i]
    assert stmt(a, *header) != stmt(b, *header)


def test_a_bound_variable_named_pi_or_e_is_never_rewritten():
    # Lean resolves locals first: `π` bound here is the variable, even under `open Real`
    for header in (None, "open Real"):
        out = parse_statement_normalized("theorem t (π : ℝ) (h : π > 3) : π > 2",
                                         header=header)
        assert out.tree == parse_term("∀ π : ℝ, 3 < π → 2 < π") and not out.auto_bound
    assert stmt("theorem t (e : ℝ) (h : e > 0) : Real.exp e > 1") == \
        parse_term("∀ e : ℝ, 0 < e → 1 < Real.exp e")


def test_real_sqrt_of_a_natural_is_never_nat_sqrt():
    # `Real.sqrt n` with `n : ℕ` is `Real.sqrt ↑n` (Mathlib/Analysis/Real/Sqrt.lean:112)
    tree = stmt("theorem t (n : ℕ) (h : n = 2) : Real.sqrt n > 1", "open Nat Real")
    assert "Real.sqrt <SLOT>" in {n.label for n in tree.preorder()}
    assert "Nat.sqrt <SLOT>" not in {n.label for n in tree.preorder()}


def test_swap_moves_the_operands():
    assert stmt("theorem t (a b : ℝ) : a > b + 1") == parse_term("∀ a : ℝ, ∀ b : ℝ, b + 1 < a")


def test_field_notation_is_read_from_the_dot_not_from_the_name():
    # `l.map f` is written with the dot: it is `List.map f l` even under `open List`, where a
    # written `map f l` is the opened `List.map` applied in its own order
    dotted = stmt("theorem t (l : List ℕ) (f : ℕ → ℕ) : (l.map f).sum = 0", "open List")
    written = stmt("theorem t (l : List ℕ) (f : ℕ → ℕ) : List.sum (map f l) = 0", "open List")
    assert dotted == written


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
    # names the pinned Mathlib no longer has (docs/NAMES.md): at this pin Lean binds them as
    # auto-bound implicits (relaxedAutoImplicit is on), where the statements' Mathlib had them
    renamed = {"exercise_1_5": ["Inf", "Sup"], "exercise_23_11": ["QuotientMap"],
               "exercise_22_2a": ["QuotientMap"], "exercise_22_2b": ["QuotientMap"],
               "exercise_25_9": ["TopologicalGroup", "IsNormalSubgroup"]}
    assert found == {**lean, **artefacts, **renamed}


def test_auto_bound_names_follow_lean_rule():
    # autoImplicit and relaxedAutoImplicit are on by default (Lean core AutoBound.lean): any
    # unknown atomic name is bound; without relaxed, one letter then digits/subscripts/_/'
    tree = parse_statement("theorem t (x : ℝ) : x + y = 1", options=RAW)
    out = normalize(tree)
    assert out.auto_bound == ("y",)
    assert out.tree == parse_term("∀ y, ∀ x : ℝ, x + y = 1")
    text = "theorem t (x : ℝ) : x + y₁ + foo = 1"
    assert parse_statement_normalized(text).auto_bound == ("y₁", "foo")
    strict = "import Mathlib\nset_option relaxedAutoImplicit false\n"
    assert parse_statement_normalized(text, header=strict).auto_bound == ("y₁",)
    off = "import Mathlib\nset_option autoImplicit false\n"
    assert parse_statement_normalized(text, header=off).auto_bound == ()


def test_normalize_off_reproduces_the_raw_tree():
    text = "theorem t (a b : ℝ) : a > b ∧ √a ≠ |b|"
    assert parse_statement(text, options=RAW) == parse_term("∀ a : ℝ, ∀ b : ℝ, a > b ∧ √a ≠ |b|")


TOPOLOGY = "import Mathlib\nopen Filter Topology"


@pytest.mark.parametrize("written, meant", [
    ("𝓝[≠] x", "nhdsWithin x {x}ᶜ"),
    ("𝓝[>] x", "nhdsWithin x (Set.Ioi x)"),
    ("𝓝[≤] x", "nhdsWithin x (Set.Iic x)"),
    ("𝓝[s] x", "nhdsWithin x s"),
])
def test_neighbourhoods_within_are_read_as_nhds_within_under_open_topology(written, meant):
    def tree(term: str, header: str) -> object:
        text = f"theorem t (f : ℝ → ℝ) (x : ℝ) (s : Set ℝ) : Tendsto f ({term}) (𝓝 0)"
        return parse_statement_normalized(text, header=header).tree
    assert tree(written, TOPOLOGY) == tree(meant, TOPOLOGY)
    # without `open Topology` Lean does not read the notation: nothing is expanded
    assert tree(written, "import Mathlib\nopen Filter") != tree(meant, "import Mathlib\nopen Filter")
