"""`s ≠ ∅` against `s.Nonempty` through the search's `nonempty` rules (rules/offline.yaml),
end to end: proved on Set and Finset, in hypotheses and conclusions, on `C ∩ A` as well as on a
variable; never on another type's `∅` or on another statement (verdict corpus `nonempty/*`)."""

from __future__ import annotations

import pytest

from transted.metrics.registry import get_metric
from transted.pipeline.opt import parse_term
from transted.pipeline.search.collections import collection_type
from transted.reading.pairs import Pair, Statement

HEADER = "import Mathlib\n"


def _score(ref: str, cand: str):
    pair = Pair(id="p", reference=Statement(statement=f"theorem t {ref} := sorry", header=HEADER),
                candidate=Statement(statement=f"theorem t {cand} := sorry", header=HEADER))
    return get_metric("transted").score_pair(pair)


@pytest.mark.parametrize(("ref", "cand", "lemma"), [
    # ProofNet Munkres 23.6, o1's translation: three positions, `C ∩ A` typed by its operands
    ("{X : Type*} [TopologicalSpace X] {A C : Set X} (hc : IsConnected C) (hCA : C ∩ A ≠ ∅) "
     "(hCXA : C ∩ Aᶜ ≠ ∅) : C ∩ (frontier A) ≠ ∅",
     "{X : Type*} [TopologicalSpace X] (A C : Set X) (hC : IsConnected C) "
     "(hCA : (C ∩ A).Nonempty) (hCAc : (C ∩ Aᶜ).Nonempty) : (C ∩ frontier A).Nonempty",
     "Set.nonempty_iff_ne_empty"),
    ("(s : Set ℝ) (h : (2 : ℝ) ∈ s) : s ≠ ∅", "(s : Set ℝ) (h : (2 : ℝ) ∈ s) : s.Nonempty",
     "Set.nonempty_iff_ne_empty"),
    ("(s : Finset ℕ) (h : s ≠ ∅) : 0 < s.card", "(s : Finset ℕ) (h : s.Nonempty) : 0 < s.card",
     "Finset.nonempty_iff_ne_empty"),
    ("(s : Finset ℕ) (h : ¬s.Nonempty) : s.card = 0", "(s : Finset ℕ) (h : s = ∅) : s.card = 0",
     "Finset.not_nonempty_iff_eq_empty"),
    ("(s t : Finset ℕ) (h : (s ∩ t).Nonempty) : 0 < (s ∩ t).card",
     "(s t : Finset ℕ) (h : ∃ x, x ∈ s ∩ t) : 0 < (s ∩ t).card", "Finset.nonempty_def"),
])
def test_nonempty_and_ne_empty_are_proved_by_the_lemma(ref, cand, lemma):
    result = _score(ref, cand)
    assert (result.verdict, result.details["evidence"]) == ("equivalent", "proved")
    assert any(lemma in line for line in result.details["script"])


@pytest.mark.parametrize(("ref", "cand"), [
    # a Multiset's `∅` is `0`, and Mathlib has no Multiset.Nonempty
    ("(m : Multiset ℕ) (h : m ≠ ∅) : 0 < Multiset.card m",
     "(m : Multiset ℕ) (h : m.Nonempty) : 0 < Multiset.card m"),
    # `s = ∅` is `¬s.Nonempty`
    ("(s : Set ℕ) (h : ∀ x, x ∉ s) : s = ∅", "(s : Set ℕ) (h : ∀ x, x ∉ s) : s.Nonempty"),
    # the two sides' sets swapped
    ("(s t : Set ℕ) (hst : s ⊆ t) (hs : s ≠ ∅) : t.Nonempty",
     "(s t : Set ℕ) (hst : s ⊆ t) (ht : t ≠ ∅) : s.Nonempty"),
    # a submodule's ⊥ is {0}, not ∅
    ("(p : Submodule ℝ (ℝ × ℝ)) (h : p ≠ ⊥) : ∃ v ∈ p, v ≠ 0",
     "(p : Submodule ℝ (ℝ × ℝ)) (h : (p : Set (ℝ × ℝ)).Nonempty) : ∃ v ∈ p, v ≠ 0"),
])
def test_other_statements_are_not_proved(ref, cand):
    result = _score(ref, cand)
    assert result.details["evidence"] != "proved"
    # the threshold may still guess (its cut is re-derived apart); evidence and edits may not
    assert result.verdict != "equivalent" or result.decided_by not in ("evidence", "edits")


ENV = {"X": "Type*", "A": "Set X", "C": "Set X", "s": "Finset ℕ", "t": "Finset ℕ",
       "m": "Multiset ℕ", "n": "ℕ", "u": None}


@pytest.mark.parametrize(("term", "expected"), [
    ("C ∩ Aᶜ \\ C", "Set X"),                 # ∩ ∪ \ ᶜ keep their operands' one type
    ("C ∩ frontier A", "Set X"),             # frontier : Set X → Set X, from the elaboration
    ("(s : Set ℕ)", "Set ℕ"),                # an ascription is its type
    ("s ∪ Finset.range n", "Finset ℕ"),
    ("m", None),                             # not a Set or a Finset
    ("u", None),                             # bound without a type
    ("C ∩ s", None),                         # a Set meeting a Finset: not one known type
    ("{x : ℕ | x < 3}", "Set ℕ"),            # set-builder: setOf, a Set (the elaborator)
])
def test_collection_type(term, expected):
    env = {k: (parse_term(v) if v is not None else None) for k, v in ENV.items()}
    typ = collection_type(parse_term(term), env)
    want = None if expected is None else collection_type(parse_term("w"),
                                                         {**env, "w": parse_term(expected)})
    assert typ == want and (expected is None or typ is not None)
