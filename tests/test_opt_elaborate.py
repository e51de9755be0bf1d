"""The offline elaborator types each node as Lean does (docs/ELABORATION.md).

Every expected type below is derived from the Lean source cited in docs/ELABORATION.md
(``Lean.Elab.Extra`` for ``binop%``/``binrel%``, ``App.lean`` for expected-type propagation,
``BuiltinNotation.lean`` for ascriptions, Mathlib for the signatures and instances), not from
running the code.
"""

from __future__ import annotations

import pytest
from elaboration_helpers import find, ty

from transted.pipeline.opt import OptOptions, parse_statement
from transted.pipeline.opt.elaborate import Scope, elaborate, elaborate_statement, scope_from_header
from transted.pipeline.opt.elaborate.types import FLOAT, MetaStore, Ty, arrow, has_coe, show
from transted.pipeline.opt.node import SLOT, Node


def E(text: str, header: str | None = None):
    if not text.startswith(("theorem", "example")):
        text = f"theorem t {text} := sorry"
    return elaborate_statement(text, header=header)


def coe(e, label: str, nth: int = 0) -> str | None:
    return e.coercions().get(find(e, label, nth))


def kinds(e) -> list[str]:
    return [i.kind for i in e.issues]


DIV, SUB, SUM = f"{SLOT} / {SLOT}", f"{SLOT} - {SLOT}", f"∑ {SLOT} ∈ {SLOT}, {SLOT}"


# -- binop%: leaves at their own type, coerced to the maximal type --------------------------
def test_sum_next_to_a_real_is_computed_in_nat_then_cast():
    e = E("(x : ℝ) : x = ∑ k in Finset.range 4, k / 2")
    assert e.ok
    assert ty(e, SUM) == "ℕ" and coe(e, SUM) == "ℝ"
    assert ty(e, DIV) == "ℕ"
    assert e.render(find(e, f"{SLOT} = {SLOT}")) == "x = ↑(∑ k ∈ Finset.range 4, k / 2 : ℕ)"


def test_an_ascribed_sum_pushes_the_type_into_its_body():
    e = E("(x : ℝ) : x = (∑ k in Finset.range 4, k / 2 : ℝ)")
    assert e.ok
    assert ty(e, SUM) == "ℝ" and coe(e, SUM) is None
    assert ty(e, DIV) == "ℝ"
    assert coe(e, "k", 1) == "ℝ"  # the body's k (the binder is occurrence 0)


def test_product_and_integer_interval_bodies_keep_their_own_type():
    e = E("(x : ℝ) (h : x = ∑ k in Finset.Icc (-2 : ℤ) 2, k / 2) : x < 0")
    assert ty(e, DIV) == "ℤ" and coe(e, SUM) == "ℝ" and e.ok
    e = E("(x : ℝ) (h : x = ∏ k in Finset.Icc (1 : ℕ) 3, (k / 2 + 1)) : x ≤ 4")
    assert ty(e, f"∏ {SLOT} ∈ {SLOT}, {SLOT}") == "ℕ" and ty(e, DIV) == "ℕ" and e.ok


def test_a_numeral_bounded_interval_takes_its_index_type_from_unification():
    # The sum's type is unknown when the leaf is elaborated (ι and the body's type are
    # metavariables), so applyCoe unifies it with ℝ, and the homogeneous default instances
    # (instHDiv/instHAdd, priority above instOfNatNat's 100) carry ℝ to the index:
    # Finset.Icc at ℝ has no LocallyFiniteOrder instance.
    e = E("(x : ℝ) (h : x = ∏ k in Finset.Icc 1 3, (k / 2 + 1)) : x ≤ 4")
    assert kinds(e) == ["missing-instance"] and ty(e, "k") == "ℝ"
    e = E("theorem t : ∑ i in Finset.Icc 1 10, i = 55 := sorry")
    assert e.ok and ty(e, "i") == "ℕ"


