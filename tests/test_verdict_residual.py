"""Residual edits (transted.pipeline.verdict.residual): renaming by one bijection, typed edits settled by
the elaboration, opaque names untrusted, clusters, hypothesis entailment. Every expectation is
the Lean reading of the two statements, argued in the comment beside it."""

from __future__ import annotations

from transted.pipeline.evidence.entail import entails
from transted.pipeline.opt import parse_statement_normalized
from transted.pipeline.verdict.edit_kinds import label_kind, load_kind_table, rename_kind
from transted.pipeline.verdict.residual import ResidualEdit, residual_edits

HEADER = "import Mathlib\nopen Real"


def _edits(ref: str, cand: str, *, entail: bool = True, header: str = HEADER
           ) -> list[ResidualEdit]:
    trees = [parse_statement_normalized(f"theorem t {s} := sorry", header=header).tree
             for s in (ref, cand)]
    return residual_edits(trees[0], trees[1], reference_header=header, candidate_header=header,
                          entail=entails if entail else None)


def _roles(edits: list[ResidualEdit]) -> set[tuple[str, str]]:
    return {(e.kind, e.role) for e in edits}


def _counting(edits: list[ResidualEdit]) -> list[ResidualEdit]:
    return [e for e in edits if e.counts]


def test_one_consistent_renaming_leaves_no_edit_even_with_binders_reordered():
    # a ↦ x, b ↦ y is one bijection; the binder order is forall_swap
    assert _edits("(a b : ℕ) (h : a < b) : a + 1 ≤ b", "(y x : ℕ) (h : x < y) : x + 1 ≤ y") == []
    # theorem names and hypothesis labels are not part of the proposition
    assert _edits("(x : ℝ) (h₀ : x < 1) : x < 2", "(x : ℝ) (hx : x < 1) : x < 2") == []


def test_swapped_variables_are_a_meaning_change():
    # x + 1 ≤ y vs y + 1 ≤ x: two renames that exchange the variables
    edits = _edits("(x y : ℕ) (h : x < y) : x + 1 ≤ y", "(x y : ℕ) (h : x < y) : y + 1 ≤ x")
    assert _roles(edits) == {("bound-variable", "meaning")}
    assert all(e.where == "conclusion" for e in edits)


def test_relation_connective_and_type_changes_are_meaning():
    assert _roles(_edits("(x : ℕ) : x ≤ 6", "(x : ℕ) : x < 6")) == {("relation", "meaning")}
    assert ("logic", "meaning") in _roles(_edits("(p q : Prop) : p → q", "(p q : Prop) : p ↔ q"))
    # the same formula over ℚ instead of ℝ quantifies over other values
    edits = _edits("(x : ℝ) (h : 0 < x) : x ^ 2 > 0", "(x : ℚ) (h : 0 < x) : x ^ 2 > 0")
    assert [(e.where, e.kind, e.reference, e.candidate, e.role) for e in edits] == \
        [("binder 1", "type", "ℝ", "ℚ", "meaning")]


def test_casts_are_presentational_only_where_lean_casts_the_same_term():
    # ↑(a - b) subtracts in ℕ (truncated) and casts; ↑a - ↑b subtracts in ℝ
    edits = _edits("(a b : ℕ) (x : ℝ) (h : x = ↑(a - b)) : x ≥ 0",
                   "(a b : ℕ) (x : ℝ) (h : x = ↑a - ↑b) : x ≥ 0")
    assert ("coercion", "meaning") in _roles(edits)
    # ↑n and (n : ℝ) are the same Nat.cast n : ℝ
    edits = _edits("(n : ℕ) (x : ℝ) (h : x = ↑n + 1) : x ≥ 1",
                   "(n : ℕ) (x : ℝ) (h : x = (n : ℝ) + 1) : x ≥ 1")
    assert edits and _roles(edits) <= {("coercion", "presentational"),
                                       ("annotation", "presentational")}


