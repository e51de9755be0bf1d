"""Set-builder notation and the ``SetLike`` coercion to ``Set`` in the elaborator.

Expected types are read off the cited definitions (pinned Mathlib 81a5d257), not from running
the code: ``{x | p x}`` is ``setOf fun x ↦ p x : Set α`` (Mathlib/Data/Set/Defs.lean,
``elabSetBuilder``), with ``Finset`` elaborators for a ``Finset`` expected type and for
``{x ∈ s | p}`` over a ``Finset`` (Data/Fintype/Defs.lean, Data/Finset/Filter.lean);
``SetLike A B`` gives ``CoeTC A (Set B)`` (Mathlib/Data/SetLike/Basic.lean) and
``SetLike (Subgroup G) G`` (Algebra/Group/Subgroup/Defs.lean)."""

from __future__ import annotations

from elaboration_helpers import find, ty

from transted.pipeline.opt.elaborate import elaborate_statement
from transted.pipeline.opt.elaborate.classes import IndexClasses
from transted.pipeline.opt.elaborate.set_coercions import SetCoercions
from transted.pipeline.opt.elaborate.tables import bundled_tables
from transted.pipeline.opt.elaborate.types import Ty
from transted.pipeline.opt.labels import SET_BUILDER
from transted.pipeline.opt.node import SLOT


def E(text: str):
    return elaborate_statement(f"theorem t {text} := sorry")


def kinds(e) -> list[str]:
    return [i.kind for i in e.issues]


def messages(e) -> str:
    return " | ".join(i.message for i in e.issues)


def classes() -> IndexClasses:
    found = bundled_tables().classes
    assert isinstance(found, IndexClasses)
    return found


G = Ty("G")
TOPOLOGY = "{X Y : Type*} [TopologicalSpace X] [TopologicalSpace Y] [LinearOrder Y] " \
           "[OrderTopology Y] {f g : X → Y} (hf : Continuous f) (hg : Continuous g)"


# -- set-builder ----------------------------------------------------------------------------
def test_an_untyped_binder_takes_its_type_from_the_body():
    # ProofNet Munkres 18.8a: x is X because f : X → Y is applied to it
    e = E(f"{TOPOLOGY} : IsClosed {{x | f x ≤ g x}}")
    assert e.ok, e.issues
    assert ty(e, SET_BUILDER) == "Set X"


def test_a_written_binder_type_is_the_set_s_element_type():
    e = E(f"{TOPOLOGY} : IsClosed {{x : X | f x ≤ g x}}")
    assert e.ok, e.issues
    assert ty(e, SET_BUILDER) == "Set X"


def test_the_binder_type_fixes_the_arithmetic_of_the_body():
    # 0 - 1 = 0 in ℕ, -1 in ℤ: the two sets differ, and so must their types
    nat, int_ = E(": 0 ∈ {x : ℕ | x - 1 = 0}"), E(": 0 ∈ {x : ℤ | x - 1 = 0}")
    assert nat.ok and int_.ok, (nat.issues, int_.issues)
    assert ty(nat, SET_BUILDER) == "Set ℕ" and ty(int_, SET_BUILDER) == "Set ℤ"
    assert ty(nat, f"{SLOT} - {SLOT}") == "ℕ" and ty(int_, f"{SLOT} - {SLOT}") == "ℤ"


def test_membership_s_out_param_types_an_untyped_binder():
    # y ∈ s is Membership.mem s y with Set α's element an outParam: y : ℤ makes x : ℤ
    e = E(": ∀ y : ℤ, y ∈ {x | x - 1 = 0} ↔ y ≤ 1")
    assert e.ok, e.issues
    assert ty(e, SET_BUILDER) == "Set ℤ"
    assert ty(e, f"{SLOT} - {SLOT}") == "ℤ"


def test_an_ascription_in_the_body_types_the_binder():
    e = E(": {x | (x : ℝ) ^ 2 = 2}.Nonempty")
    assert e.ok, e.issues
    assert ty(e, SET_BUILDER) == "Set ℝ"


def test_a_binder_nothing_types_is_uninferred():
    e = E(": {x | x = x}.Nonempty")
    assert "uninferred" in kinds(e)


