"""Overloaded names (transted.pipeline.opt.elaborate.overloads): an alternative is dropped only
when it certainly fails, as Lean's ``elabAppAux`` (src/Lean/Elab/App.lean) would drop it.

Expected values are derived from the declarations (Mathlib: ``class Normal (F K : Type*) …
: Prop`` in FieldTheory/Normal/Defs.lean, ``structure Subgroup.Normal (H : Subgroup G) :
Prop`` in Algebra/Group/Subgroup/Defs.lean:605, ``_root_.closure … : Set X`` in
Topology/Defs/Basic.lean, ``Subgroup.closure (k : Set G) : Subgroup G``) and from Lean's
elaborator (``elabAppArgs`` throws "function expected" when a proposition or a type is
applied to an argument; several successes are "ambiguous, possible interpretations").
"""

from __future__ import annotations

from elaboration_helpers import find

from transted.pipeline.evidence import overload_details
from transted.pipeline.opt import OptOptions, parse_statement, parse_statement_normalized
from transted.pipeline.opt.elaborate import BUNDLED, elaborate_statement
from transted.pipeline.opt.elaborate.overloads import arity_failure, split_explicit
from transted.pipeline.opt.elaborate.state import ElaborationState
from transted.pipeline.opt.header_scope import Scope
from transted.pipeline.opt.node import SLOT

SUBGROUP = "import Mathlib\nopen Subgroup"
FIELDS = "(F K : Type*) [Field F] [Field K] [Algebra F K]"


def E(text: str, header: str = SUBGROUP):
    return elaborate_statement(f"theorem t {text} := sorry", header=header)


def kinds(e) -> list[str]:
    return [i.kind for i in e.issues]


def _state() -> ElaborationState:
    from transted.pipeline.opt.elaborate.core import Elaborator
    return Elaborator(Scope(), BUNDLED)


def test_a_proposition_applied_to_too_many_arguments_is_dropped():
    # Subgroup.Normal H : Prop takes one explicit argument: `Normal F K` is "function
    # expected" there, so the one success is _root_.Normal F K
    e = E(f"{FIELDS} (h : Normal F K) : Algebra.IsAlgebraic F K")
    assert e.ok
    path = find(e, f"Normal {SLOT} {SLOT}")
    assert e.at(path).constant == "Normal"
    choice = e.overloads[path]
    assert choice.constant == "Normal" and [c for c, _ in choice.rejected] == ["Subgroup.Normal"]
    assert "function expected" in choice.rejected[0][1]


def test_arity_counts_explicit_arguments_and_the_arrows_of_the_value():
    el = _state()
    assert arity_failure(el, "Subgroup.Normal", 1, explicit=False) is None
    assert "proposition" in (arity_failure(el, "Subgroup.Normal", 2, explicit=False) or "")
    # Real.sqrt : ℝ → ℝ: its value is a number, never "function expected" by this rule
    assert arity_failure(el, "Real.sqrt", 2, explicit=False) is None


def test_a_value_that_is_a_function_up_to_unfolding_is_not_dropped():
    # `closure s x`: _root_.closure s : Set X, and Set X unfolds to X → Prop (whnfForall)
    el = _state()
    assert arity_failure(el, "closure", 2, explicit=False) is None
    e = E("{X : Type*} [TopologicalSpace X] (s : Set X) (x : X) : closure s x")
    assert "ambiguous" in kinds(e) and not e.overloads


def test_an_instance_only_failure_keeps_the_overload_ambiguous():
    # _root_.closure needs [TopologicalSpace G]; instance problems may be postponed
    e = E("{G : Type*} [Group G] (s : Set G) (g : G) (h : g ∈ s) : g⁻¹ ∉ closure s")
    ambiguous = [i for i in e.issues if i.kind == "ambiguous"]
    assert ambiguous and ambiguous[0].name == "closure" and not e.overloads


def test_two_successes_are_ambiguous_as_lean_reports_them():
    e = E("(n : ℕ) : sqrt n * sqrt n ≤ n", "import Mathlib\nopen Nat Real")
    messages = [i.message for i in e.issues if i.kind == "ambiguous"]
    assert messages and "possible interpretations Nat.sqrt, Real.sqrt" in messages[0]


