"""Parser of transted.fol.syntax: FOLIO coverage, precedence, positioned errors, caps."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from transted.errors import ParseError, ResourceLimitError
from transted.fol.ast import BinOp, Const, Eq, Func, Not, Pred, Quantified, Variable
from transted.fol.syntax import atoms, format_formula, lex_formula, parse_formula

FOLIO = Path(__file__).parent / "data" / "fol" / "folio"

# Every FOLIO v0.0 formula (train + validation, premises and conclusions) judged malformed by
# reading it, with the reason; the parser must reject exactly these.
MALFORMED = {
    "": "empty formula (a missing conclusion-FOL)",
    "(Foodie(peter) ∧ HighIncome(peter)) ∨ ¬Foodie(peter) ∧ ¬HighIncome(peter))":
        "one ')' too many: the second disjunct lost its '('",
    "(Spill(peter) ∧ OnlyChild(peter)) ∨ ¬Spill(peter) ∧ ¬OnlyChild(peter))":
        "one ')' too many: the second disjunct lost its '('",
    "(WorkTeams(kat) ∧ Tired(kat)) ∨ ¬WorkTeams(kat) ∧ ¬Tired(kat))":
        "one ')' too many: the second disjunct lost its '('",
    "(LanguageModel(bert) ∧ Giant(bert)) → (LanguageModel(gpt-3) ∧ Giant(gpt-3)).":
        "sentence-final '.' after the formula",
    "Chaperone(bonnie) ⊕ TalentShows(bonnie) → AcademicCareer(bonnie) ∧ Inactive(bonnie))":
        "one ')' too many",
    "Code(burger) ∧ Mac(burger))": "one ')' too many",
    "¬WorkAtPool(mary))": "one ')' too many",
    "Luxury(Jess) ⊕ Miserly(Jess)) →  Luxury(Jess)": "')' with no matching '('",
    "∀x ((Orlando(x) ∨ Miami(x)) ∧ Florida(x)) → WantToGo(x))": "one ')' too many",
    "∀x ((RelaySwimmer(x) ∧ ¬ParticipatedIn(x, finalheatfreerelay)) ↔ ¬Recieved(x, medal)))":
        "one ')' too many",
    "∀x (Road(x) → (MadeOfConcrete(x) ∨ MadeOfAsphalt(x))": "missing the final ')'",
    "GraduateStudent(joe) ⊕  Doctor(joe) → ¬(GraduateStudent(joe) ^ Student(joe))":
        "ASCII '^' is not an operator of the FOLIO syntax (∧ or ⊕ meant?)",
    "∀x ∀y (SuperheroMovie(x), NamedAfter(x, y) → GoodGuy(y))":
        "',' between two formulas instead of an operator",
    "∃x (Country(x) Nearby(medeempire, x) ∧ PlotsToSwallowUp(medeempire, x))":
        "missing operator between Country(x) and Nearby(...)",
}


def folio_formulas() -> list[str]:
    seen: dict[str, None] = {}
    for split in ("train", "validation"):
        with (FOLIO / f"folio-{split}.jsonl").open(encoding="utf-8") as f:
            for line in f:
                obj = json.loads(line)
                for text in obj["premises-FOL"]:
                    seen.setdefault(text, None)
                if "conclusion-FOL" in obj:
                    seen.setdefault(obj["conclusion-FOL"], None)
    return list(seen)


def test_folio_coverage_rejects_exactly_the_malformed():
    formulas = folio_formulas()
    assert len(formulas) == 2211
    rejected = set()
    for text in formulas:
        try:
            tree = parse_formula(text)
        except ParseError:
            rejected.add(text.strip())
            continue
        assert parse_formula(format_formula(tree)) == tree, text
    assert rejected == set(MALFORMED)


@pytest.mark.parametrize("text, expected", [
    ("P(a) ∧ Q(a) → R(a)", "→"),          # ∧ binds tighter than →
    ("P(a) → Q(a) ∧ R(a)", "→"),
    ("P(a) ⊕ Q(a) → R(a)", "→"),          # FOLIO: Chaperone(bonnie) ⊕ ... → ...
    ("P(a) ∨ Q(a) ⊕ R(a)", "⊕"),
    ("P(a) ∧ Q(a) ∨ R(a)", "∨"),
    ("P(a) → Q(a) ↔ R(a)", "↔"),
])
def test_precedence_root_operator(text, expected):
    tree = parse_formula(text)
    assert isinstance(tree, BinOp) and tree.op == expected


def test_implication_is_right_associative_others_left():
    a, b, c = (Pred(n, (Const("a"),)) for n in "PQR")
    assert parse_formula("P(a) → Q(a) → R(a)") == BinOp("→", a, BinOp("→", b, c))
    assert parse_formula("P(a) ∧ Q(a) ∧ R(a)") == BinOp("∧", BinOp("∧", a, b), c)


def test_quantifier_scope_is_wide_and_binds_variables():
    tree = parse_formula("∀x Weddings(x) → GettingMarried(x)")
    x = Variable("x")
    assert tree == Quantified("∀", "x", BinOp("→", Pred("Weddings", (x,)), Pred("GettingMarried", (x,))))
    tree = parse_formula("∀x ∃y Loves(x, y, mother(x), z)")
    assert tree == Quantified("∀", "x", Quantified("∃", "y", Pred(
        "Loves", (x, Variable("y"), Func("mother", (x,)), Const("z"))))), "unbound z is a constant"


def test_equality_negation_and_multiword_constants():
    assert parse_formula("¬(f(a) = b)") == Not(Eq(Func("f", (Const("a"),)), Const("b")))
    assert parse_formula("ComeFrom(x, dc universe)") == Pred(
        "ComeFrom", (Const("x"), Const("dc universe")))
    assert parse_formula("∀x (P(x)) ∧ Q(x)").body.right.args == (Variable("x"),)


def test_identifier_characters_from_folio():
    texts = [t.text for t in lex_formula("Science-fiction(c++) ∧ Companies’Stocks(mr.smith) ⟷ P(a+)")
             if t.kind in ("IDENT", "OP")]
    assert texts == ["Science-fiction", "c++", "∧", "Companies’Stocks", "mr.smith", "↔", "P", "a+"]


@pytest.mark.parametrize("text, offset, reason", [
    ("P(x", 3, "expected ',' or ')'"),
    ("P(x))", 4, "unbalanced ')'"),
    ("∀ (P(x))", 2, "expected a variable"),
    ("P(x) ∧", 6, "expected a formula"),
    ("P(x) Q(x)", 5, "expected an operator"),
    ("P(x) ^ Q(x)", 5, "unexpected character '^'"),
    ("   ", 0, "empty formula"),
])
def test_errors_are_positioned(text, offset, reason):
    with pytest.raises(ParseError) as info:
        parse_formula(text)
    assert info.value.offset == offset
    assert reason in info.value.reason
    assert info.value.column == offset + 1


def test_caps_raise_resource_limit():
    with pytest.raises(ResourceLimitError, match="max_length"):
        parse_formula("P(a) ∧ " * 400 + "P(a)")
    thirty = " ∧ ".join(f"P{i}(a)" for i in range(30))
    assert len(atoms(parse_formula(thirty))) == 30
    with pytest.raises(ResourceLimitError, match="30 distinct atoms"):
        parse_formula(thirty, max_atoms=29)
    with pytest.raises(ResourceLimitError, match="deeper"):
        parse_formula("(" * 500 + "P(a)" + ")" * 500)
    with pytest.raises(ResourceLimitError, match="deeper"):
        parse_formula("¬" * 900 + "P(a)")


def test_rejects_non_string():
    with pytest.raises(TypeError, match="`text`"):
        parse_formula(None)  # type: ignore[arg-type]


_names = st.sampled_from(["P", "Q", "Rel"])
_consts = st.sampled_from(["a", "b", "dc universe"]).map(Const)
_atoms = st.builds(lambda n, args: Pred(n, tuple(args)), _names, st.lists(_consts, min_size=1,
                                                                           max_size=2))
_formulas = st.recursive(
    _atoms,
    lambda inner: st.one_of(
        inner.map(Not),
        st.builds(BinOp, st.sampled_from(["∧", "∨", "→", "↔", "⊕"]), inner, inner),
        st.builds(lambda q, f: Quantified(q, "v", f), st.sampled_from(["∀", "∃"]), inner),
    ),
    max_leaves=12,
)


@settings(derandomize=True, max_examples=300, deadline=None)
@given(_formulas)
def test_format_parse_round_trip(tree):
    # constants named like the bound variable would become Variable: none in this alphabet
    assert parse_formula(format_formula(tree)) == tree


def _le_shape(tree):
    """What LE's grammar should read: quantifiers gone, atoms as joined LogicLLaMA tokens."""
    from transted.fol.tokens import fol_tokens

    if isinstance(tree, Quantified):
        return _le_shape(tree.body)
    if isinstance(tree, Not):
        return Not(_le_shape(tree.body))
    if isinstance(tree, BinOp):
        return BinOp(tree.op, _le_shape(tree.left), _le_shape(tree.right))
    return Pred("".join(fol_tokens(format_formula(tree), split_equals=True)), ())