def test_numeral_spelling_needs_the_same_elaborated_type():
    # 2 and 2.0 are the same real number next to x : ℝ
    edits = _edits("(x : ℝ) : x + 2 = 5", "(x : ℝ) : x + 2.0 = 5")
    assert _roles(edits) == {("numeral-spelling", "presentational")}
    # next to n : ℕ, 2.0 has no OfScientific ℕ instance: Lean rejects it, the tree cannot say
    edits = _edits("(n : ℕ) : n + 2 = 5", "(n : ℕ) : n + 2.0 = 5")
    assert _roles(edits) == {("numeral-spelling", "untrusted")}
    # another value is another statement
    assert _roles(_edits("(n : ℕ) : n + 2 = 5", "(n : ℕ) : n + 3 = 5")) == {("numeral", "meaning")}


def test_universes_binder_info_and_inferred_binder_types_are_presentational():
    # Type* and Type u (u used once) are one fresh universe variable each
    assert _edits("{G : Type*} [Group G] (x : G) : x * 1 = x",
                  "{G : Type u} [Group G] (x : G) : x * 1 = x") == []
    # ∃ c, … with c inferred ℝ from f c = …, f : ℝ → ℝ
    edits = _edits("(f : ℝ → ℝ) : ∃ c, ∀ x, f x = c", "(f : ℝ → ℝ) : ∃ c : ℝ, ∀ x : ℝ, f x = c")
    assert edits and _roles(edits) == {("annotation", "presentational")}


def test_opaque_names_are_untrusted_and_taint_their_part_only():
    # Fintype/Finite: interchangeable in a proposition (the index's curated pair)
    edits = _edits("{G : Type*} [Group G] [Fintype G] (h : Nat.card G = 2) : ∀ x : G, x * x = 1",
                   "{G : Type*} [Group G] [Finite G] (h : Nat.card G = 2) : ∀ x : G, x * x = 1")
    assert _roles(edits) == {("constant", "presentational")}
    # a relation change beside an opaque name in the same part: the name may be defined as the
    # other side's formula, so the part is untrusted (cluster) …
    edits = _edits("(s : Set ℕ) (h : s.Nonempty) : 3 ∈ s", "(s : Set ℕ) (h : s ≠ ∅) : 3 ∈ s")
    assert {e.role for e in edits} == {"untrusted"}
    # … while a meaning edit in another part still decides
    edits = _edits("(s : Set ℕ) (h : s.Nonempty) : 3 ∈ s", "(s : Set ℕ) (h : s ≠ ∅) : 3 ∉ s")
    assert _counting(edits) and all(e.where == "conclusion" for e in _counting(edits))



def test_an_opaque_name_dropped_with_its_disjunct_leaves_the_meaning_edit_deciding():
    # every edit deletes from the reference: the candidate holds nothing `Antitone` could be
    # defined as, so the dropped disjunct counts (rule 6; corpus opaque-drop/01)
    edits = _edits("(f : ℝ → ℝ) (hf : StrictAnti f) : Monotone f ∨ Antitone f",
                   "(f : ℝ → ℝ) (hf : StrictAnti f) : Monotone f")
    assert "logic" in {e.kind for e in _counting(edits)}
    assert {e.op for e in edits} == {"delete"}
    # the same disjunct with its unfolding on the other side: a counterpart, so untrusted
    edits = _edits("(f : ℝ → ℝ) : Monotone f ∨ Antitone f",
                   "(f : ℝ → ℝ) : Monotone f ∨ ∀ a b, a ≤ b → f b ≤ f a")
    assert not _counting(edits) and "untrusted" in {e.role for e in edits}