def test_operators_inside_the_tree_take_the_maximal_type():
    e = E("(n : ℕ) (x : ℝ) : x = n / 2")
    assert ty(e, DIV) == "ℝ" and coe(e, "n", 1) == "ℝ" and e.ok
    e = E("(a b : ℕ) (h : a < b) : a - b < (0 : ℤ)")
    assert ty(e, SUB) == "ℤ" and coe(e, "a", 2) == "ℤ" and coe(e, "b", 2) == "ℤ"


def test_a_function_application_is_a_leaf():
    e = E("(n : ℕ) (x : ℝ) : x = Nat.factorial n / 2")
    assert ty(e, f"Nat.factorial {SLOT}") == "ℕ" and coe(e, f"Nat.factorial {SLOT}") == "ℝ"
    assert ty(e, DIV) == "ℝ"


def test_binop_uses_the_expected_type_binrel_does_not():
    e = E("(a b : ℕ) : (a - b : ℤ) = 0")
    assert ty(e, SUB) == "ℤ" and coe(e, "a", 1) == "ℤ"
    e = E("(a b : ℕ) : ((a - b : ℕ) : ℤ) = 0")
    assert ty(e, SUB) == "ℕ" and coe(e, f"({SLOT} : {SLOT})", 1) == "ℤ"


def test_inside_an_operator_tree_the_expected_type_does_not_reach_the_leaves():
    # processLeaf elaborates each leaf with no expected type; only the tree is coerced
    e = E("(a b c : ℕ) : (min (a - b) c + 1 : ℤ) = 1")
    assert e.ok and ty(e, SUB) == "ℕ" and coe(e, f"min {SLOT} {SLOT}") == "ℤ"
    e = E("(x : ℝ) : x = (∑ k in Finset.range 4, k / 2 + 1 : ℝ)")
    assert e.ok and ty(e, DIV) == "ℕ" and coe(e, SUM) == "ℝ"


def test_an_expected_type_smaller_than_a_leaf_is_a_mismatch():
    assert "type-mismatch" in kinds(E("(x : ℝ) : ((x + 1 : ℕ) : ℝ) = 0"))


def test_an_operator_without_instance_at_the_expected_type_is_elaborated_apart():
    e = E("(n : ℕ) : (n % 2 : ℝ) < 2")  # no `Mod ℝ`: `↑(n % 2)`, computed in ℕ
    assert e.ok and ty(e, f"{SLOT} % {SLOT}") == "ℕ" and coe(e, f"{SLOT} % {SLOT}") == "ℝ"


# -- expected type into function arguments (propagateExpectedType) ----------------------------
@pytest.mark.parametrize("fn", ["min", "max"])
def test_ascription_propagates_into_min_and_max(fn):
    e = E(f"(a b c : ℕ) : ({fn} (a - b) c : ℤ) = 0")
    assert e.ok and ty(e, SUB) == "ℤ" and coe(e, "c", 1) == "ℤ"
    e = E(f"(a b c : ℕ) : (({fn} (a - b) c : ℕ) : ℤ) = 0")
    assert e.ok and ty(e, SUB) == "ℕ" and coe(e, f"({SLOT} : {SLOT})", 1) == "ℤ"


def test_min_without_an_expected_type_is_a_leaf_at_its_own_type():
    e = E("(a b : ℕ) (x : ℝ) : x = min (a - b) 1")
    assert ty(e, SUB) == "ℕ" and coe(e, f"min {SLOT} {SLOT}") == "ℝ"


def test_ascription_propagates_into_abs_and_if_then_else():
    e = E("(a b : ℕ) : (|a - b| : ℤ) ≥ 0")
    assert e.ok and ty(e, SUB) == "ℤ"
    e = E("(a b : ℕ) (h : (if a ≤ b then a - b else 0 : ℤ) = 0) : b ≤ a")
    assert e.ok and ty(e, SUB) == "ℤ" and ty(e, "0") == "ℤ"


