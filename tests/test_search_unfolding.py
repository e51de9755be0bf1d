"""Mathlib definitions unfolded by the search (transted.pipeline.search.providers.unfolding,
issue 32 item 4): each example is one definition away, its body as the pinned Mathlib writes it."""

from __future__ import annotations

import pytest

from transted.metrics.registry import get_metric
from transted.pipeline.opt import parse_term
from transted.pipeline.opt.mathlib import load_index
from transted.pipeline.search.providers.unfolding import definition_template
from transted.reading.pairs import Pair, Statement

HEADER = "import Mathlib\n"


def _pair(ref: str, cand: str) -> Pair:
    return Pair(id="p", reference=Statement(statement=f"theorem t {ref} := sorry", header=HEADER),
                candidate=Statement(statement=f"theorem t {cand} := sorry", header=HEADER))


@pytest.mark.parametrize(("ref", "cand", "unfolded"), [
    # Set.Nonempty s := ∃ x, x ∈ s (Mathlib/Data/Set/Defs.lean)
    ("(s : Set ℕ) (h : s.Nonempty) : 3 ∈ s", "(s : Set ℕ) (h : ∃ x, x ∈ s) : 3 ∈ s",
     "unfold Set.Nonempty"),
    # Function.Surjective f := ∀ b, ∃ a, f a = b (Mathlib/Logic/Function/Defs.lean)
    ("(f : ℕ → ℕ) (hf : Function.Surjective f) : ∃ a, f a = 3",
     "(f : ℕ → ℕ) (hf : ∀ b, ∃ a, f a = b) : ∃ a, f a = 3", "unfold Function.Surjective"),
    # Function.Injective f := ∀ ⦃a₁ a₂⦄, f a₁ = f a₂ → a₁ = a₂ (binder kinds do not matter)
    ("(f : ℕ → ℕ) (hf : Function.Injective f) : f 1 ≠ f 2",
     "(f : ℕ → ℕ) (hf : ∀ a b, f a = f b → a = b) : f 1 ≠ f 2", "unfold Function.Injective"),
    # Nat.instDvdNat := ⟨fun a b => ∃ c, b = a * c⟩ (Lean core Init/Data/Nat/Dvd.lean)
    ("(a b : ℕ) (h : a ∣ b) (hb : 0 < b) : a ≤ b",
     "(a b : ℕ) (h : ∃ c, b = a * c) (hb : 0 < b) : a ≤ b", "show (a ∣ b)"),
    # Set.instHasSubset → Set.Subset := ∀ ⦃a⦄, a ∈ s₁ → a ∈ s₂ (Mathlib/Data/Set/Defs.lean)
    ("(s u : Set ℕ) (h : s ⊆ u) (h3 : 3 ∈ s) : 3 ∈ u",
     "(s u : Set ℕ) (h : ∀ x, x ∈ s → x ∈ u) (h3 : 3 ∈ s) : 3 ∈ u", "from rfl"),
])
def test_one_definition_away_is_proved_with_the_definition_named(ref, cand, unfolded):
    result = get_metric("transted").score_pair(_pair(ref, cand))
    assert (result.verdict, result.details["evidence"]) == ("equivalent", "proved")
    assert any(unfolded in line for line in result.details["script"])


def test_what_is_never_unfolded():
    index = load_index()
    assert definition_template(index, "Real.sqrt") is None  # irreducible (Mathlib: irreducible_def-like)
    assert definition_template(index, "Nat.choose") is None  # pattern matching
    assert definition_template(index, "Finset.sum") is None  # a @[to_additive] copy
    # type synonyms (a `def` whose value is a type): OrderDual ℕ's ≤ is not ℕ's (corpus
    # type-synonym/05–06)
    assert definition_template(index, "OrderDual") is None
    assert definition_template(index, "Multiplicative") is None


def test_a_bound_variable_typed_by_a_function_parameters_domain_unfolds():
    # Set.InjOn: ∀ ⦃x₁ : α⦄, x₁ ∈ s → … f x₁ = f x₂ → …, with f : α → β: α is what Lean
    # infers from `f x₁`, so the binder's type is left out and the template names no implicit
    index = load_index()
    injon = definition_template(index, "Set.InjOn")
    assert injon is not None and injon.params == ("f", "s")
    assert "α" not in {n.label for n in injon.body.preorder()}
    nonempty = definition_template(index, "Set.Nonempty")
    assert nonempty is not None and nonempty.params == ("s",)
    assert nonempty.body == parse_term("∃ x, x ∈ s")


def test_a_notation_over_a_type_the_binders_do_not_give_is_not_unfolded():
    # `a ∣ b` in an abstract monoid: which Dvd instance is not known, so no move
    result = get_metric("transted").score_pair(_pair(
        "{M : Type*} [Monoid M] (a b : M) (h : a ∣ b) : a ∣ b * b",
        "{M : Type*} [Monoid M] (a b : M) (h : ∃ c, b = a * c) : a ∣ b * b"))
    assert not any("from rfl" in line for line in result.details["script"])


def test_exists_unique_unfolds_by_its_definition():
    # ∃! x, p x is ExistsUnique fun x => p x := ∃ x, p x ∧ ∀ y, p y → y = x
    # (Mathlib/Logic/ExistsUnique.lean:22); corpus exists-unique/01–04
    result = get_metric("transted").score_pair(_pair(
        "(f : ℕ → ℕ) (hf : ∀ n, f n = 2 * n) : ∃! x, f x = 0",
        "(f : ℕ → ℕ) (hf : ∀ n, f n = 2 * n) : ∃ x, f x = 0 ∧ ∀ y, f y = 0 → y = x"))
    assert result.details["status"] == "found"
    assert any("from rfl" in line for line in result.details["script"])