def test_an_opaque_edit_taints_only_its_own_slot():
    # `closure A` inside the bound variable's type cannot turn ∃ into ∃! (corpus
    # opaque-zone/01): the quantifier edit outside its slot decides
    edits = _edits("(A : Set ℝ) : ∃ g : closure A → ℝ, Continuous g",
                   "(A : Set ℝ) : ∃! g : ℝ → ℝ, Continuous g")
    assert "quantifier" in {e.kind for e in _counting(edits)}
    assert "untrusted" in {e.role for e in edits}
    # a connective written above the node aligned with the opaque name is in its slot
    # (IsEmpty α ↔ ¬Nonempty α; corpus opaque-zone/02): nothing counts
    edits = _edits("(s : Set ℕ) (h : s = ∅) : 1 = 1 ∧ IsEmpty s",
                   "(s : Set ℕ) (h : s = ∅) : 1 = 1 ∧ ¬ Nonempty s")
    assert not _counting(edits)
    # … and so is a conjunct written above it (`orderOf x = 2` may be defined as the whole
    # `g ≠ 1 ∧ g ^ 2 = 1`, a true pair of the strict dev set)
    edits = _edits("{G : Type*} [Group G] : ∃ x : G, orderOf x = 2",
                   "{G : Type*} [Group G] : ∃ g : G, g ≠ 1 ∧ g ^ 2 = 1")
    assert not _counting(edits)

def test_sort_coercion_on_a_name_is_presentational():
    edits = _edits("{K : Type*} [Field K] (F : Subfield K) (a : K) : IsAlgebraic F a",
                   "{K : Type*} [Field K] (F : Subfield K) (a : K) : IsAlgebraic (↥F) a")
    assert _roles(edits) == {("sort-coercion", "presentational")}


def test_an_implied_hypothesis_is_discharged_a_free_one_is_not():
    ref = "(x y : ℝ) (h₀ : x * y = 6) (h₁ : 0 < x) : Real.log (x * y) = Real.log 6"
    added = "(x y : ℝ) (h₀ : x * y = 6) (h₁ : 0 < x) (h₂ : 0 < y) : Real.log (x * y) = Real.log 6"
    edits = _edits(ref, added)
    assert [(e.where, e.kind) for e in edits] == [("hypothesis 3 (candidate)", "hypothesis")]
    assert not _counting(edits) and "implied by the reference's hypotheses 1, 2" in \
        str(edits[0].discharged_by)
    assert _counting(_edits(ref, added, entail=False))  # without entailment it counts
    # 1 < y is not implied: x = 6, y = 1
    edits = _edits(ref, added.replace("0 < y", "1 < y"))
    assert len(_counting(edits)) == 1
    # dropped: x ≠ 0 follows from x * y = 6
    edits = _edits("(x y : ℝ) (h₀ : x * y = 6) (h₁ : x ≠ 0) : Real.exp x * y ≠ 0",
                   "(x y : ℝ) (h₀ : x * y = 6) : Real.exp x * y ≠ 0")
    assert edits and not _counting(edits)
    assert "implied by the candidate's hypotheses 1" in str(edits[0].discharged_by)


def test_a_changed_hypothesis_needs_both_directions():
    # 2x + 1 = 7 ↔ x = 3
    edits = _edits("(x : ℝ) (h : 2 * x + 1 = 7) : Real.exp x > 1", "(x : ℝ) (h : x = 3) : Real.exp x > 1")
    assert edits and not _counting(edits)
    # x = 3 → 0 < x, but not back: one direction is not enough
    edits = _edits("(x : ℝ) (h : x = 3) : Real.exp x > 1", "(x : ℝ) (h : 0 < x) : Real.exp x > 1")
    assert _counting(edits)


def test_vacuous_hypotheses_discharge_nothing():
    # h₁ and h₂ cannot both hold: the added hypothesis is "implied" only vacuously
    edits = _edits("(x : ℝ) (h₁ : x < 0) (h₂ : 0 < x) : Real.exp x = 1",
                   "(x : ℝ) (h₁ : x < 0) (h₂ : 0 < x) (h₃ : x = 5) : Real.exp x = 1")
    assert _counting(edits)


def test_a_conclusion_differing_by_a_term_the_hypotheses_fix_is_discharged():
    edits = _edits("(x : ℝ) (h : x = 2) : Real.exp x > 7", "(x : ℝ) (h : x = 2) : Real.exp 2 > 7")
    assert edits and not _counting(edits)
    # but two different relations under hypotheses are never "decided" by them: under 1 < x both
    # √x < x and √x ≤ x hold, which only says both are true theorems (the vacuity rule)
    edits = _edits("(x : ℝ) (h : 1 < x) : Real.sqrt x < x", "(x : ℝ) (h : 1 < x) : Real.sqrt x ≤ x")
    assert [(e.kind, e.role) for e in _counting(edits)] == [("relation", "meaning")]


