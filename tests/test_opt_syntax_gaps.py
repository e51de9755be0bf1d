"""The notations issue 23 found missing, each against the Lean/Mathlib reading it models
(docs/INPUTS.md §3): the expected tree is the parse of the same term written without it."""

from __future__ import annotations

from transted.pipeline.opt import parse_statement, parse_term
from transted.pipeline.opt.canonical import canonicalize
from transted.pipeline.opt.labels import EVENTUALLY, FREQUENTLY
from transted.pipeline.opt.scope import free_names


def test_eventually_binds_in_its_body_not_its_filter():
    """Mathlib/Order/Filter/Defs.lean: notation3 "∀ᶠ "(...)" in "f", "r:(scoped p =>
    Filter.Eventually p f) => r."""
    tree = parse_term("∀ᶠ n in Filter.atTop, 0 < u n")
    assert tree.label == EVENTUALLY
    assert [c.label for c in tree.children[:2]] == ["n", "Filter.atTop"]
    assert free_names(tree) == {"Filter.atTop", "u", "0"}     # `n` is bound
    # the filter is outside the binder's scope: `x` there is the outer one
    assert "x" in free_names(parse_term("∃ᶠ (x : α) in nhds x, x ∈ s"))


def test_frequently_with_typed_binder():
    tree = parse_term("∃ᶠ (x' : α) in nhds x, x' ∈ s")
    assert tree.label == FREQUENTLY
    assert tree.children[0] == parse_term("∀ x' : α, True").children[0]


def test_several_filter_binders_nest():
    nested = parse_term("∀ᶠ (x : ℕ) (y : ℕ) in l, x ≤ y")
    assert nested == parse_term("∀ᶠ (x : ℕ) in l, ∀ᶠ (y : ℕ) in l, x ≤ y")


def test_bounded_continuous_functions_infix():
    """scoped[BoundedContinuousFunction] infixr:25 " →ᵇ " => BoundedContinuousFunction."""
    tree = parse_term("α →ᵇ β →ᵇ γ")
    assert tree.label == "<SLOT> →ᵇ <SLOT>"
    assert tree.children[1].label == "<SLOT> →ᵇ <SLOT>"  # right-associative


def test_big_operator_binder_groups_nest():
    """notation3 "⋃ "(...)", " r:60:(scoped f => iUnion f): one iUnion per binder."""
    grouped = parse_term("⋃ (a : ℚ) (b : ℚ) (_ : a < b), {Set.Ioo (a : ℝ) b}")
    nested = parse_term("⋃ (a : ℚ), ⋃ (b : ℚ), ⋃ (_ : a < b), {Set.Ioo (a : ℝ) b}")
    assert grouped == nested
    assert parse_term("⨆ (i) (j), f i j") == parse_term("⨆ (i), ⨆ (j), f i j")
    assert parse_term("∑ (i ∈ s) (j ∈ t), f i j") == parse_term("∑ i ∈ s, ∑ j ∈ t, f i j")


def test_single_binder_forms_are_unchanged():
    assert parse_term("∑ (i : Fin n) in s, f i").label == "∑ <SLOT> ∈ <SLOT>, <SLOT>"
    assert parse_term("⋃ i, A i").label == "⋃ <SLOT>, <SLOT>"


def test_let_value_ends_at_a_line_in_its_column():
    """Lean's `let` is withPosition("let " letDecl): an argument must start right of `let`."""
    text = ("theorem t : ∃ X : Type,\n"
            "    let T : Set (Set X) := {t | t = ∅}\n"
            "    ¬ (Set.univ ∈ T) := by\n  sorry")
    one_line = "theorem t : ∃ X : Type, let T : Set (Set X) := {t | t = ∅}; ¬ (Set.univ ∈ T)"
    assert parse_statement(text) == parse_statement(one_line)