def test_abs_of_a_natural_has_no_instance():
    assert "missing-instance" in kinds(E("(n : ℕ) : |n - 4| ≥ 0"))


def test_real_sqrt_coerces_a_natural_argument():
    e = E("(n : ℕ) : Real.sqrt n ≥ 0")
    assert e.ok and coe(e, "n", 1) == "ℝ"
    e = E("(n : ℕ) (h : n = 0) : Real.sqrt (n - 1) = 0")  # the argument's tree is at ℝ
    assert e.ok and ty(e, SUB) == "ℝ"


# -- numerals, binders, unification ----------------------------------------------------------
def test_numerals_default_to_nat_and_scientific_literals_to_float():
    e = E("theorem t : 2 - 3 < 0 := sorry")
    assert ty(e, SUB) == "ℕ" and e.ok
    assert ty(E("theorem t : (2 : ℝ) - 3 < 0 := sorry"), SUB) == "ℝ"
    assert ty(E("theorem t : 7 / 2.0 = 3 := sorry"), DIV) == show(FLOAT)
    assert ty(E("theorem t : (7 : ℝ) / 2 = 3.5 := sorry"), "3.5") == "ℝ"
    # a decimal at ℕ needs `OfScientific ℕ`, which does not exist
    assert kinds(E("(n : ℕ) (h : n = 7 / 2.0) : n = 3")) == ["missing-instance"]


def test_the_exponent_is_elaborated_alone_and_defaults_to_nat():
    e = E("(x : ℝ) : x ^ (1 / 2) = 1")  # Monoid.toPow: x ^ 0
    assert ty(e, DIV) == "ℕ" and e.ok
    assert E("(x : ℝ) (n : ℤ) : x ^ n = 1").ok  # zpow
    assert E("(x : ℝ) : x ^ (2 : ℝ) = 1").ok  # rpow
    assert "missing-instance" in kinds(E("(x : ℕ) (n : ℤ) : x ^ n = 1"))


def test_binder_types_come_from_declarations_and_unification():
    e = E("theorem t : ∃ x, x + 1 = (2 : ℝ) := sorry")
    assert e.ok and e.type_at(find(e, "x")) == "ℝ"
    e = E("theorem t : ∀ x ∈ Finset.range 3, x < 5 := sorry")
    assert e.ok and e.type_at(find(e, "x")) == "ℕ"
    e = E("theorem t : ∃ x, x < 3 := sorry")  # the numeral's default reaches the binder
    assert e.ok and e.type_at(find(e, "x")) == "ℕ"
    e = E("(x : ℝ) : ∀ y, y = x → y ≤ x")
    assert e.ok and e.type_at(find(e, "y")) == "ℝ"


def test_lambdas_take_their_binder_types_from_unification():
    e = E("(f : ℝ → ℝ) (h : f = fun x => x / 2) : True")
    assert e.ok and ty(e, DIV) == "ℝ" and ty(e, "x") == "ℝ"
    e = E("(f : ℕ → ℝ) (h : ∀ n, f n = n / 2) : True")  # `n` from f's domain: ↑n / 2 in ℝ
    assert e.ok and ty(e, "n") == "ℕ" and ty(e, DIV) == "ℝ" and coe(e, "n", 2) == "ℝ"


def test_a_binder_no_use_determines_is_reported():
    e = elaborate(Node(f"∀ {SLOT}, {SLOT}", (Node("y"), Node("True"))))
    assert kinds(e) == ["uninferred"]


# -- relations that are not binrel% -------------------------------------------------------------
def test_dvd_takes_its_type_from_the_first_argument():
    e = E("(n : ℕ) (m : ℤ) (h : m ∣ n) : True")
    assert e.ok and coe(e, "n", 1) == "ℤ"
    assert "type-mismatch" in kinds(E("(n : ℕ) (m : ℤ) (h : n ∣ m) : True"))
    e = E("(n : ℕ) (h : 2 ∣ n) : True")
    assert e.ok and ty(e, "2") == "ℕ"


