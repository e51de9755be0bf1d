"""Typing from the Mathlib index (issue 32 item 2): constants typed from their declarations,
instances on abstract types through the class hierarchy, ``Membership``'s outParam.

Every expected type is read off the cited Mathlib declaration (the pinned snapshot,
Mathlib 81a5d257) or the Lean core rule named, not from running the code. The bundled index
file must be present (tests/test_mathlib_index.py checks it)."""

from __future__ import annotations

import pytest
from elaboration_helpers import find, ty

from transted.pipeline.opt.elaborate import elaborate_statement
from transted.pipeline.opt.elaborate.classes import IndexClasses
from transted.pipeline.opt.elaborate.tables import BUNDLED, Tables, bundled_tables, tables_version
from transted.pipeline.opt.elaborate.types import MetaStore, Ty
from transted.pipeline.opt.mathlib import load_index
from transted.pipeline.opt.node import SLOT


def E(text: str, header: str | None = None, tables: Tables = BUNDLED):
    if not text.startswith(("theorem", "example", "def")):
        text = f"theorem t {text} := sorry"
    return elaborate_statement(text, header=header, tables=tables)


def kinds(e) -> list[str]:
    return [i.kind for i in e.issues]


G = Ty("G")


def classes() -> IndexClasses:
    found = bundled_tables().classes
    assert isinstance(found, IndexClasses)
    return found


# -- constants typed from their declarations ------------------------------------------------
def test_an_indexed_constant_is_typed_through_its_binders():
    # Mathlib/Algebra/Group/Subgroup/Lattice.lean: def closure {G} [Group G] (k : Set G) : Subgroup G
    e = E("{G : Type*} [Group G] (s : Set G) (H : Subgroup G) : Subgroup.closure s = H")
    assert e.ok, e.issues
    assert ty(e, f"Subgroup.closure {SLOT}") == "Subgroup G"
    assert e.at(find(e, f"Subgroup.closure {SLOT}")).constant == "Subgroup.closure"


def test_the_result_arrows_take_the_extra_arguments():
    # Mathlib/Data/Nat/Digits/Defs.lean: def digits : ℕ → ℕ → List ℕ (no binders)
    e = E("(n : ℕ) (l : List ℕ) : Nat.digits 10 n = l")
    assert e.ok, e.issues
    assert ty(e, f"Nat.digits {SLOT} {SLOT}") == "List ℕ"


def test_an_explicit_type_parameter_is_read_as_a_type():
    # Mathlib/Data/Fintype/Card.lean: def card (α) [Fintype α] : ℕ — α written without a type,
    # a sort because Fintype takes one; the local instance discharges [Fintype α]
    e = E("{α : Type*} [Fintype α] : Fintype.card α = 3")
    assert e.ok, e.issues
    assert ty(e, f"Fintype.card {SLOT}") == "ℕ"
    e = E("{α : Type*} : Fintype.card α = 3")
    assert kinds(e) == ["undecided-instance"]  # no local Fintype α: undecided, never missing


def test_a_prop_valued_structure_is_a_proposition():
    # Mathlib/Topology/Defs/Basic.lean: structure Continuous … (f : X → Y) : Prop
    e = E("{X Y : Type*} [TopologicalSpace X] [TopologicalSpace Y] (f : X → Y) "
          "(hf : Continuous f) : True")
    assert e.ok, e.issues
    assert ty(e, f"Continuous {SLOT}") == "Prop"


def test_a_definition_without_a_type_is_a_proposition_when_its_value_is_one():
    # Mathlib/Order/Filter/Defs.lean: def Tendsto (f) (l₁) (l₂) := l₁.map f ≤ l₂ (≤ is Prop)
    e = E("{α β : Type*} (f : α → β) (l : Filter α) (m : Filter β) : Filter.Tendsto f l m")
    assert e.ok, e.issues
    # Mathlib/Data/Nat/Prime/Defs.lean: def Nat.Prime (p : ℕ) := Irreducible p, a Prop
    # structure; the hand table types Nat.Prime first, the index gives the same
    sig = bundled_tables().signatures.index_types.signature("Nat.Prime")  # type: ignore[attr-defined]
    assert sig.instantiate(MetaStore().fresh).result == Ty("Prop")


