"""Pairs read as users write them (transted.pipeline.sides): extraction on both sides, the
reference's helper, kept definitions compared across the sides, `theorem=`, invalid vs error."""

from __future__ import annotations

import pytest

import transted
from transted.reading.pairs import Pair, Statement

HELPER = ("def is_topology (X : Type*) (T : Set (Set X)) :=\n  Set.univ ∈ T ∧\n"
          "  (∀ s t, s ∈ T → t ∈ T → s ∩ t ∈ T)")
STATEMENT = ("theorem t (X I : Type*) (T : I → Set (Set X)) (h : ∀ i, is_topology X (T i)) :\n"
             "  is_topology X (⋂ i : I, T i) := by\n  sorry")
RECURSIVE = "noncomputable def f : ℕ → ℝ\n| 0 => Real.sqrt 2\n| (n + 1) => Real.sqrt (2 + f n)"
USES_F = "theorem t : ∃ x : ℝ, ∀ n, f n < x := sorry"


def pair(ref: str, cand: str, **meta) -> Pair:
    return Pair(id="p", reference=Statement(statement=ref), candidate=Statement(statement=cand),
                meta=meta)


def test_the_reference_helper_is_read_and_a_shared_definition_is_one_constant():
    p = pair(STATEMENT, f"{HELPER}\n\n{STATEMENT}", reference_helper=HELPER)
    r = transted.load_metric("ted").score_pair(p)
    assert r.score == 1.0
    assert r.details["context"]["compared"] == [{
        "name": "is_topology", "agree": True,
        "why_kept": "defined alike on both sides: one constant, not unfolded",
        "defined_in": ["reference", "candidate"]}]
    without = transted.load_metric("ted").score_pair(pair(STATEMENT, f"{HELPER}\n\n{STATEMENT}"))
    assert without.score < 1.0  # the reference's `is_topology` is not this definition
    assert without.details["context"]["candidate"]["unfolded"] == ["is_topology"]


def test_a_helper_only_the_candidate_defines_is_unfolded_to_meet_the_reference():
    ref = ("theorem t : ∀ a ∈ ({n | Even n} : Set ℤ), ∀ b ∈ ({n | Even n} : Set ℤ), "
           "a + b ∈ ({n | Even n} : Set ℤ)")
    cand = ("def AddClosed (S : Set ℤ) : Prop := ∀ a ∈ S, ∀ b ∈ S, a + b ∈ S\n\n"
            "theorem t : AddClosed {n | Even n} := by sorry")
    r = transted.load_metric("ted").score_pair(pair(ref, cand))
    assert r.score == 1.0
    assert r.details["context"] == {"candidate": {"unfolded": ["AddClosed"]}}


def test_a_helper_defined_differently_is_unfolded_on_each_side():
    ref_def = "def Big (x : ℝ) : Prop := x > 1"
    cand_def = "def Big (x : ℝ) : Prop := x ≥ 1"
    stmt = "theorem t (y : ℝ) (h : Big y) : y ≠ 0 := sorry"
    r = transted.load_metric("ted").score_pair(
        pair(f"{ref_def}\n{stmt}", f"{cand_def}\n{stmt}"))
    assert r.details["context"]["reference"]["unfolded"] == ["Big"]
    assert r.details["context"]["candidate"]["unfolded"] == ["Big"]
    assert 0 < r.score < 1.0  # the difference is the relation inside the definitions


def test_a_kept_definition_defined_alike_is_one_constant():
    p = pair(USES_F, f"{RECURSIVE}\n\n{USES_F}", reference_helper=RECURSIVE)
    r = transted.load_metric("ted").score_pair(p)
    assert r.score == 1.0
    assert r.details["context"]["compared"] == [{
        "name": "f", "agree": True, "why_kept": "defined by pattern matching",
        "defined_in": ["reference", "candidate"]}]


