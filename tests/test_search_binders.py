"""Alpha-canonical form, free names and substitution (transted.pipeline.opt.substitution)."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from transted.pipeline.opt import parse_term
from transted.pipeline.opt.canonical import canonical, canonical_flat
from transted.pipeline.opt.scope import free_names
from transted.pipeline.opt.substitution import fresh_name, substitute
from transted.pipeline.search.distance import flatten, tree_distance
from transted.pipeline.search.state import Local, State


@pytest.mark.parametrize("a, b", [
    ("∀ x : ℝ, x = x", "∀ y : ℝ, y = y"),
    ("∃ x, ∀ y, p x y", "∃ u, ∀ v, p u v"),
    ("fun n => ∑ i ∈ range n, f i", "fun m => ∑ k ∈ range m, f k"),
    ("{x : ℝ | 0 < x}", "{t : ℝ | 0 < t}"),
    # an unused typed ∀ is Lean's arrow, with the body renumbered
    ("∀ (h : 0 < a), ∀ y, q y", "0 < a → ∀ z, q z"),
])
def test_alpha_equivalent_terms_have_equal_canonical_forms(a, b):
    assert canonical(parse_term(a)) == canonical(parse_term(b))
    key_ab = State(parse_term(a), parse_term(b)).key
    assert key_ab == State(parse_term(b), parse_term(a)).key  # both sides equal: symmetric
    assert tree_distance(canonical(parse_term(a)), canonical(parse_term(b))) == 0


@pytest.mark.parametrize("a, b", [
    ("∀ x y, p x y", "∀ x y, p y x"),      # swapped uses: not alpha-equivalent
    ("∀ x : ℝ, x = x", "∀ x : ℕ, x = x"),  # binder types matter
    ("fun x => y", "fun y => y"),           # free y vs bound y
])
def test_non_equivalent_terms_differ(a, b):
    assert canonical(parse_term(a)) != canonical(parse_term(b))


def test_shadowing_refers_to_the_inner_binder():
    # ∃ x, ∃ x, x = 1: the occurrence is the inner x (level 2), as in Lean
    tree = canonical(parse_term("∃ x, ∃ x, x = 1"))
    assert "{#2}{1}" in str(tree)


def test_context_locals_are_levels_before_binders():
    state = State(parse_term("x + 1"), parse_term("∀ y, y = x"), (Local("x"),))
    assert str(state.canonical_lhs) == "{<SLOT> + <SLOT>{#1}{1}}"
    assert "{#2}{#1}" in str(state.canonical_rhs)


def test_free_names_skip_bound_occurrences_but_keep_binder_types():
    assert free_names(parse_term("∀ x : α, p x y")) == {"α", "p", "y"}


def test_substitution_avoids_capture():
    # (∀ y, x < y)[x := y] must not capture: the binder is renamed
    out = substitute(parse_term("∀ y, x < y"), "x", parse_term("y"))
    assert canonical(out) == canonical(parse_term("∀ z, y < z"))


def test_fresh_name_primes_like_lean():
    assert fresh_name("x", {"x", "x'"}) == "x''"


_TERMS = ["∀ x : ℝ, ∃ y, x < y ∧ p y", "fun n => ∑ i ∈ range n, f i * n",
          "∀ (h : 0 < a), ∀ y, q y → r", "{x | ∀ z, z ∈ s → z ≠ x}",
          "let b := 2; ∀ m : ℕ, m + b = 5", "∃! x : ℤ, x = x ∧ ∀ x, x = x"]


@settings(derandomize=True, max_examples=60, deadline=None)
@given(st.sampled_from(_TERMS), st.integers(0, 3))
def test_flat_canonical_equals_flattened_tree(text, level):
    env = {f"c{i}": f"#{i + 1}" for i in range(level)}
    tree = parse_term(text)
    assert canonical_flat(tree, env, level) == flatten(canonical(tree, env, level))


def test_function_variables_in_application_heads_are_bound_occurrences():
    # `f 0` writes f in the label; the binder is used, so no arrow; renaming reaches it
    a = canonical(parse_term("∀ f : ℝ → ℝ, f 0 = 1"))
    b = canonical(parse_term("∀ g : ℝ → ℝ, g 0 = 1"))
    assert a == b
    assert a.label == "∀ <SLOT>, <SLOT>"
    assert "#1 <SLOT>" in str(a)
    assert free_names(parse_term("∀ f : ℝ → ℝ, f x = g x")) == {"ℝ", "x", "g"}
    assert substitute(parse_term("f x"), "f", parse_term("h")) == parse_term("h x")