def test_membership_takes_the_element_type_from_the_collection():
    assert "type-mismatch" in kinds(E("(x : ℝ) (h : x ∈ Finset.range 3) : True"))
    e = E("(n : ℕ) (h : n ∈ Finset.Icc (1 : ℤ) 3) : True")
    assert e.ok and coe(e, "n", 1) == "ℤ"


# -- instances ------------------------------------------------------------------------------------
@pytest.mark.parametrize("statement", [
    "(x : ℝ) (h : x ∈ Finset.Icc (0 : ℝ) 1) : x ≤ 1",  # no LocallyFiniteOrder ℝ
    "(x : ℝ) (h : x % 2 = 1) : x > 0",                 # no Mod ℝ
    "(a : ℕ) (h : -a < 0) : a > 0",                     # no Neg ℕ
    "(n : ℕ) : ⌊n⌋ ≤ n",                                # no FloorRing ℕ
    "(n : ℕ) (x : ℝ) : x = n⁻¹",                        # `⁻¹` is a leaf: no Inv ℕ
])
def test_missing_instances_are_reported(statement):
    assert "missing-instance" in kinds(E(statement))


def test_local_instance_arguments_satisfy_their_classes():
    text = "theorem t {α : Type} [LinearOrder α] (a b : α) : min a b ≤ a := sorry"
    e = E(text)
    assert e.ok, e.issues
    assert "undecided-instance" in kinds(E("theorem t {α : Type} (a b : α) : min a b ≤ a "
                                          ":= sorry"))


def test_finset_range_needs_a_natural():
    assert "type-mismatch" in kinds(E("(x : ℝ) : ∑ i in Finset.range x, i ≥ 0"))


# -- names and the header's scopes --------------------------------------------------------------
def test_pi_needs_open_real_and_pi_is_protected():
    e = E("(x : ℝ) (h : x = π) : x > 3")
    assert kinds(e) == ["auto-bound"]
    e = E("(x : ℝ) (h : x = π) : x > 3", header="open Real")
    assert e.ok and e.at(find(e, "π")).constant == "Real.pi"
    assert E("(x : ℝ) (h : x = π) : x > 3", header="open scoped Real").ok
    assert kinds(E("(x : ℝ) (h : x = pi) : x > 3", header="open Real")) == ["auto-bound"]
    assert E("(x : ℝ) (h : x = Real.pi) : x > 3").ok


def test_a_binder_named_like_a_notation_stays_a_bound_variable():
    e = E("(π : ℝ) (h : π > 3) : π > 2")
    assert e.ok and e.at(find(e, "π", 1)).constant is None and ty(e, "π", 1) == "ℝ"


def test_factorial_notation_is_scoped_in_nat():
    assert kinds(E("(n : ℕ) : n ! > 0")) == ["scoped-notation"]
    assert E("(n : ℕ) : n ! > 0", header="open Nat").ok
    assert E("(n : ℕ) : Nat.factorial n > 0").ok


def test_overloads_are_resolved_by_types_or_reported():
    header = "open Nat Real"
    e = E("(x : ℝ) : sqrt x ≥ 0", header=header)  # Nat.sqrt x does not elaborate
    assert e.ok and e.at(find(e, f"sqrt {SLOT}")).constant == "Real.sqrt"
    assert kinds(E("(n : ℕ) : sqrt n ≥ 0", header=header)) == ["ambiguous"]
    assert kinds(E("(x : ℝ) : exp x > 0", header="open Real Complex")) == ["ambiguous"]
    assert E("(x : ℝ) : exp x > 0", header="open Real").ok


def test_unknown_names_are_auto_bound_or_errors_by_the_header_options():
    e = E("(s : Finset ℕ) : card s = 3")  # `card` written plainly, no `open Finset`
    assert kinds(e) == ["auto-bound"]
    e = E("(s : Finset ℕ) : card s = 3", header="set_option autoImplicit false")
    assert kinds(e) == ["unknown-name"]
    e = E("(x : ℝ) : x = y", header="set_option relaxedAutoImplicit false")
    assert kinds(e) == ["auto-bound"]  # one letter: still eligible
    e = E("(x : ℝ) : x = yy", header="set_option relaxedAutoImplicit false")
    assert kinds(e) == ["unknown-name"]


