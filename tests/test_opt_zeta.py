"""Zeta reduction of ``let``/``have`` (transted.pipeline.opt.zeta, a normalisation step): the
body with the value ascribed its type put for the name, only where the text stays Lean's term.

Each SAME pair is one proposition up to zeta (``Expr.letE`` is definitionally its body with the
value substituted); each DIFFERENT pair is a wrong unfolding (the value's type lost, a shadowed
or captured name) that must stay apart; each KEPT statement is one the step must abstain on.
"""

from __future__ import annotations

import pytest

from transted.pipeline.opt import (
    OptOptions,
    parse_statement,
    parse_statement_normalized,
    parse_term,
)
from transted.pipeline.opt.canonical import canonicalize
from transted.pipeline.opt.elaborate import elaborate_statement
from transted.pipeline.opt.labels import HAVE, LET
from transted.pipeline.opt.node import Node
from transted.pipeline.opt.zeta import zeta_reduct
from transted.pipeline.search.reduction import reduce_definitional

RAW = OptOptions(normalize=False)

SAME = [
    # a written type: the value is ascribed it (2 is a real here, not a natural)
    ("theorem t : let x : ℝ := 2; x / 3 ≠ 0", "theorem t : (2 : ℝ) / 3 ≠ 0"),
    # ℕ subtraction stays in ℕ, then the cast
    ("theorem t : let x : ℕ := 7 - 10; (x : ℤ) = 0", "theorem t : ((7 - 10 : ℕ) : ℤ) = 0"),
    # a value used twice goes in both places
    ("theorem t (a b : ℝ) : let s : ℝ := a + b; 0 ≤ s * s",
     "theorem t (a b : ℝ) : 0 ≤ (a + b : ℝ) * (a + b : ℝ)"),
    # `have` is a non-dependent let: the same reduction
    ("theorem t (a : ℝ) : have b : ℝ := a ^ 2; 0 ≤ b", "theorem t (a : ℝ) : 0 ≤ (a ^ 2 : ℝ)"),
    # no written type: the value's type is settled by `n : ℕ` alone
    ("theorem t (n : ℕ) : let m := n - 1; 0 ≤ (m : ℤ)",
     "theorem t (n : ℕ) : 0 ≤ ((n - 1 : ℕ) : ℤ)"),
    # a proposition goes in as written (in a hypothesis too)
    ("theorem t (x : ℝ) (h : let p := 0 < x; p) : 0 < x ^ 2",
     "theorem t (x : ℝ) (h : 0 < x) : 0 < x ^ 2"),
    # the inner ∀ x shadows the let's x: the value goes nowhere
    ("theorem t (a : ℕ) : let x : ℕ := a + 1; ∀ x : ℕ, x ≤ x + a",
     "theorem t (a : ℕ) : ∀ x : ℕ, x ≤ x + a"),
    # nested lets, inner first
    ("theorem t : let a : ℕ := 1; let b : ℕ := a + 1; b = 2",
     "theorem t : (((1 : ℕ) + 1 : ℕ)) = 2"),
    # an ascription the value already has, a local of the type: nothing to add
    ("theorem t : let x := (2 : ℝ); x / 3 ≠ 0", "theorem t : (2 : ℝ) / 3 ≠ 0"),
    ("theorem t (y : ℕ) : let x : ℕ := y; ∃ z : ℕ, z < x", "theorem t (y : ℕ) : ∃ z : ℕ, z < y"),
    # `let _ := v; b` is b
    ("theorem t (a : ℕ) : let _ : ℕ := a; a = a", "theorem t (a : ℕ) : a = a"),
]


@pytest.mark.parametrize("i", range(len(SAME)))
def test_let_is_its_body_with_the_ascribed_value(i):
    a, b = SAME[i]
    out = parse_statement_normalized(a)
    assert out.tree == parse_statement(b)
    assert "zeta (let/have)" in out.applied
    assert parse_statement(a, options=RAW) != parse_statement(b, options=RAW)


DIFFERENT = [
    # the value's type dropped: over ℕ 2 / 3 = 0
    ("theorem t : let x : ℝ := 2; x / 3 ≠ 0", "theorem t : 2 / 3 ≠ 0"),
    # the subtraction moved into ℤ (-3 there, 0 in ℕ)
    ("theorem t : let x : ℕ := 7 - 10; (x : ℤ) = 0", "theorem t : (7 - 10 : ℤ) = 0"),
    ("theorem t (n : ℕ) : let m := n - 1; 0 ≤ (m : ℤ)", "theorem t (n : ℕ) : 0 ≤ (n - 1 : ℤ)"),
    # substituting into the shadowed x
    ("theorem t (a : ℕ) : let x : ℕ := a + 1; ∀ x : ℕ, x ≤ x + a",
     "theorem t (a : ℕ) : ∀ x : ℕ, (a + 1 : ℕ) ≤ x + a"),
    # one of the two occurrences changed
    ("theorem t (a b : ℝ) : let s : ℝ := a + b; 0 ≤ s * s",
     "theorem t (a b : ℝ) : 0 ≤ (a + b : ℝ) * (a - b : ℝ)"),
]


