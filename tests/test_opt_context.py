"""Context declarations (issue 23, docs/INPUTS.md §2): definitions unfolded where that is sound,
kept and compared otherwise; `variable` binders joined as Lean does; notations; options.

Each expected tree is the parse of the statement Lean elaborates, written out by hand."""

from __future__ import annotations

import pytest

from transted.pipeline.extraction.statement import prepare
from transted.pipeline.opt import OptOptions, parse_statement
from transted.pipeline.opt.canonical import canonicalize
from transted.pipeline.opt.context import read_context
from transted.pipeline.opt.in_context import InContext, parse_in_context

CANON = OptOptions(canonical_names=True)


def read(text: str, header: str | None = None, options: OptOptions = CANON) -> InContext:
    prepared = prepare(text, header)
    assert prepared.ok, prepared.extraction.reason
    context = read_context(prepared.context, header=prepared.header)
    return parse_in_context(prepared.statement, header=prepared.header, context=context,
                            options=options)


def same(text: str, written_out: str, header: str | None = None) -> None:
    got = read(text, header)
    want = parse_statement(written_out, header=header, options=CANON)
    assert got.tree == want


def test_a_prop_helper_is_unfolded_with_its_argument_ascribed():
    same("def AddClosed (S : Set ℤ) : Prop := ∀ a ∈ S, ∀ b ∈ S, a + b ∈ S\n"
         "theorem t : AddClosed {n | Even n} := sorry",
         "theorem t : ∀ a ∈ ({n | Even n} : Set ℤ), ∀ b ∈ ({n | Even n} : Set ℤ), "
         "a + b ∈ ({n | Even n} : Set ℤ)")


def test_a_bound_argument_of_the_parameter_type_needs_no_ascription():
    same("def is_topology (X : Type*) (T : Set (Set X)) := Set.univ ∈ T\n"
         "theorem t (X : Type*) (T : Set (Set X)) (h : is_topology X T) : True := sorry",
         "theorem t (X : Type*) (T : Set (Set X)) (h : Set.univ ∈ T) : True")


def test_an_argument_keeps_the_coercion_lean_inserts():
    """`P n` with `P (y : ℝ)` and `n : ℕ` elaborates `↑n`: unfolded, `n / 2` must stay real."""
    same("def P (y : ℝ) : Prop := y / 2 > 1\ntheorem t (n : ℕ) : P n := sorry",
         "theorem t (n : ℕ) : (n : ℝ) / 2 > 1")


def test_a_typed_value_keeps_its_type():
    """`def c : ℕ := 7 / 2` is 3; unfolded under `x = c` with `x : ℝ` it must not become 3.5."""
    same("def c : ℕ := 7 / 2\ntheorem t (x : ℝ) : x = c := sorry",
         "theorem t (x : ℝ) : x = (7 / 2 : ℕ)")


def test_an_untyped_non_prop_value_is_kept():
    got = read("def c := 7 / 2\ntheorem t (x : ℝ) : x = c := sorry")
    assert got.unfolding.unfolded == [] and set(got.unfolding.kept) == {"c"}


def test_partial_application_and_implicit_parameters():
    same("def dvd_all {α : Type*} [Dvd α] (a b : α) : Prop := a ∣ b\n"
         "theorem t (f : (ℕ → Prop) → Prop) : f (dvd_all 3) := sorry",
         "theorem t (f : (ℕ → Prop) → Prop) : f (fun b => 3 ∣ b)")  # α is a hole


def test_definitions_unfold_through_each_other():
    same("def K : Set ℝ := Set.Icc 0 1\ndef Inside (x : ℝ) : Prop := x ∈ K\n"
         "theorem t (x : ℝ) : Inside x := sorry",
         "theorem t (x : ℝ) : x ∈ (Set.Icc 0 1 : Set ℝ)")


