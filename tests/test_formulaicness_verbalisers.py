"""Literal and Optimised verbalisers (issue 26 item 1): every connective and quantifier,
determinism, and the soundness of the equivalent rewrites the Optimised verbaliser picks from."""

from __future__ import annotations

import itertools
import random

import pytest

from transted.fol.ast import (
    BinOp,
    Const,
    Eq,
    FolTerm,
    Formula,
    Func,
    Not,
    Pred,
    Quantified,
    Variable,
)
from transted.fol.formulaicness import verbalise_literal, verbalise_optimised
from transted.fol.formulaicness.equivalents import equivalents, free_variables, negation_normal_form
from transted.fol.formulaicness.lexicon import constant_text, phrase
from transted.fol.formulaicness.tiers import near_duplicates
from transted.fol.syntax import parse_formula

# Expected texts follow the templates in literal.py's docstring, node by node.
LITERAL = [
    ("Cube(a)", "A is a cube."),
    ("¬Small(b)", "It is not the case that B is small."),
    ("Cube(a) ∧ Small(a)", "A is a cube and A is small."),
    ("Cube(a) ∨ Small(a)", "A is a cube or A is small."),
    ("Cube(a) → Small(a)", "If A is a cube, then A is small."),
    ("Cube(a) ↔ Small(a)", "A is a cube if and only if A is small."),
    ("Cube(a) ⊕ Small(a)", "Either A is a cube or A is small, but not both."),
    ("∀x Cube(x)", "For all x, x is a cube."),
    ("∃x Cube(x)", "There is an element x such that x is a cube."),
    ("a = b", "A is B."),
    ("(Cube(a) ∧ Small(a)) ∨ Tet(a)", "Both A is a cube and A is small or A is a tet."),
    ("¬(Cube(a) ∨ Small(a))", "It is not the case that either A is a cube or A is small."),
    ("∀x ∃y Larger(x, y)", "For all x, there is an element y such that x is larger than y."),
]

OPTIMISED = [
    ("Cube(a)", "A is a cube."),
    ("¬Small(b)", "B is not small."),
    ("Cube(a) ∧ Small(a)", "A is a cube and small."),
    ("Cube(a) ∨ Small(a)", "A is a cube or small."),
    ("Cube(a) → Small(a)", "If A is a cube, then A is small."),
    ("Cube(a) ↔ Small(a)", "A is a cube if and only if A is small."),
    ("Cube(a) ⊕ Small(a)", "A is either a cube or small, but not both."),
    ("∀x Cube(x)", "Everything is a cube."),
    ("∃x Cube(x)", "There is a cube."),
    ("∀x (Cube(x) → Small(x))", "Every cube is small."),
    ("∀x (Cube(x) → ¬Small(x))", "No cube is small."),
    ("¬∃x (Cube(x) ∧ Small(x))", "No cube is small."),
    ("∃x (Cube(x) ∧ Small(x))", "Some cube is small."),
    ("¬∀x (Cube(x) → Small(x))", "Some cube is not small."),  # ¬∀ → ∃¬, ¬(A→B) → A∧¬B
    ("¬¬Cube(a)", "A is a cube."),                               # double negation
    ("¬(Cube(a) ∨ Small(a))", "A is neither a cube nor small."),
    ("¬Cube(a) → ¬Small(a)", "If A is small, then A is a cube."),  # contraposition: shorter
    ("∀x ∀y (Larger(x, y) → Smaller(y, x))",
     "For all x and y, if x is larger than y, then y is smaller than x."),  # merged quantifiers
    ("∃x (Cube(x) ∧ Likes(x, x))", "Some cube likes itself."),   # reflexive
    ("∀x (Cube(x) ∧ Small(x) ∧ Tet(x) → Large(x))", "Every cube that is small and a tet is large."),
    ("∀x (Cube(x) → Likes(b, x))", "For every cube, B likes it."),  # one referent: "it"
    ("∀x (Drinks(x) → Small(x))", "Everything that drinks is small."),
]


@pytest.mark.parametrize(("formula", "text"), LITERAL)
def test_literal_templates(formula: str, text: str) -> None:
    assert verbalise_literal(parse_formula(formula)) == text


@pytest.mark.parametrize(("formula", "text"), OPTIMISED)
def test_optimised_realisation(formula: str, text: str) -> None:
    assert verbalise_optimised(parse_formula(formula)) == text


def test_every_connective_and_quantifier_covered() -> None:
    for table in (LITERAL, OPTIMISED):
        symbols = "".join(f for f, _ in table)
        assert all(s in symbols for s in "¬∧∨→↔⊕∀∃")


def test_literal_keeps_variables_and_optimised_drops_one_referent() -> None:
    f = parse_formula("∀x (Cube(x) → ¬Small(x))")
    assert " x " in verbalise_literal(f) and "not the case" in verbalise_literal(f)
    assert " x" not in verbalise_optimised(f)