@pytest.mark.parametrize("i", range(len(DIFFERENT)))
def test_a_wrong_unfolding_stays_different(i):
    a, b = DIFFERENT[i]
    assert parse_statement(a) != parse_statement(b)


def test_the_value_is_not_captured_by_a_binder_of_the_body():
    out = parse_statement_normalized("theorem t (y : ℕ) (h : 0 < y) : let x : ℕ := y; ∃ y : ℕ, y < x")
    want = parse_statement("theorem t (y : ℕ) (h : 0 < y) : ∃ z : ℕ, z < y")
    assert canonicalize(out.tree) == canonicalize(want)
    captured = parse_statement("theorem t (y : ℕ) (h : 0 < y) : ∃ y : ℕ, y < y")
    assert canonicalize(out.tree) != canonicalize(captured)


def _has_let(tree: Node) -> bool:
    return any(n.label in (LET, HAVE) for n in tree.preorder())


KEPT = [
    # an untyped numeral: its type is a metavariable the body may still fix
    "theorem t : let x := 7 - 10; (x : ℤ) = 0",
    "theorem t : let x := 2; x / (3 : ℝ) = 0",
    # parameters: the parser's `fun n => n - 1` lost `(n : ℕ)`, and ℕ is the result type
    "theorem t : let f (n : ℕ) : ℕ := n - 1; (f 0 : ℤ) = 0",
    # a pattern let is a match
    "theorem t : let ⟨a, b⟩ := ((1 : ℕ), (2 : ℕ)); a + b = 3",
    # a `have` without a term has no value to put
    "theorem t (x : ℝ) (h : 0 < x) : have h2 : 0 < x ^ 2 := sorry; 0 < x ^ 2 + 1",
    # a written type with a hole
    "theorem t : let s : Set _ := {(1 : ℕ)}; (1 : ℕ) ∈ s",
    # the value names an untyped binder whose type the let may be what fixes
    "theorem t : ∀ y, let x : ℝ := y; y = y",
    # the value's x is the outer x (the elaboration types it as the let's own)
    "theorem t : ∀ x : ℕ, let x := x - 1; (x : ℝ) = -1",
]


@pytest.mark.parametrize("i", range(len(KEPT)))
def test_unsound_or_unknown_lets_are_kept(i):
    out = parse_statement_normalized(KEPT[i])
    assert _has_let(out.tree), KEPT[i]
    assert "zeta (let/have)" not in out.applied


def test_a_have_proved_by_tactics_is_kept():
    """The parser reads a ``by`` value as the leaf ``by`` (the tactic block is skipped)."""
    have = parse_term("have h : 0 < x := sorry; 0 < x + 1")
    by = have.with_children((have.children[0], Node("by"), have.children[2]))
    assert zeta_reduct(by) is None and zeta_reduct(have) is None
    proved = have.with_children((have.children[0], parse_term("hx"), have.children[2]))
    assert zeta_reduct(proved) == parse_term("0 < x + 1")  # the body does not use h


def test_elaboration_reports_defaulted_types():
    numeral = elaborate_statement("theorem t : let x := 2; x = x := sorry")
    assert (1,) in numeral.defaulted          # the value `2`: ℕ by instOfNatNat only
    typed = elaborate_statement("theorem t (y : ℝ) : let x := y + 1; x = x := sorry")
    assert (1, 1) not in typed.defaulted      # `y + 1` is real because y is
    assert (1, 1, 1) not in typed.defaulted


def test_search_reduction_keeps_untyped_lets_and_ascribes_typed_ones():
    untyped = parse_term("let x := 7 - 10; (x : ℤ) = 0")
    assert reduce_definitional(untyped) == untyped
    typed = parse_term("let x : ℕ := 7 - 10; (x : ℤ) = 0")
    assert reduce_definitional(typed) == parse_term("((7 - 10 : ℕ) : ℤ) = 0")
    params = parse_term("let f (n : ℕ) : ℕ := n - 1; (f 0 : ℤ) = 0")
    assert reduce_definitional(params) == params


def test_search_projects_an_ascribed_pair():
    tree = parse_term("((7, -1) : ℝ × ℝ).2 = m")
    assert reduce_definitional(tree) == parse_term("(-1 : ℝ) = m")
    assert reduce_definitional(parse_term("(7, -1).1 = m")) == parse_term("7 = m")