def test_a_structure_applied_to_types_is_a_type():
    # Mathlib/Algebra/Group/Subgroup/Defs.lean: structure Subgroup (G : Type*) [Group G]
    e = E("{G : Type*} [Group G] (H : Subgroup G) : Subgroup.index H = 2")
    assert e.ok, e.issues
    assert ty(e, "H", 1) == "Subgroup G"


def test_an_unrepresentable_signature_stays_unsupported():
    # Mathlib/Analysis/Calculus/Deriv/Basic.lean: def deriv (f : 𝕜 → F) (x : 𝕜) := … (no type)
    e = E("(f : ℝ → ℝ) (x : ℝ) : deriv f x = 0")
    issue = next(i for i in e.issues if i.name == "deriv")
    assert issue.kind == "unsupported" and "no declared type" in issue.message
    # Mathlib/RingTheory/Ideal/Quotient/Defs.lean: Ideal.Quotient.mk … : R →+* R ⧸ I (→+* is
    # read as RingHom; the quotient type `R ⧸ I` is not)
    e = E("{R : Type*} [CommRing R] (I : Ideal R) (x : R) : Ideal.Quotient.mk I x = 0")
    assert any(i.kind == "unsupported" and "⧸" in i.message for i in e.issues)
    # a bundled morphism applied to an element (a CoeFun coercion) is not typed
    e = E("{G : Type*} [Group G] {H : Type*} [Group H] (φ : G →* H) (x : G) : φ x = 1")
    assert any(i.kind == "unsupported" and "MonoidHom" in i.message for i in e.issues)


def test_an_instance_on_a_value_is_undecided():
    # Mathlib/Data/Finset/Filter.lean: Finset.filter (p : α → Prop) [DecidablePred p] (s : Finset α)
    e = E("(s : Finset ℕ) : (Finset.filter (fun n => n < 3) s).card = 2")
    assert any(i.kind == "undecided-instance" and "DecidablePred" in i.message for i in e.issues)


def test_the_hand_table_comes_first():
    # Finset.Icc's [LocallyFiniteOrder α] is hand-cited: still missing at ℝ
    e = E("(x : ℝ) : ∑ k in Finset.Icc (1 : ℝ) 3, k = x")
    assert "missing-instance" in kinds(e)


def test_a_definition_statement_need_not_be_a_proposition():
    # `def … : CommRing R` (ProofNet exercise_7_1_15) is a type; a theorem of it is not
    e = E("def d {R : Type*} [Ring R] (h : ∀ a : R, a ^ 2 = a) : CommRing R := sorry")
    assert "type-mismatch" not in kinds(e)
    e = E("theorem t {R : Type*} [Ring R] (h : ∀ a : R, a ^ 2 = a) : CommRing R := sorry")
    assert "type-mismatch" in kinds(e)  # "type of theorem is not a proposition"


def test_tables_version_names_the_index():
    assert tables_version().endswith("+" + str(load_index().version))


# -- the class hierarchy --------------------------------------------------------------------
def test_a_local_instance_gives_its_parents():
    # Field extends CommRing and DivisionRing (Mathlib/Algebra/Field/Defs.lean): Mul, Inv
    e = E("{F : Type*} [Field F] (a : F) (ha : a ≠ 0) : a * a⁻¹ = 1")
    assert e.ok, e.issues
    # NormedField extends Norm, Field, MetricSpace (Mathlib/Analysis/Normed/Field/Basic.lean),
    # a class the curated parents never listed; LinearOrder extends Min/Max and
    # LinearOrder.toLattice is an instance [LinearOrder α] : Lattice α
    e = E("{K : Type*} [NormedField K] (a b : K) : a * b⁻¹ = a - b")
    assert e.ok, e.issues
    assert classes().provides(("LinearOrder", (G,)), ("Max", (G,)))
    # a parent assumed next to its child changes nothing (index-hierarchy/01)
    assert E("{F : Type*} [Field F] [Nontrivial F] (a : F) : a * a⁻¹ = 1").ok