def test_field_notation_resolves_in_the_receivers_namespace():
    s = Node(f"{SLOT}.card", (Node("s"),))
    typed = Node(f"{SLOT} : {SLOT}", (Node("s"), Node(f"Finset {SLOT}", (Node("ℕ"),))))
    tree = Node(f"∀ {SLOT}, {SLOT}", (typed, Node(f"{SLOT} = {SLOT}", (s, Node("3")))))
    e = elaborate(tree)
    assert e.ok and e.at((1, 0)).constant == "Finset.card" and e.type_at((1, 0)) == "ℕ"


def test_statement_form_trees_are_elaborated_too():
    tree = parse_statement("theorem t (x : ℝ) : x = ∑ k in Finset.range 4, k / 2 := sorry",
                           options=OptOptions(proposition=False, normalize=False))
    e = elaborate(tree)
    assert e.ok and e.coercions() == {find(e, SUM): "ℝ"}


def test_normalised_labels_elaborate_like_the_notations():
    tree = parse_statement("theorem t (x : ℝ) (h : 0 ≤ x) : √x ≥ 0 := sorry")
    assert elaborate(tree).ok  # `Real.sqrt x` after normalisation


def test_issues_are_located():
    e = E("(x : ℝ) (h : x % 2 = 1) (h2 : x > 0) : x ≥ 1")
    hyp = find(e, f"{SLOT} = {SLOT}")
    assert e.issues_under(hyp) and not e.issues_under(find(e, f"{SLOT} ≥ {SLOT}"))


# -- the header and the type algebra ------------------------------------------------------------
def test_scope_from_header_reads_opens_scopes_namespaces_and_options():
    s = scope_from_header("import Mathlib\nopen BigOperators Real -- comment\n"
                          "open scoped Nat\nopen Finset (card range)\nnamespace A.B\n"
                          "set_option autoImplicit false\ndef f (n : ℕ) := n")
    simple = [d.namespace for d in s.opens if not d.explicit]
    explicit = {d.alias: d.target for d in s.opens if d.explicit}
    assert simple == ["BigOperators", "Real"] and {"Nat", "Real", "A", "A.B"} <= s.scoped
    assert explicit == {"card": "Finset.card", "range": "Finset.range"}
    assert s.namespace == "A.B" and not s.auto_implicit and s.declared == ("A.B.f",)
    assert s.notation_active("Nat") and s.notation_active(None) and not s.notation_active("X")
    assert scope_from_header("namespace A\nend A").namespace == ""
    assert scope_from_header("section\nset_option autoImplicit false\nend").auto_implicit
    assert Scope().auto_implicit and Scope().relaxed_auto_implicit


def test_unification_defaults_and_coercions():
    m = MetaStore()
    a, b, n = m.fresh(), m.fresh(), m.fresh("numeral")
    assert m.unify(a, arrow(b, Ty("ℝ"))) and not m.unify(b, a)  # occurs check
    assert m.unify(b, n) and m.default() and m.zonk(a) == arrow(Ty("ℕ"), Ty("ℝ"))
    s = MetaStore()
    x, y = s.fresh("numeral"), s.fresh("scientific")
    assert s.unify(x, y) and s.default() and s.zonk(x) == FLOAT
    assert has_coe(Ty("ℕ"), Ty("ℝ")) and not has_coe(Ty("ℤ"), Ty("ℕ"))
    assert not has_coe(Ty("ℝ"), Ty("ℝ"))


