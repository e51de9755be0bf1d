"""Edits between two constants judged by what the Mathlib index says they are
(transted.pipeline.verdict.constants, issue 32 item 3). Every expectation is the Mathlib definition
cited beside it."""

from __future__ import annotations

import pytest

from transted.pipeline.opt.mathlib import load_index
from transted.pipeline.verdict.constants import judge_constants


@pytest.fixture(scope="module")
def index():
    return load_index()


@pytest.mark.parametrize(("a", "b", "role"), [
    # Monotone: ∀ ⦃a b⦄, a ≤ b → f a ≤ f b; Antitone: … → f b ≤ f a (Mathlib/Order/Monotone/Defs)
    ("Monotone", "Antitone", "meaning"),
    # StrictMono: a < b → f a < f b against Monotone's ≤ (the same file)
    ("StrictMono", "Monotone", "meaning"),
    # two structures: a subgroup is not a submonoid (Mathlib/Algebra/Group/Subgroup/Defs)
    ("Subgroup", "Submonoid", "meaning"),
    # Field extends CommRing: a stronger hypothesis (Mathlib/Algebra/Field/Defs)
    ("Field", "CommRing", "meaning"),
    ("LinearOrder", "PartialOrder", "meaning"),
    # interchangeable in a proposition: Fintype.ofFinite / Finite.of_fintype
    ("Fintype", "Finite", "presentational"),
    # one value wherever both elaborate: Nat.card_eq_fintype_card (corpus card/01–04)
    ("Fintype.card", "Nat.card", "presentational"),
    # two type synonyms of one value (`def … := α`, Mathlib/Order/Synonym.lean): each has its
    # own instances (≤ on OrderDual ℕ is reversed), so one body is not one type (corpus
    # type-synonym/05: a wrong `proved` before)
    ("OrderDual", "Lex", "meaning"),
    # a structure (Units, `ˣ`) against a synonym of its argument (Multiplicative α := α)
    ("Units", "Multiplicative", "meaning"),
    # a structure against a function type (def Set α := α → Prop)
    ("Finset", "Set", "meaning"),
])
def test_what_the_index_says_decides(index, a, b, role):
    assert judge_constants(a, b, index)[0] == role
    assert judge_constants(b, a, index)[0] == role


def test_a_to_additive_copy_is_not_compared_by_its_machine_translated_body(index):
    # the index's Finset.sum is generated from Finset.prod by name guessing: its stored value
    # must never make the two look like one definition (a soundness bug found this round)
    assert judge_constants("Finset.sum", "Finset.prod", index)[0] != "presentational"


def test_unknown_or_unparsed_constants_stay_untrusted(index):
    assert judge_constants("Not.A.Constant", "Monotone", index)[0] == "untrusted"
    # Nat.choose is defined by pattern matching: nothing to compare
    assert judge_constants("Nat.choose", "Nat.descFactorial", index)[0] == "untrusted"