def test_a_bound_name_shadows_the_definition():
    got = read("def f (x : ℕ) : Prop := x > 0\ntheorem t (f : ℕ → Prop) : f 1 := sorry")
    assert got.unfolding.unfolded == []
    assert got.tree == parse_statement("theorem t (f : ℕ → Prop) : f 1", options=CANON)


def test_a_name_an_open_namespace_also_has_is_abstained_on():
    got = read("def sqrt (x : ℝ) : ℝ := x\ntheorem t : sqrt 4 = 4 := sorry", header="open Real")
    assert got.unfolding.unfolded == []
    assert "ambiguous" in got.unfolding.abstained["sqrt"]


def test_namespaced_definition_resolves_inside_its_namespace():
    same("namespace Foo\ndef Pos (x : ℤ) : Prop := 0 < x\n"
         "theorem t : Pos 3 := sorry\nend Foo",
         "theorem t : 0 < (3 : ℤ)")


def test_field_notation_on_a_definition_unfolds_the_receiver():
    same("def U : Set ℝ := Set.Icc 0 1\ntheorem t : U.Nonempty := sorry",
         "theorem t : (Set.Icc 0 1 : Set ℝ).Nonempty")


@pytest.mark.parametrize("definition,why", [
    ("def f : ℕ → ℕ\n| 0 => 1\n| (n + 1) => 2 * f n", "defined by pattern matching"),
    ("def g (n : ℕ) : ℕ := if n = 0 then 1 else 2 * g (n - 1)", "recursive"),
    ("partial def h (n : ℕ) : ℕ := h n", "a partial def is opaque"),
    ("structure P where\n  x : ℕ", "`structure` declarations are compared, never unfolded"),
])
def test_definitions_that_are_kept(definition, why):
    name = definition.split()[2] if definition.startswith("partial") else definition.split()[1]
    got = read(f"{definition}\ntheorem t (y : ℕ) : {name} = {name} := sorry")
    context = read_context(prepare(f"{definition}\ntheorem t : True").context)
    assert context.definitions[name].kept_because == why
    assert name in got.unfolding.kept


def test_variables_join_as_lean_includes_them():
    same("variable (G : Type*) [Group G] (n : ℕ) [Fact (n > 0)]\n"
         "theorem t (x : G) : x * x⁻¹ = 1 := sorry",
         "theorem t (G : Type*) [Group G] (x : G) : x * x⁻¹ = 1")


def test_a_later_variable_command_changes_the_binder_kind():
    got = read("variable (G : Type*) [Group G]\nvariable {G}\n"
               "theorem t (x : G) : x * x⁻¹ = 1 := sorry", options=OptOptions(proposition=False))
    want = parse_statement("theorem t {G : Type*} [Group G] (x : G) : x * x⁻¹ = 1",
                           options=OptOptions(proposition=False))
    assert got.tree == want
    assert got.variables == ("G",)


def test_an_included_hypothesis_is_a_binder_of_every_later_theorem():
    # Lean 4 `include` (src/Lean/Elab/Command.lean; the `variable` docstring): h is included
    # although the statement does not mention it, and its type brings x along
    same("variable (x : ℝ) (h : 0 < x)\ninclude h\ntheorem t : 0 < x ^ 3 := sorry",
         "theorem t (x : ℝ) (h : 0 < x) : 0 < x ^ 3")
    same("variable (x : ℝ) (h : 0 < x)\ninclude h in\ntheorem t : 0 < x ^ 3 := sorry",
         "theorem t (x : ℝ) (h : 0 < x) : 0 < x ^ 3")
    # without `include`, h is not a hypothesis (the statement claims 0 < x ^ 3 for all x)
    same("variable (x : ℝ) (h : 0 < x)\ntheorem t : 0 < x ^ 3 := sorry",
         "theorem t (x : ℝ) : 0 < x ^ 3")