def test_explicit_format_is_read_the_same_by_le_on_all_folio():
    from transted.fol.le import parse_le

    checked = 0
    for text in folio_formulas():
        if text.strip() in MALFORMED:
            continue
        tree = parse_formula(text)
        explicit = format_formula(tree, explicit=True)
        assert parse_formula(explicit) == tree
        assert parse_le(explicit) == _le_shape(tree), text
        checked += 1
    assert checked == 2211 - len(MALFORMED)


def test_one_parser_two_readings():
    from transted.fol.le import parse_le
    from transted.fol.syntax import FOLIO, LOGICLLAMA

    text = "∀x (P(x) → Q(x) ∧ R(x))"
    p, q, r = (Pred(n, (Variable("x"),)) for n in "PQR")
    assert parse_formula(text, grammar=FOLIO) == Quantified("∀", "x", BinOp("→", p, BinOp("∧", q, r)))
    le_p, le_q, le_r = (Pred(f"{n}(x)", ()) for n in "PQR")
    assert parse_formula(text, grammar=LOGICLLAMA) == BinOp("∧", BinOp("→", le_p, le_q), le_r)
    assert parse_le(text) == parse_formula(text, grammar=LOGICLLAMA, max_atoms=None)
    with pytest.raises(ParseError, match="LE grammar: expected '\\(' or a predicate after '¬'"):
        parse_formula("¬¬P(a)", grammar=LOGICLLAMA)
    assert parse_formula("¬¬P(a)") == Not(Not(Pred("P", (Const("a"),))))