# -- names resolved by the header (bundled Mathlib name table) --------------------------------
def test_a_protected_name_is_not_reached_through_open():
    # Mathlib: `protected noncomputable def Real.pi`; `open Real (pi)` names it explicitly
    e = E("(x : ℝ) (h : x = pi) : x > 3", "open Real")
    assert kinds(e) == ["auto-bound"] and "protected" in e.issues[0].message
    assert e.issues[0].name == "pi"
    assert E("(x : ℝ) (h : x = pi) : x > 3", "open Real (pi)").ok
    assert kinds(E("(x : ℝ) (h : x = pi) : x > 3",
                   "set_option autoImplicit false\nopen Real")) == ["unknown-name"]


def test_overloads_are_settled_by_types_or_reported():
    # `Real.sqrt x` with x : ℝ elaborates, `Nat.sqrt x` cannot (no ℝ → ℕ coercion): settled
    e = E("(x : ℝ) : sqrt x = 2", "open Nat Real")
    assert e.ok and e.at(find(e, f"sqrt {SLOT}")).constant == "Real.sqrt"
    # with n : ℕ both elaborate (`Real.sqrt ↑n`): ambiguous, as Lean reports it
    e = E("(n : ℕ) : sqrt n = 2", "open Nat Real")
    assert kinds(e)[0] == "ambiguous" and e.issues[0].name == "sqrt"
    # `_root_.Prime p` and `Nat.Prime p` both elaborate for p : ℕ under `open Nat`
    assert kinds(E("(p : ℕ) : Prime p", "open Nat"))[0] == "ambiguous"
    assert E("(p : ℕ) : Prime p").ok


def test_an_overload_the_tables_cannot_type_is_not_settled():
    # pnv/38: `closure` under `open Subgroup` is _root_.closure or Subgroup.closure; neither
    # signature is in the table, so the model does not pick one
    e = E("{G : Type*} [Group G] (H : Subgroup G) : closure ((H : Set G) \\ {1}) = H",
          "open Fintype Subgroup Set Polynomial Ideal")
    ambiguous = [i for i in e.issues if i.kind == "ambiguous"]
    assert ambiguous and ambiguous[0].name == "closure"
    assert "Subgroup.closure" in ambiguous[0].message


def test_notation_symbols_and_locals_are_never_auto_bound():
    # `𝓝` is Mathlib notation (scoped in Topology): not a variable; where the scope is open
    # it is nhds (Mathlib/Topology/Defs/Filter.lean:134), elsewhere it is not (autoImplicit binds it)
    e = E("(x : ℝ) : Filter.Tendsto (fun y => y) (𝓝 x) (𝓝 x)", "open Topology")
    assert "auto-bound" not in kinds(e)
    assert "nhds" in {n.constant for _p, _n, n in e.walk() if n is not None}
    e = E("(x : ℝ) : Filter.Tendsto (fun y => y) (𝓝 x) (𝓝 x)", "")
    assert "nhds" not in {n.constant for _p, _n, n in e.walk() if n is not None}
    # a binder named π is the local, even where the notation is active
    e = E("(π : ℝ) (h : π > 3) : π > 2", "open Real")
    assert e.ok and all(n.constant is None for _p, _n, n in e.walk() if n is not None)


def test_a_term_level_open_scopes_only_its_term():
    """`open X in e` (Lean core Term.open) opens X for e alone; an unknown namespace is
    Lean's `unknown namespace` error."""
    inside = elaborate_statement("theorem t : open Real in sqrt 2 > 1 := sorry")
    assert not inside.issues
    assert "Real.sqrt" in {n.constant for n in inside.nodes.values()}
    outside = elaborate_statement("theorem t (h : sqrt 2 > 1) : open Real in sqrt 2 > 1 := sorry")
    assert [i.name for i in outside.issues if i.kind == "auto-bound"] == ["sqrt"]
    unknown = elaborate_statement("theorem t : open NoSuchSpace in 1 = 1 := sorry")
    assert [i.kind for i in unknown.issues] == ["unknown-name"]


