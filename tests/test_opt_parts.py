"""The parts of a statement (transted/pipeline/opt/parts.py): binders, hypotheses, conclusion.

Expected parts are read off the statement as Lean's ``intro`` would take it apart."""

from __future__ import annotations

from transted.pipeline.opt import parse_statement
from transted.pipeline.opt.parts import statement_parts


def parts(text: str) -> tuple[list[str], list[str]]:
    p = statement_parts(parse_statement(text))
    return [str(b.node) for b in p.binders], [str(h.node) for h in p.hypotheses]


def test_an_unused_variable_of_a_type_is_a_binder_not_a_hypothesis():
    # `(n : ℕ)` nothing mentions: Lean prints `ℕ → …` (no dependency), yet it is a variable
    # ranging over ℕ, not a proposition to assume (gaps/05 of the soundness corpus)
    binders, hypotheses = parts("theorem t (x : ℝ) (n : ℕ) (h : x = 2) : x ^ 2 = 4 := sorry")
    assert binders == ["{<SLOT> : <SLOT>{x}{ℝ}}", "{<SLOT> : <SLOT>{_}{ℕ}}"]
    assert hypotheses == ["{<SLOT> = <SLOT>{x}{2}}"]
    # a type built from a type variable an earlier binder declares, and `Prop` itself
    binders, hypotheses = parts("theorem t {α : Type*} (s : Set α) (p : Prop) (h : p) : True "
                                ":= sorry")
    assert binders[1] == "{<SLOT> : <SLOT>{_}{Set <SLOT>{α}}}" and hypotheses == ["{p}"]


def test_a_domain_the_tree_cannot_classify_stays_a_hypothesis():
    # `Subgroup G` (a structure) and `Group G` (a class) need the elaboration to be told apart
    # from a proposition: the tree alone does not say, so they stay hypotheses
    binders, hypotheses = parts("theorem t (G : Type*) [Group G] (H : Subgroup G) : True "
                                ":= sorry")
    assert binders == ["{<SLOT> : <SLOT>{G}{Type*}}"]
    assert hypotheses == ["{Group <SLOT>{G}}", "{Subgroup <SLOT>{G}}"]