def test_no_discharge_when_the_binders_differ():
    # y only in the candidate: the two sides do not talk about the same variables
    edits = _edits("(x : ℝ) (h : 0 < x) : Real.exp x > 1",
                   "(x y : ℝ) (h : 0 < x) (h' : x < y) : Real.exp x > 1")
    assert any(e.kind == "binder" and e.counts for e in edits)


def test_every_kind_has_a_role_and_a_why():
    table = load_kind_table()
    assert set(table.roles) == set(table.why)
    kinds = {label_kind(label)[0] for label in ("<SLOT> = <SLOT>", "#1", "#f <SLOT>", "Type*",
                                                "X", "Real.sqrt <SLOT>", "∑ <SLOT>, <SLOT>",
                                                "↑<SLOT>", "↥<SLOT>", "(<SLOT> : <SLOT>)",
                                                "‖<SLOT>‖", "2.5", "ℝ")}
    kinds |= {rename_kind("2", "2.0"), rename_kind("Normal <SLOT>", "Subgroup.Normal <SLOT>"),
              rename_kind("{<SLOT> : <SLOT>}", "<SLOT> : <SLOT>"),
              rename_kind("∑ <SLOT>, <SLOT>", "∑ <SLOT> ∈ <SLOT>, <SLOT>")}
    assert kinds <= set(table.roles)
    assert rename_kind("X", "Y") == "constant"  # free names are constants (Polynomial.X)
    assert rename_kind("∑ <SLOT>, <SLOT>", "∏ <SLOT>, <SLOT>") == "big-operator"
    # a presentational kind never absorbs a change against another kind or spelling
    roles = table.roles
    assert roles[rename_kind("<SLOT> < <SLOT>", "Type*")] == "meaning"
    assert roles[rename_kind("Type*", "Sort*")] == "untrusted"  # Sort* includes Prop
    assert roles[rename_kind("↥<SLOT>", "⇑<SLOT>")] == "untrusted"
    assert roles[rename_kind("↑<SLOT>", "-<SLOT>")] == "meaning"
    assert rename_kind("↑<SLOT>", "(<SLOT> : <SLOT>)") == "coercion"  # typed


def test_a_name_written_alike_under_two_headers_must_resolve_alike():
    # `sqrt` is Real.sqrt under `open Real`, Nat.sqrt under `open Nat` (Nat.sqrt 2 = 1)
    text = "theorem t (x : ℝ) (h : x = sqrt 2) : x > 1 := sorry"
    real, nat = "import Mathlib\nopen Real", "import Mathlib\nopen Nat"
    trees = {h: parse_statement_normalized(text, header=h).tree for h in (real, nat)}
    assert trees[real] != trees[nat]  # the elaboration resolves each under its header
    edits = residual_edits(trees[real], trees[nat], reference_header=real, candidate_header=nat)
    assert [(e.kind, e.role, e.reference, e.candidate) for e in edits] == [
        ("constant", "untrusted", "Real.sqrt ·", "Nat.sqrt ·")]
    # an extra `open` that changes no name of the statement leaves no edit
    assert residual_edits(trees[real], trees[real], reference_header=real,
                          candidate_header=real + "\nopen Topology") == []


def test_a_conclusion_term_is_substituted_only_where_its_operations_keep_their_type():
    # issue 31 (discharge-type/01): y = m, but `y - 5` is real subtraction and `m - 5` truncated
    # ℕ subtraction (0 at m = 3): the second conclusion is false, nothing is discharged
    hyps = "(m : ℕ) (y : ℝ) (h : y = m) (hm : m = 3) (he : 1 < Real.exp y)"
    edits = _edits(f"{hyps} : y - 5 < 0", f"{hyps} : m - 5 < 0")
    assert _counting(edits)
    # `Real.exp m` casts m to ℝ like y: the same value at the same type, discharged
    edits = _edits(f"{hyps} : Real.exp y > 1", f"{hyps} : Real.exp m > 1")
    assert edits and not _counting(edits)