def test_a_kept_definition_defined_differently_is_another_constant():
    other = RECURSIVE.replace("2 + f n", "3 + f n")
    p = pair(USES_F, f"{other}\n\n{USES_F}", reference_helper=RECURSIVE)
    r = transted.load_metric("ted").score_pair(p)
    assert r.details["context"]["compared"][0]["agree"] is False
    assert r.score < 1.0
    t = transted.load_metric("transted").score_pair(p)
    # never proved, never called equivalent by its edits: the two constants are untrusted
    # (the definitions may agree as functions), so the fallback threshold decides
    assert t.details["evidence"] != "proved" and t.decided_by == "threshold"
    constant = [e for e in t.details["residual"] if e["class"] == "constant"]
    assert constant and all("defined differently" in e["why"] for e in constant)


def test_a_definition_only_the_candidate_has_is_another_constant():
    ref = "theorem t (f : ℕ → ℝ) : ∃ x : ℝ, ∀ n, f n < x := sorry"
    p = pair(ref.replace("(f : ℕ → ℝ) ", ""), f"{RECURSIVE}\n\n{USES_F}")
    r = transted.load_metric("ted").score_pair(p)
    assert r.details["context"]["compared"][0]["defined_in"] == ["candidate"]
    assert r.score < 1.0


OUTPUT = ("Two attempts:\n\n```lean\ntheorem first (x : ℕ) : x + 0 = x := by simp\n\n"
          "theorem second (x : ℕ) : 0 + x = x := by simp\n```\n")


def test_theorem_option_chooses_and_the_result_says_why():
    ref = "theorem second (x : ℕ) : 0 + x = x"
    by_name = transted.score(ref, OUTPUT, "ted")
    assert by_name.score == 1.0
    assert by_name.details["extraction"]["candidate"]["chosen_by"] == "reference-name"
    asked = transted.score(ref, OUTPUT, "ted", theorem="first")
    assert asked.score < 1.0
    assert asked.details["extraction"]["candidate"]["chosen_by"] == "requested"
    assert asked.details["extraction"]["candidate"]["other_theorems"] == ["second"]
    assert "|theorem:first|" in asked.signature and "|theorem:" not in by_name.signature
    missing = transted.score(ref, OUTPUT, "ted", theorem="third")
    assert missing.status == "error" and "no theorem named 'third'" in missing.error


def test_signature_names_the_extraction_rules():
    # version 2: an empty output is an invalid answer (it was an input error in version 1);
    # version 3: `include`/`omit` are kept in the context
    from transted.pipeline.extraction.statement import EXTRACTION_VERSION

    assert EXTRACTION_VERSION == "3"
    for metric in ("ted", "transted", "bleu", "identity"):
        assert "|extract:3|" in str(transted.load_metric(metric).signature)


@pytest.mark.parametrize("metric", ["ted", "transted"])
def test_invalid_is_decided_before_anything_else_on_every_tree_metric(metric):
    r = transted.score("theorem t (x : ℕ) : x = x", "```lean\ntheorem t (x : ℕ) : (x =", metric)
    assert (r.status, r.verdict, r.decided_by, r.score) == (
        "invalid", "not-equivalent", "invalid", None)
    assert r.details["invalid"]["kind"] == "unclosed-bracket"


def test_prose_only_candidate_is_an_error_not_an_answer():
    r = transted.score("theorem t : True", "I could not formalize this statement.", "ted")
    assert (r.status, r.verdict) == ("error", None)
    assert "no theorem, lemma or example" in r.error


def test_string_metrics_compare_the_chosen_declaration():
    ref = "theorem second (x : ℕ) : 0 + x = x := by simp"
    assert transted.score(ref, OUTPUT, "identity").score == 1.0
    assert transted.score(ref, ref, "bleu").score == pytest.approx(1.0)