def test_a_deeper_line_still_continues_the_value():
    text = "theorem t :\n  let a := f\n    2\n  a = 2"
    assert parse_statement(text) == parse_statement("theorem t : let a := f 2; a = 2")
    # left of `let`'s column (12) the value has ended, as in Lean: `2 a = 2` is the body
    text = "theorem t : let a := f\n      2\n  a = 2"
    assert parse_statement(text) == parse_statement("theorem t : let a := f; 2 a = 2")


def test_positions_do_not_leak_into_brackets():
    text = "theorem t :\n  let a := (f\n  2)\n  a = 2"
    assert parse_statement(text) == parse_statement("theorem t : let a := f 2; a = 2")


def test_fun_with_match_alternatives():
    tree = parse_term("fun | 0 => 1 | _ + 1 => 2")
    assert tree.label == "fun <SLOT> => <SLOT>"
    assert tree.children[1].label == "match <SLOT> with <SLOT> <SLOT>"
    assert canonicalize(tree) == canonicalize(parse_term("fun | 0 => 1 | _ + 1 => 2"))


def test_term_level_open_in_opens_names():
    """Term.open: `open Real in e` reads `e` with Real opened (the elaborator resolves its
    names under the open; the normalised tree has them in full)."""
    assert parse_statement("theorem t :\n    open Real in\n    sqrt 4 = 2") == \
        parse_statement("theorem t : Real.sqrt 4 = 2")
    assert parse_statement("theorem t : open Nat in sqrt 4 = 2") != \
        parse_statement("theorem t : open Real in sqrt 4 = 2")
    assert parse_statement("theorem t : open Real in Real.sqrt 4 = 2") == \
        parse_statement("theorem t : Real.sqrt 4 = 2")
    assert parse_statement("theorem t : set_option maxRecDepth 1000 in 1 = 1") == \
        parse_statement("theorem t : 1 = 1")


def test_big_operator_filter():
    """bigOpBinder's `with`: ∑ x ∈ s with p x, f x is the sum over s.filter (fun x ↦ p x)."""
    assert parse_term("∑ x ∈ s with x % 2 = 0, f x") == \
        parse_term("∑ x ∈ Finset.filter (fun x => x % 2 = 0) s, f x")


def test_iterate_notation():
    """Mathlib/Logic/Function/Iterate.lean: notation:max f "^["n"]" => Nat.iterate f n."""
    assert parse_term("deriv^[2] f x") == parse_term("Nat.iterate deriv 2 f x")


def test_vector_and_matrix_literals():
    tree = parse_term("!![1, 2; 3, 4]")
    assert tree.label == "!![<SLOT>, <SLOT>; <SLOT>, <SLOT>]"
    assert [c.label for c in tree.children] == ["1", "2", "3", "4"]
    assert parse_term("![a, b]").label == "![<SLOT>, <SLOT>]"


def test_filter_and_asymptotic_relations():
    """f =ᶠ[l] g (EventuallyEq, notation:50), f =O[l] g (IsBigO, notation:100)."""
    assert parse_term("f =ᶠ[atTop] g").label == "<SLOT> =ᶠ[<SLOT>] <SLOT>"
    tree = parse_term("f =O[atTop] g ∧ True")
    assert tree.label == "<SLOT> ∧ <SLOT>"
    assert tree.children[0].label == "<SLOT> =O[<SLOT>] <SLOT>"


def test_small_notations():
    assert parse_term("‖x‖₊").label == "‖<SLOT>‖₊"                    # NNNorm.nnnorm
    assert parse_term("(l |>.sum) = 0") == parse_term("(l).sum = 0")  # `e |>.f` is `(e).f`
    assert "i" not in free_names(parse_term("Σ i, f i"))             # Sigma binds
    assert parse_term("a ≈ b").label == "<SLOT> ≈ <SLOT>"           # HasEquiv.Equiv
    assert parse_term("((↑) : ℚ → ℝ)").children[0].label == "(↑)"    # the coercion function