def test_a_finset_expected_type_is_not_typed_as_a_set():
    # elabFinsetBuilderSetOf: Finset.filter (fun x ↦ p) Finset.univ against Finset ℕ
    e = E(": ({x | x < 3} : Finset ℕ).card = 3")
    assert "unsupported" in kinds(e) and "Finset.filter" in messages(e)
    assert ty(e, SET_BUILDER) != "Set ℕ"


def test_membership_builder_over_a_finset_abstains_and_over_a_set_is_a_set():
    # the parser writes {x ∈ s | p} as {x | x ∈ s ∧ p}; over a Finset Lean's elabFinsetBuilderSep
    # makes it a Finset.filter, over a Set it is setOf
    over_finset = E("(s : Finset ℕ) : {x ∈ s | 0 < x} = {x ∈ s | 0 < x}")
    assert "unsupported" in kinds(over_finset) and "Finset.filter" in messages(over_finset)
    over_set = E("(s : Set ℝ) (t : Set ℝ) : {x ∈ s | 0 < x} = t")
    assert over_set.ok, over_set.issues
    assert ty(over_set, SET_BUILDER) == "Set ℝ"


def test_a_pattern_binder_is_not_modelled():
    e = E(": {(m, n) : ℕ × ℕ | m = n}.Nonempty")
    assert "unsupported" in kinds(e)


def test_a_written_binder_against_another_expected_set_abstains():
    e = E(": ({x : ℕ | x < 3} : Set ℤ) = ({x : ℕ | x < 3} : Set ℤ)")
    assert "unsupported" in kinds(e)


# -- SetLike coercions ----------------------------------------------------------------------
GROUP = "{G : Type*} [Group G] (C : Set G)"


def test_a_setlike_structure_ascribed_to_its_set_is_coerced():
    e = E(f"{GROUP} : ∃ H : Subgroup G, (H : Set G) = C")
    assert e.ok, e.issues
    inner = (*find(e, f"({SLOT} : {SLOT})"), 0)
    assert e.type_at(inner) == "Subgroup G"
    assert e.at(inner).coerced_to == Ty("Set", (G,))


def test_binrel_coerces_the_structure_to_the_set_in_either_order():
    # Lean.Elab.Extra analyze: no coercion Set G → Subgroup G, one Subgroup G → Set G
    for text in ("C' = C", "C = C'"):
        e = E(f"{GROUP} : ∃ C' : Subgroup G, {text}")
        assert e.ok, (text, e.issues)
        eq = find(e, f"{SLOT} = {SLOT}")
        structure, other = (0, 1) if text.startswith("C'") else (1, 0)
        assert e.type_at((*eq, structure)) == "Subgroup G"
        assert e.at((*eq, structure)).coerced_to == Ty("Set", (G,)), text
        assert e.at((*eq, other)).coerced_to is None


def test_the_set_s_element_is_the_setlike_out_param_not_the_first_argument():
    # Submodule.setLike : SetLike (Submodule R M) M — no coercion to Set R is known
    e = E("{R M : Type*} [Ring R] [AddCommGroup M] [Module R M] (N : Submodule R M) : "
          "(N : Set R).Nonempty")
    assert "undecided-instance" in kinds(e)
    ok = E("{R M : Type*} [Ring R] [AddCommGroup M] [Module R M] (N : Submodule R M) : "
           "(N : Set M).Nonempty")
    assert ok.ok, ok.issues


def test_a_reducible_abbreviation_reaches_its_setlike_instance():
    # abbrev Ideal (R) [Semiring R] := Submodule R R
    e = E("{R : Type*} [CommRing R] (I : Ideal R) : (I : Set R).Nonempty")
    assert e.ok, e.issues


def test_set_of_reads_the_index_and_abstains_where_it_has_nothing():
    sc = classes().set_coercions
    assert sc.set_of(Ty("Subgroup", (G,))) == G
    assert sc.set_of(Ty("IntermediateField", (Ty("K"), Ty("L")))) == Ty("L")
    assert sc.set_of(Ty("AddSubgroup", (G,))) is None  # a to_additive instance: not indexed
    assert sc.set_of(Ty("ℕ")) is None


def test_no_coercion_from_a_set_into_a_subgroup_and_an_unread_instance_blocks_the_claim():
    assert classes().set_coercions.excluded_from_set(Ty("Subgroup", (G,)))
    unread = SetCoercions(lambda cls: ("Some.unreadCoe",) if cls == "Coe" else (),
                          lambda name: None, classes().types)
    assert not unread.excluded_from_set(Ty("Subgroup", (G,)))