def test_a_subterm_is_never_compared_outside_its_ascription():
    # issue 31 (ascription-scope/01): ((n / 3 : ℕ) : ℝ) = 2 holds at n = 7, (n / 3 : ℝ) = 2 not
    hyps = "(n : ℕ) (h : n = 7) (he : 0 < Real.sin n)"
    edits = _edits(f"{hyps} : ((n / 3 : ℕ) : ℝ) = 2", f"{hyps} : (n / 3 : ℝ) = 2")
    assert _counting(edits)


def test_binders_are_matched_by_type_and_use_before_names():
    # issue 31 (binder-match/01): the names A, B change roles; the renaming B ↦ A, C ↦ B is
    # found by the binders' types and uses, so no bound-variable edit is left
    edits = _edits("{A : Type*} [CommRing A] {B : Subring A} (h : (2 : A) ∈ B) : (4 : A) ∈ B",
                   "{B : Type*} [CommRing B] {C : Subring B} (h : (2 : B) ∈ C) : (4 : B) ∈ C")
    assert not [e for e in edits if e.kind == "bound-variable"]


def test_a_prop_class_the_other_side_gives_is_discharged():
    # Mathlib: DivisionRing.isDomain (instance [DivisionRing K] : IsDomain K) and
    # `class Field extends CommRing, DivisionRing`, `class DivisionRing extends …, Nontrivial`
    for extra in ("[IsDomain F]", "[Nontrivial F]"):
        edits = _edits("{F : Type*} [Field F] (x : F) (hx : x ≠ 0) : x / x = 1",
                       f"{{F : Type*}} [Field F] {extra} (x : F) (hx : x ≠ 0) : x / x = 1")
        assert edits and not _counting(edits), extra
        assert "the other side's [Field] gives" in str(edits[0].discharged_by)
    # dropped from the reference: the candidate's [Field F] gives it just the same
    edits = _edits("{F : Type*} [Field F] [Nontrivial F] (x : F) : x * 1 = x",
                   "{F : Type*} [Field F] (x : F) : x * 1 = x")
    assert edits and not _counting(edits)


def test_a_class_binder_is_kept_when_it_is_data_elsewhere_or_not_given():
    cases = [
        # a second ring structure beside the field's: `*` is then the Ring's (not a Prop)
        ("{F : Type*} [Field F] (a b : F) : a * b = b * a",
         "{F : Type*} [Field F] [Ring F] (a b : F) : a * b = b * a"),
        # a Prop no field gives: ZMod 2 has characteristic 2
        ("{F : Type*} [Field F] (n : ℕ) (h : (n : F) = 0) : n = 0",
         "{F : Type*} [Field F] [CharZero F] (n : ℕ) (h : (n : F) = 0) : n = 0"),
        # given at F, asked at K
        ("{F K : Type*} [Field F] : ∃ x y : K, x ≠ y",
         "{F K : Type*} [Field F] [Nontrivial K] : ∃ x y : K, x ≠ y"),
        # only a child gives it: a CommRing is not a domain (ZMod 6)
        ("{F : Type*} [CommRing F] (a b : F) (h : a * b = 0) : a = 0 ∨ b = 0",
         "{F : Type*} [CommRing F] [IsDomain F] (a b : F) (h : a * b = 0) : a = 0 ∨ b = 0"),
    ]
    for ref, cand in cases:
        assert _counting(_edits(ref, cand)), cand