def test_no_coercion_drops_an_alternative_and_says_why():
    e = E("(x : ℝ) : sqrt x ≤ x", "import Mathlib\nopen Nat Real")
    path = find(e, f"sqrt {SLOT}")
    assert e.ok and e.at(path).constant == "Real.sqrt"
    assert [c for c, _ in e.overloads[path].rejected] == ["Nat.sqrt"]


def test_at_sign_is_kept_on_free_names_only():
    raw = OptOptions(normalize=False)
    tree = parse_statement("theorem t (F : Type*) : @id F = fun (f : F) => @f", options=raw)
    labels = {n.label for n in _nodes(tree)}
    assert f"@id {SLOT}" in labels  # a free name: every binder explicit
    assert "f" in labels and "@f" not in labels  # bound by `fun`: its binders are not ours
    assert parse_statement("theorem t : id 1 = 1 := sorry", options=raw) != \
        parse_statement("theorem t : @id 1 = 1 := sorry", options=raw)
    assert split_explicit("@Normal") == ("Normal", True)
    assert split_explicit("Normal") == ("Normal", False)


def test_explicit_applications_name_their_constant_without_typing_it():
    e = E(":\n  ∃ (G : Type*) (hG : Group G) (H : @Subgroup G hG), "
          "@Normal G hG H ∧ ¬ @Characteristic G hG H")
    char = find(e, f"@Characteristic {SLOT} {SLOT} {SLOT}")
    assert e.at(char).constant == "Subgroup.Characteristic"
    assert any(i.kind == "unsupported" and i.path == char for i in e.issues)
    # @Normal G hG H: both Normal's fail only through coercions to a type (instance search)
    # and their binders come from `variable` commands: not settled
    normal = find(e, f"@Normal {SLOT} {SLOT} {SLOT}")
    assert any(i.kind == "ambiguous" and i.path == normal for i in e.issues)


def test_normalisation_writes_the_full_name_and_keeps_the_at_sign():
    text = "theorem t {G : Type*} [hG : Group G] (H : Subgroup G) : @Characteristic G hG H := sorry"
    tree = parse_statement(text, header=SUBGROUP)
    assert f"@Subgroup.Characteristic {SLOT} {SLOT} {SLOT}" in {n.label for n in _nodes(tree)}
    plain = parse_statement(text.replace("@Characteristic G hG H", "Characteristic H"),
                            header=SUBGROUP)
    assert plain != tree


def test_resolutions_reach_the_result_details():
    text = f"theorem t {FIELDS} (h : Normal F K) : Algebra.IsAlgebraic F K := sorry"
    side = parse_statement_normalized(text, header=SUBGROUP)
    other = parse_statement_normalized(text.replace("Normal F K", "_root_.Normal F K"),
                                       header="import Mathlib")
    details = overload_details(other, side)
    assert list(details) == ["candidate"]
    (entry,) = details["candidate"]
    assert entry["name"] == "Normal" and entry["constant"] == "Normal"
    assert entry["rejected"][0]["constant"] == "Subgroup.Normal"


def _nodes(tree):
    stack = [tree]
    while stack:
        node = stack.pop()
        yield node
        stack.extend(node.children)


def test_a_name_with_and_without_at_sign_is_not_one_constant_edit():
    # `@Finset.card ℕ s` and `Finset.card ℕ s` give their arguments to other binders: the
    # renaming between them is never presentational, whatever constant both name
    from transted.pipeline.verdict.typed_checks import TypedSides
    ref = parse_statement("theorem t (s : Finset ℕ) : @Finset.card ℕ s = 3 := sorry")
    cand = parse_statement("theorem t (s : Finset ℕ) : Finset.card ℕ s = 3 := sorry")
    sides = TypedSides(ref, cand)
    path = _path_of(ref, f"@Finset.card {SLOT} {SLOT}")
    assert _path_of(cand, f"Finset.card {SLOT} {SLOT}") == path
    role, why = sides.same_constant(path, path)
    assert role == "untrusted" and "@" in why
    same = TypedSides(ref, ref)
    assert same.same_constant(path, path)[0] == "presentational"


def _path_of(tree, label):
    stack = [((), tree)]
    while stack:
        path, node = stack.pop()
        if node.label == label:
            return path
        stack.extend(((*path, i), c) for i, c in enumerate(node.children))
    raise AssertionError(label)
