"""The spliced canonical form (a rewritten subtree canonicalised alone) is exactly the full one.

``spliced_flat`` may decline (None); when it answers, its answer must equal
``canonical_flat`` of the rewritten tree, at every position of every statement below and
for replacements that bind, use bound names, use free names or change the free names.
"""

from __future__ import annotations

import pytest

from transted.pipeline.opt import parse_statement, parse_term
from transted.pipeline.opt.canonical import canonical_flat, spliced_flat
from transted.pipeline.search.pattern import positions, replace_at
from transted.pipeline.search.state import Edit, State

STATEMENTS = [
    "theorem t (x : ℝ) (h : 0 < x) : x + 0 = x",
    "theorem t (a b : ℕ) (h₀ : a ≤ b) : ∀ c : ℕ, a + c ≤ b + c",
    "theorem t (f : ℕ → ℕ) : ∀ (h : 0 < f 1), ∃ n, f n = n ∧ ∀ m, m < n → f m ≠ m",
    "theorem t (s : Finset ℕ) : ∑ i ∈ s, (i + 1) = ∑ i ∈ s, i + s.card",
    "theorem t : let a := (2 : ℤ); ∃ x : ℤ, x * a = 4",
    "theorem t (p : ℕ → Prop) : {x : ℕ | p x ∧ 0 < x} = {y | 0 < y ∧ p y}",
    "theorem t (g : ℝ → ℝ) (hg : ∀ x y, g (x + y) = g x + g y) : g 0 = 0",
    # `∂μ` comes after the body: x is no longer bound there
    "theorem t (f : ℝ → ℝ) (μ : Measure ℝ) : ∫ x in (0)..1, f x ∂μ = ∫ y, f y ∂(μ.restrict (Set.Icc 0 x))",
]
REPLACEMENTS = ["z", "x", "0 + 1", "∀ w : ℕ, w = w", "fun u => u + x", "h"]


def _cases():
    for text in STATEMENTS:
        tree = parse_statement(text)
        for path, _node in positions(tree):
            for new in REPLACEMENTS:
                yield text, tree, path, parse_term(new)


@pytest.mark.parametrize("env", [{}, {"x": "#1"}])
def test_a_splice_is_the_full_canonical_form_or_declined(env):
    answered = declined = 0
    for text, tree, path, new in _cases():
        level = len(env)
        before = canonical_flat(tree, env, level)
        spliced = spliced_flat(tree, before, path, new, env, level)
        if spliced is None:
            declined += 1
            continue
        answered += 1
        assert spliced == canonical_flat(replace_at(tree, path, new), env, level), (text, path)
    # both branches exercised (240 answered, 648 declined when written: binder names and
    # replacements that capture a bound name are declined)
    assert answered >= 200 and declined >= 200


def test_a_change_of_free_names_is_declined_where_an_arrow_would_flip():
    tree = parse_term("∀ (h : 0 < a), q")  # `0 < a → q`: h unused
    path = (1,)
    assert tree.children[1].label == "q"
    flat = canonical_flat(tree)
    assert spliced_flat(tree, flat, path, parse_term("h"), {}, 0) is None
    assert canonical_flat(replace_at(tree, path, parse_term("h")))[0][0] != flat[0][0]
    assert spliced_flat(tree, flat, path, parse_term("r"), {}, 0) == canonical_flat(
        replace_at(tree, path, parse_term("r")))


def test_a_state_key_from_a_stale_edit_hint_is_not_spliced():
    lhs, rhs = parse_term("a + 0"), parse_term("a")
    hint = Edit(lhs, (0,), parse_term("b"), parse_term("b + 0"))  # describes another tree
    state = State(lhs, rhs, edit=("lhs", hint))
    assert state.key == State(lhs, rhs).key