def test_subset_and_order_are_one_relation_on_sets_and_finsets_only():
    # Mathlib/Data/Set/Defs.lean:49 and Mathlib/Data/Finset/Defs.lean tag Set and Finset
    # @[use_set_notation_for_order]: `s ⊆ t` is elaborated as `s ≤ t`, `s ⊂ t` as `s < t`
    assert _roles(_edits("{X : Type*} (s t : Set X) : s ⊆ t",
                         "{X : Type*} (s t : Set X) : s ≤ t")) == {("relation", "presentational")}
    assert _roles(_edits("{X : Type*} (s t : Finset X) (h : s < t) : s.card < t.card",
                         "{X : Type*} (s t : Finset X) (h : s ⊂ t) : s.card < t.card")) == \
        {("relation", "presentational")}
    # Multiset's ≤ counts multiplicities, List's is lexicographic: other relations
    for ty in ("Multiset ℕ", "List ℕ"):
        assert _roles(_edits(f"(s t : {ty}) : s ⊆ t", f"(s t : {ty}) : s ≤ t")) == \
            {("relation", "meaning")}, ty
    # ⊆ is ≤, not <, even on sets
    assert _roles(_edits("{X : Type*} (s t : Set X) : s ⊆ t",
                         "{X : Type*} (s t : Set X) : s < t")) == {("relation", "meaning")}
    # operands whose type is not inferred: abstain
    assert _roles(_edits(": ∀ s t, s ⊆ t", ": ∀ s t, s ≤ t")) == {("relation", "untrusted")}


def test_a_fact_hypothesis_is_the_proposition_it_wraps():
    # fact_iff : Fact p ↔ p (Mathlib/Logic/Basic.lean:175); corpus fact/01–04
    edits = _edits("(p : ℕ) [Fact p.Prime] (a : ZMod p) (ha : a ≠ 0) : a ^ (p - 1) = 1",
                   "(p : ℕ) (hp : p.Prime) (a : ZMod p) (ha : a ≠ 0) : a ^ (p - 1) = 1")
    assert edits and {e.role for e in edits} == {"presentational"}
    # only as the whole hypothesis: inside a formula it is a constant like any other
    edits = _edits("(p : ℕ) (h : Fact p.Prime ∨ p = 1) : p ≠ 0",
                   "(p : ℕ) (h : p.Prime ∨ p = 1) : p ≠ 0")
    assert "presentational" not in {e.role for e in edits if e.kind == "constant"}


def test_a_fun_wrapped_around_the_other_sides_term_is_meaning_an_eta_expansion_is_not():
    ref = "(a : ℕ → ℝ) : ∃ y, Tendsto (fun n => ∑ i ∈ range n, |∑ j ∈ range (i + 1), a j|) atTop (𝓝 y)"
    wrapped = ref.replace("|∑ j", "|fun i => ∑ j")
    edits = _edits(ref, wrapped, header=HEADER + "\nopen Filter Topology Finset")
    assert ("other", "meaning") in _roles(edits)
    eta = _edits("(f : ℝ → ℝ) : Tendsto f atTop atTop",
                 "(f : ℝ → ℝ) : Tendsto (fun x : ℝ => f x) atTop atTop",
                 header=HEADER + "\nopen Filter")
    assert ("other", "meaning") not in _roles(eta)
    pointwise = _edits("(f : ℕ → ℝ) : Summable (fun n => |f n|)",
                       "(f : ℕ → ℝ) : Summable |fun n => f n|")
    assert not any(e.role == "meaning" for e in pointwise)


def test_a_variable_renamed_into_a_closed_constant_is_meaning_unless_a_hypothesis_writes_it():
    edits = _edits("(x : ℝ) (h : 0 < x) : Real.log x < x", "(x : ℝ) (h : 0 < x) : Real.log x < Real.pi")
    assert ("bound-variable", "meaning") in _roles(edits) and _counting(edits)
    fixed = _edits("(x : ℝ) (hx : x = Real.pi) : Real.sin x = 0",
                   "(x : ℝ) (hx : x = Real.pi) : Real.sin Real.pi = 0")
    assert fixed and not _counting(fixed)
    assert all("rw [h1]" in (e.discharged_by or "") for e in fixed if e.role == "meaning")
    # the hypothesis holds in ℕ, the candidate's term is used in ℤ: not rewritten across
    across = _edits("(x : ℕ) (y : ℤ) (hx : x = 5 - 7) (hy : y = 0) : x + y < 0",
                    "(x : ℕ) (y : ℤ) (hx : x = 5 - 7) (hy : y = 0) : 5 - 7 + y < 0")
    assert _counting(across)