def test_a_shared_definition_only_one_tree_names_is_unfolded_there():
    helper = "abbrev I : Set ℝ := Set.Icc 0 1"
    ref = "theorem t (x : ℝ) (h : x ∈ I) : x ≤ 1 := sorry"
    cand = "theorem t (x : ℝ) (h : x ∈ (Set.Icc 0 1 : Set ℝ)) : x ≤ 1 := sorry"
    r = transted.load_metric("ted").score_pair(pair(ref, cand, reference_helper=helper))
    assert r.score == 1.0
    assert r.details["context"] == {"reference": {"unfolded": ["I"]}}


def test_each_side_is_elaborated_in_its_context_on_the_metrics_path():
    """The elaboration the evidence and the closing gate read is made after the context:
    its definitions are declared names (a kept one is a gap, never auto-bound) and its
    ``set_option autoImplicit false`` makes an unknown name an error, as in Lean."""
    strict = "set_option autoImplicit false\n\ntheorem t : x + 0 = x := sorry"
    both = transted.load_metric("ted").pipeline.read(pair("theorem t : x + 0 = x := sorry", strict))
    ref, cand = both.elaborations
    assert ref is not None and cand is not None
    assert [i.kind for i in ref.issues] == ["auto-bound"]
    assert {i.kind for i in cand.issues} == {"unknown-name"}
    other = RECURSIVE.replace("2 + f n", "3 + f n")
    kept = transted.load_metric("ted").pipeline.read(
        pair(f"{RECURSIVE}\n\n{USES_F}", f"{other}\n\n{USES_F}"))
    ref, cand = kept.elaborations
    assert ref is not None and cand is not None
    assert "f′" not in str(ref.tree) and "f′" in str(cand.tree)  # the compared trees' rename
    for side in (ref, cand):
        assert not side.auto_bound and "unsupported" in {i.kind for i in side.issues}


def test_a_side_rejected_in_its_context_is_never_proved():
    strict = "set_option autoImplicit false\n\ntheorem t : x + 0 = x := sorry"
    r = transted.load_metric("transted").score_pair(pair(strict, strict))
    assert r.details["evidence"] != "proved"
    assert {i["kind"] for i in r.details["elaboration"]["candidate"]} == {"unknown-name"}


IDX = ("noncomputable def Subgroup.idx2 {G : Type*} [Group G] (H K : Subgroup G) : ℕ :=\n"
       "  H.relIndex K")
IDX_STATEMENT = ("theorem t {G : Type*} [Group G] {H K : Subgroup G} (h : H ≤ K) :\n"
                 "  H.index = K.index * RHS := by sorry")


def test_field_notation_on_a_variable_unfolds_the_definition_of_its_namespace():
    """`H.idx2 K` with `H : Subgroup G` is `Subgroup.idx2 H K` (Lean.Elab.App addLValArg)."""
    p = pair(IDX_STATEMENT.replace("RHS", "H.idx2 K"), IDX_STATEMENT.replace("RHS", "H.relIndex K"),
             reference_helper=IDX)
    r = transted.load_metric("ted").score_pair(p)
    assert r.details["context"]["reference"]["unfolded"] == ["Subgroup.idx2"]
    swapped = transted.load_metric("ted").score_pair(
        pair(IDX_STATEMENT.replace("RHS", "H.idx2 K"), IDX_STATEMENT.replace("RHS", "K.relIndex H"),
             reference_helper=IDX))
    assert swapped.score < r.score  # the receiver went to the first explicit parameter


def test_field_notation_is_kept_when_the_receiver_is_not_the_first_explicit_parameter():
    helper = "def Nat.shift2 (f : ℕ → ℕ) (n : ℕ) : ℕ := f n + 1"
    stmt = "theorem t (g : ℕ → ℕ) (n : ℕ) (h : g n = 3) : {} = 4 := sorry"
    r = transted.load_metric("ted").score_pair(
        pair(stmt.format("n.shift2 g"), stmt.format("g n + 1"), reference_helper=helper))
    assert "reference" not in r.details.get("context", {})  # nothing unfolded on that side