def test_deterministic_and_independent_of_call_order() -> None:
    formulas = [parse_formula(f) for f, _ in LITERAL + OPTIMISED]
    first = [(verbalise_literal(f), verbalise_optimised(f)) for f in formulas]
    second = [(verbalise_literal(f), verbalise_optimised(f)) for f in reversed(formulas)]
    assert first == list(reversed(second))


def test_function_terms_and_constants() -> None:
    f = parse_formula("Older(fatherOf(donaldKnuth), donaldKnuth)")
    assert verbalise_literal(f) == "The father of Donald Knuth is older than Donald Knuth."
    assert constant_text("c++") == "C ++"


def test_lexicon_word_classes() -> None:
    assert phrase("Student").positive == "is a student" and phrase("Student").noun == "student"
    assert phrase("HaveWings").negative == "does not have wings"
    assert phrase("PlayFootball").positive == "plays football"
    assert phrase("Drinks").negative == "does not drink"
    assert phrase("Small").positive == "is small"
    assert phrase("ScoredGoals").negative == "did not score goals"
    assert phrase("LocatedIn", 2).positive == "is located in"
    assert phrase("Larger", 2).positive == "is larger than"


# -- soundness of the rewrites: every variant has the truth value of the original -------------

def _value(term: FolTerm, env: dict[str, int]) -> int:
    if isinstance(term, Variable):
        return env[term.name]
    if isinstance(term, Const):
        return hash(term.name) % 2
    assert isinstance(term, Func)
    return (sum(_value(a, env) for a in term.args) + 1) % 2


def _holds(f: Formula, world: dict, env: dict[str, int]) -> bool:
    if isinstance(f, Pred):
        return world.setdefault((f.name, tuple(_value(a, env) for a in f.args)),
                                world["rng"].random() < 0.5)
    if isinstance(f, Eq):
        return _value(f.left, env) == _value(f.right, env)
    if isinstance(f, Not):
        return not _holds(f.body, world, env)
    if isinstance(f, Quantified):
        values = (_holds(f.body, world, {**env, f.var: d}) for d in (0, 1))
        return all(values) if f.quantifier == "∀" else any(values)
    a, b = _holds(f.left, world, env), _holds(f.right, world, env)
    return {"∧": a and b, "∨": a or b, "→": (not a) or b, "↔": a == b, "⊕": a != b}[f.op]


SOUNDNESS = ["¬(A ∧ ¬B)", "¬(P(a) → (Q(a) ∨ ¬R(a)))", "¬∀x (P(x) → ¬∃y R(x, y))",
             "¬(A ↔ B) ∧ ¬(C ⊕ D)", "¬A → ¬(B ∧ C)", "∀x ¬¬P(x) ∧ ∃y Q(a)",
             "¬∃x (P(x) ∧ ¬(Q(x) ∨ R(x, a)))", "¬(¬P(a) ∧ ¬Q(b)) → ¬∀z R(z, z)"]


@pytest.mark.parametrize("text", SOUNDNESS)
def test_equivalents_are_equivalent(text: str) -> None:
    """200 random interpretations over the domain {0, 1}: each variant agrees with ``f``."""
    f = parse_formula(text)
    variants = equivalents(f)
    assert len(variants) > 1 and variants[0] == f
    rng = random.Random(7)
    for _ in range(200):
        world: dict = {"rng": rng}
        expected = _holds(f, world, {})
        assert all(_holds(g, world, {}) == expected for g in variants)


def test_negation_normal_form_has_negations_on_atoms_only() -> None:
    g = negation_normal_form(parse_formula(SOUNDNESS[2]))
    stack: list[Formula] = [g]
    while stack:
        node = stack.pop()
        if isinstance(node, Not):
            assert isinstance(node.body, (Pred, Eq))
        elif isinstance(node, Quantified):
            stack.append(node.body)
        elif isinstance(node, BinOp):
            stack += [node.left, node.right]


def test_vacuous_quantifier_dropped_and_free_vars() -> None:
    f = parse_formula("∀x Cube(a)")
    assert parse_formula("Cube(a)") in equivalents(f)
    # the parser reads an unbound name as a constant, so the free variable is built by hand
    assert free_variables(Quantified("∀", "x", Pred("R", (Variable("x"), Variable("y"))))) == {"y"}
    with pytest.raises(ValueError):
        equivalents(f, limit=0)


def test_near_duplicates_matches_levenshtein() -> None:
    from nltk.metrics.distance import edit_distance

    rng = random.Random(3)
    words = ["ab", "ba", "abc", "", "cab", "a b", "bca"]
    for a, b in itertools.product(words, repeat=2):
        for bound in (1, 2, 3):
            assert near_duplicates(a, b, bound) == (edit_distance(a, b) < bound)
    for _ in range(300):
        a = "".join(rng.choice("ab ") for _ in range(rng.randint(0, 30)))
        b = "".join(rng.choice("ab ") for _ in range(rng.randint(0, 30)))
        assert near_duplicates(a, b) == (edit_distance(a, b) < 10)