def test_a_parent_never_gives_its_child():
    # a Ring is no CommRing: the hierarchy only goes up
    assert classes().provides(("Field", (G,)), ("CommRing", (G,)))
    assert not classes().provides(("Ring", (G,)), ("CommRing", (G,)))
    assert not classes().provides(("Monoid", (G,)), ("Group", (G,)))
    # an instance the local ones do not give is undecided, never missing
    e = E("{R : Type*} [Ring R] (a b : R) : IsPrimitiveRoot a 3")
    assert "undecided-instance" in kinds(e) and "missing-instance" not in kinds(e)


def test_the_hierarchy_tracks_the_arguments():
    # Mathlib/Analysis/RCLike/Basic.lean: class RCLike (K) extends …, NormedAlgebra ℝ K, …
    k = Ty("K")
    assert classes().provides(("RCLike", (k,)), ("NormedAlgebra", (Ty("ℝ"), k)))
    assert not classes().provides(("RCLike", (k,)), ("NormedAlgebra", (k, k)))


def test_an_instance_edge_with_variable_binders_is_not_followed():
    # Valued.completable ([Field K] : CompletableTopField K) takes its binders from `variable`
    # commands and needs a [Valued K Γ₀] its record lacks: since generator 2 the index keeps
    # that binder in `unread_instances` and makes no edge; the typing never followed it
    index = load_index()
    completable = index.declaration("Valued.completable")
    assert completable is not None and "[hv : Valued K Γ₀]" in completable.unread_instances
    assert "CompletableTopField" not in {e.parent for e in index.parents("Field")}
    assert not classes().provides(("Field", (G,)), ("CompletableTopField", (G,)))
    # LinearOrder.toLattice is written with its binders: followed
    assert classes().provides(("LinearOrder", (G,)), ("Lattice", (G,)))


def test_without_the_index_the_curated_parents_are_used():
    plain = Tables(BUNDLED.names, BUNDLED.signatures, BUNDLED.instances, "test", None)
    assert E("{F : Type*} [Field F] (a : F) : a * a⁻¹ = 1", tables=plain).ok


# -- Membership's outParam ------------------------------------------------------------------
def test_membership_in_a_setlike_structure_types_the_element():
    # Mathlib/Algebra/Ring/Subring/Defs.lean:181 instance : SetLike (Subring R) R
    e = E("{R : Type*} [Ring R] (S : Subring R) (x : R) (hx : x ∈ S) : -x ∈ S")
    assert e.ok, e.issues
    # C : Subring B with B : Subring A: the elements are ↥B, and the numeral is one of them
    e = E("{A : Type*} [Ring A] (B : Subring A) (C : Subring B) : 2 ∈ C")
    assert ty(e, "2") == "↥B"


def test_membership_through_a_reducible_abbreviation():
    # Mathlib/RingTheory/Ideal/Defs.lean: abbrev Ideal (R) [Semiring R] := Submodule R R,
    # Submodule.setLike : SetLike (Submodule R M) M
    e = E("{R : Type*} [CommRing R] (I : Ideal R) : (3 : R) ∈ I")
    assert e.ok, e.issues


def test_an_unknown_collection_leaves_the_element_uninferred():
    # the numeral's type is Membership's outParam: never defaulted to ℕ
    e = E("{X : Type*} (c : X) : 2 ∈ c")
    assert ty(e, "2").startswith("?")
    assert "uninferred" in kinds(e) and "undecided-instance" in kinds(e)


# -- auto-bound type variables --------------------------------------------------------------
@pytest.mark.parametrize("text", [
    "[TopologicalSpace X] (s : Set X) : closure (closure s) = closure s",
    "[Group G] (a : G) : a * a⁻¹ = 1",
])
def test_an_unbound_class_argument_is_an_auto_bound_type(text):
    # Lean core src/Lean/Elab/AutoBound.lean: `X : Sort u_1`, unified with the class's Type u
    e = E(text)
    assert kinds(e) == ["auto-bound"]
    name = e.auto_bound[0]
    assert e.auto_bound_sorts == {name: "Type"}


def test_auto_binding_needs_autoImplicit():
    e = E("[Group G] (a : G) : a * a⁻¹ = 1", header="set_option autoImplicit false")
    assert "auto-bound" not in kinds(e)
