"""DNF-like trees of paper 000 (§3–4): structure and paths checked against the paper's text."""

from __future__ import annotations

import pytest

from transted.errors import InputError, ResourceLimitError
from transted.fol.ast import BinOp, Const, Func, Not, Pred, Quantified, Variable
from transted.fol.dnf import DNFOptions, dnf_clauses, dnf_tree, path_text, tree_paths
from transted.fol.syntax import parse_formula
from transted.pipeline.opt.node import Node


def paths(text: str, **kw: object) -> list[str]:
    return [path_text(p) for p in tree_paths(dnf_tree(parse_formula(text), DNFOptions(**kw)))]


def test_figure_1_tree_built_from_ast_by_hand():
    # (R(w, v) ∧ ¬S(i, j)) ∨ P(x, Q(y, z)): OR root, then AND, NOT, predicates, arguments
    x, y, z = Variable("x"), Variable("y"), Variable("z")
    formula = BinOp("∨", BinOp("∧", Pred("R", (Const("w"), Const("v"))),
                               Not(Pred("S", (Const("i"), Const("j"))))),
                    Pred("P", (x, Func("Q", (y, z)))))
    tree = dnf_tree(formula, DNFOptions(free_variables="none"))
    expected = Node.from_text("{∨{∧1{R{w}{v}}{¬{S{i}{j}}}}{P{var{x}}{Q{var{y}}{var{z}}}}}")
    assert tree == expected


def test_paths_of_case_6_27_match_the_paper():
    # Appendix A.1 names the path [not, highervitamincontent, var, y] of the gold formula;
    # both trees have six paths ("the DNF-like trees have the same size").
    gd = paths("((Fruit(x) ∧ Fruit(y) ∧ HigherVitaminCContent(x, y)) → BetterPreventScurvy(x, y))")
    gen = paths("((Fruit(x) ∧ Fruit(y) ∧ HigherVitaminCContent(x) ∧ LowerVitaminCContent(y))"
                " → BetterAtPreventingScurvy(x, y))")
    assert "[not, HigherVitaminCContent, var, y]" in gd
    assert "[not, LowerVitaminCContent, var, y]" in gen
    assert len(gd) == len(gen) == 6


def test_and_group_path_of_case_4_38():
    # Appendix A.3: the extra conjunct gives a path [andN, varyingangles, var, x]
    got = paths("(Prism(x) → (DispersesLightIntoColors(x) ∧ RefractsDifferentWavelengths(x) ∧ "
                "VaryingAngles(x) ∧ CreatesSpectrum(x)))")
    assert got == ["[not, Prism, var, x]", "[and1, DispersesLightIntoColors, var, x]",
                   "[and1, RefractsDifferentWavelengths, var, x]",
                   "[and1, VaryingAngles, var, x]", "[and1, CreatesSpectrum, var, x]"]


def test_negated_antecedent_literal_becomes_positive_case_2_32():
    # "¬Paid(x) is converted into [paid, var, x]" when it sits in an implication's antecedent
    assert "[Paid, var, x]" in paths("WorksOvertime(x) ∧ ¬Paid(x) → Q(x)")


def test_or_priority_makes_brackets_irrelevant_case_4_89():
    a = "((PlayedWithBall(x) ∧ PlayedOnField(x)) ∨ (PlayedWithRacket(x) ∧ PlayedOnCourt(x)))"
    b = "(PlayedWithBall(x) ∧ PlayedOnField(x) ∨ PlayedWithRacket(x) ∧ PlayedOnCourt(x))"
    assert dnf_tree(parse_formula(a)) == dnf_tree(parse_formula(b))


def test_and_groups_numbered_uniquely_and_distribution():
    tree = dnf_tree(parse_formula("(A ∨ B) ∧ (C ∨ D)"))
    assert [c.label for c in tree.children] == ["∧1", "∧2", "∧3", "∧4"]
    assert [[g.label for g in c.children] for c in tree.children] == [
        ["A", "C"], ["A", "D"], ["B", "C"], ["B", "D"]]


def test_quantifiers_removed_and_bound_names_are_variables():
    tree = dnf_tree(Quantified("∀", "person", Pred("Mortal", (Variable("person"),))))
    assert str(tree) == "{∨{Mortal{var{person}}}}"


@pytest.mark.parametrize("text, expected", [
    ("Likes(x, alex)", ["[Likes, var, x]", "[Likes, alex]"]),  # constant is a bare leaf
    ("a = b", ["[equals, var, a]", "[equals, var, b]"]),
    ("Rain", ["[Rain]"]),
    ("¬¬P(x)", ["[P, var, x]"]),
    ("¬(P(x) ∨ Q(x))", ["[and1, not, P, var, x]", "[and1, not, Q, var, x]"]),
    ("P(x) ↔ Q(x)", ["[and1, P, var, x]", "[and1, Q, var, x]",
                     "[and2, not, P, var, x]", "[and2, not, Q, var, x]"]),
    ("P(x) ⊕ Q(x)", ["[and1, P, var, x]", "[and1, not, Q, var, x]",
                     "[and2, not, P, var, x]", "[and2, Q, var, x]"]),
    ("Believe(alex, Done(sam, x))", ["[Believe, alex]", "[Believe, Done, sam]",
                                     "[Believe, Done, var, x]"]),
])
def test_paths_table(text, expected):
    assert paths(text) == expected


def test_free_single_letters_stay_constants_when_asked():
    assert paths("P(x)", free_variables="none") == ["[P, x]"]


def test_iff_rejected_when_asked():
    with pytest.raises(InputError, match="↔"):
        dnf_tree(parse_formula("P ↔ Q"), DNFOptions(iff_xor="reject"))


def test_clause_cap_is_checked_before_building():
    # ten binary disjunctions in a conjunction: 2^10 disjuncts, refused without building them
    text = " ∧ ".join(f"(A{i} ∨ B{i})" for i in range(10))
    with pytest.raises(ResourceLimitError, match="1024 disjuncts"):
        dnf_clauses(parse_formula(text), DNFOptions(max_clauses=1000))
    assert len(dnf_clauses(parse_formula(text), DNFOptions(max_clauses=1024))) == 1024


@pytest.mark.parametrize("kw", [{"iff_xor": "drop"}, {"free_variables": "all"},
                                {"max_clauses": 0}])
def test_bad_options(kw):
    with pytest.raises(ValueError, match="`"):
        DNFOptions(**kw)