def test_omit_in_drops_an_included_variable_for_one_theorem():
    text = ("variable (x : ℝ) (hx : 0 < x)\ninclude hx\n"
            "theorem aux : 0 < 2 * x := sorry\n\nomit hx in\ntheorem t : x ^ 2 ≥ 0 := sorry")
    same(text, "theorem t (x : ℝ) : x ^ 2 ≥ 0")
    # the `in` form lasts one command: a later theorem has hx again
    later = text + "\ntheorem u : 0 < x ^ 2 := sorry"
    prepared = prepare(later, None, theorem="u")
    context = read_context(prepared.context, header=prepared.header)
    got = parse_in_context(prepared.statement, header=prepared.header, context=context,
                           options=CANON)
    assert got.tree == parse_statement("theorem u (x : ℝ) (hx : 0 < x) : 0 < x ^ 2",
                                       options=CANON)


def test_omit_drops_an_instance_binder():
    same("variable {α : Type*} [DecidableEq α] (s : Finset α)\nomit [DecidableEq α] in\n"
         "theorem t : s.card = s.card := sorry",
         "theorem t {α : Type*} (s : Finset α) : s.card = s.card")


def test_variables_in_a_closed_section_are_gone():
    got = read("section\nvariable (n : ℕ)\nend\ntheorem t (m : ℕ) (h : n = m) : True := sorry")
    assert got.variables == () and got.auto_bound == ("n",)


def test_an_atom_notation_is_expanded():
    same('local notation "ℝ²" => EuclideanSpace ℝ (Fin 2)\n'
         "theorem t (x y : ℝ²) : dist x y = dist y x := sorry",
         "theorem t (x y : EuclideanSpace ℝ (Fin 2)) : dist x y = dist y x")


def test_an_identifier_like_notation_wins_over_the_identifier():
    same('local notation "limsup" => fun u : ℕ → ℝ => Filter.limsup u Filter.atTop\n'
         "theorem t (a : ℕ → ℝ) : limsup a ≤ 0 := sorry",
         "theorem t (a : ℕ → ℝ) : (fun u : ℕ → ℝ => Filter.limsup u Filter.atTop) a ≤ 0")


def test_an_infix_notation_is_its_function_then_unfolded():
    same("def Divides (a b : ℕ) : Prop := ∃ k, b = a * k\ninfixl:50 \" ∣∣ \" => Divides\n"
         "theorem t (a : ℕ) : a ∣∣ a := sorry",
         "theorem t (a : ℕ) : ∃ k, a = a * k")


def test_a_statement_using_an_unsupported_notation_is_an_error():
    from transted.errors import ParseError

    with pytest.raises(ParseError, match="notation '‖' declared before it"):
        read('notation "‖" x "‖₁" => abs x\ntheorem t (x : ℝ) : ‖x‖₁ = 0 := sorry')


def test_auto_implicit_off_binds_nothing():
    assert read("theorem t : x = x := sorry").auto_bound == ("x",)
    assert read("set_option autoImplicit false in\ntheorem t : x = x := sorry").auto_bound == ()


def test_without_context_the_tree_is_parse_statement_normalized():
    text = "theorem t (a b : ℝ) (h : a > b) : b < a"
    assert read(text).tree == canonicalize(parse_statement(text))


def test_a_definition_that_does_not_parse_is_kept_not_an_error():
    text = ("def weird (n : ℕ) : ℕ := n ⋙⋙ 1\n"
            "theorem t (m : ℕ) : weird m = m := sorry")
    got = read(text)
    assert set(got.unfolding.kept) == {"weird"}
    context = read_context(prepare(text).context)
    assert not context.definitions["weird"].parsed
    assert "does not parse offline" in (context.definitions["weird"].kept_because or "")


def test_an_unreadable_variable_is_an_error_only_when_used():
    from transted.errors import ParseError

    broken = "variable (G : Type*) (x : G ⋙⋙ G)\n"
    assert read(broken + "theorem t (n : ℕ) : n = n := sorry").variables == ()
    with pytest.raises(ParseError, match="expected"):
        read(broken + "theorem t : x = x := sorry")