# -- default instances: `Neg` → ℤ (mid) beats `OfNat` → ℕ (low) -----------------------------
@pytest.mark.parametrize("text", [": ∃ x, -x = 3", ": -7 / 2 = -4", ": 2 - 5 = -3"])
def test_a_negation_nothing_types_is_an_integer(text):
    # Lean core src/Init/Data/Int/Basic.lean: `@[default_instance mid] instance instNegInt`,
    # "must have priority higher than `low` since the default instance `OfNat Nat n` has `low`"
    e = E(text)
    assert e.ok, e.issues
    assert all(n.type == Ty("ℤ") for p, node, n in e.walk()
               if n is not None and node.label[:1].isdigit())


def test_without_negation_or_with_a_type_the_negation_default_does_not_apply():
    e = E(": 2 - 5 < 0")
    assert e.ok and ty(e, "2") == "ℕ"
    assert kinds(E("(n : ℕ) : -n = 3")) == ["missing-instance"]  # n is ℕ: no Neg ℕ
    # Mathlib's `Monoid.toPow` (default_instance high) makes the exponent ℕ first
    assert kinds(E("(x : ℝ) : x ^ (-1) = x")) == ["missing-instance"]
    # a decimal literal's Float (mid+1) outranks Neg Int (mid)
    assert ty(E(": ∃ x, -x = 2.5"), "x") == "Float"


def test_nat_and_real_spelled_out_are_the_number_types():
    e = E("(n : Nat) (x : Real) : (n : Real) = x")
    assert e.ok and ty(e, "n", 1) == "ℕ" and coe(e, "n", 1) == "ℝ"


def test_sup_and_inf_are_max_and_min():
    # Mathlib/Order/Notation.lean:78-79 macro_rules: `a ⊔ b` is `Max.max a b`, `⊓` `Min.min`
    e = E("(a b : ℕ) : a ⊔ b = max a b")
    assert e.ok, e.issues
    assert e.at(find(e, f"{SLOT} ⊔ {SLOT}")).constant == "Max.max"


def test_a_number_cast_into_a_function_type_is_undecided():
    # Mathlib's Pi.instIntCast: `(f : ℕ → ℚ) = (a : ℤ)` casts a to a constant function
    e = E("(f : ℕ → ℚ) (a : ℤ) : f = a")
    assert "type-mismatch" not in kinds(e) and "undecided-instance" in kinds(e)


def test_a_notation_two_open_scopes_define_is_not_chosen():
    # `#s` is Finset.card under `open Finset` (Mathlib/Data/Finset/Card.lean:50) but also
    # Cardinal.mk under `open Cardinal` (Mathlib/SetTheory/Cardinal/Defs.lean:91)
    e = E("(s : Finset ℕ) : #s ≤ 3", "open Finset")
    assert "Finset.card" in {n.constant for _p, _n, n in e.walk() if n is not None}
    e = E("(s : Finset ℕ) : #s ≤ 3", "open Finset Cardinal")
    assert "ambiguous" in kinds(e)
    assert "Finset.card" not in {n.constant for _p, _n, n in e.walk() if n is not None}



def test_bundled_morphism_notations_are_types():
    # G →* G' is MonoidHom G G' (Mathlib/Algebra/Group/Hom/Defs.lean:373): Subgroup.map's
    # signature reads it the same way, so the field notation finds Subgroup.Normal
    e = E("{G : Type*} [Group G] {G' : Type*} [Group G'] (φ : G →* G') (N : Subgroup G) "
          "[N.Normal] : (Subgroup.map φ N).Normal")
    assert e.ok
    assert "Subgroup.Normal" in {n.constant for _p, _n, n in e.walk() if n is not None}
    # Module.End R M is an abbrev of M →ₗ[R] M: a type former, so `.Eigenvalues` resolves
    e = E("{F V : Type*} [Field F] [AddCommGroup V] [Module F V] (S : Module.End F V) : "
          "S.Eigenvalues = S.Eigenvalues")
    assert "Module.End.Eigenvalues" in {n.constant for _p, _n, n in e.walk() if n is not None}
