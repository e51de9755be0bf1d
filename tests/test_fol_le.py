"""LE (transted.fol.le): LogicLLaMA's grammar, binding search, truth tables, guards."""

from __future__ import annotations

import itertools
import re
import time

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from nltk.metrics.distance import edit_distance

from transted.errors import ParseError, ResourceLimitError
from transted.fol.ast import BinOp, Not, Pred
from transted.fol.le import levenshtein, logical_equivalence, parse_le
from transted.fol.tokens import fol_tokens
from transted.metrics.fol_logicllama import FOLLogicalEquivalence
from transted.metrics.registry import get_metric
from transted.reading.pairs import Pair, Statement


def le(ref: str, cand: str, **kw) -> float:
    return logical_equivalence(parse_le(ref), parse_le(cand), **kw).score


def pair(ref: str, cand: str) -> Pair:
    return Pair(id="p", reference=Statement(statement=ref), candidate=Statement(statement=cand))


def test_tokens_issue_examples():
    assert fol_tokens("ComeFrom(x, dc universe)") == ["ComeFrom", "(", "x", ",", "DcUniverse", ")"]
    assert fol_tokens("¬Drinks(rina's)") == ["¬", "Drinks", "(", "Rinas", ")"]
    # a one-character token ends a run; quantifiers stay
    assert fol_tokens("∀x P(a b x cd ef)") == ["∀", "x", "P", "(", "a", "b", "x", "CdEf", ")"]


def test_grammar_folds_left_without_precedence():
    p, q, r = Pred("P(a)", ()), Pred("Q(a)", ()), Pred("R(a)", ())
    assert parse_le("P(a) → Q(a) ∧ R(a)") == BinOp("∧", BinOp("→", p, q), r)
    assert parse_le("∀x ¬(P(a) ∨ ¬Q(a))") == Not(BinOp("∨", p, Not(q)))


def test_atoms_are_token_strings_and_quantifiers_anywhere_are_dropped():
    tree = parse_le("∀x (Drinks(x, coffee) ∧ (∃y Likes(rina, dc universe)))")
    assert tree == BinOp("∧", Pred("Drinks(x,Coffee)", ()), Pred("Likes(Rina,DcUniverse)", ()))
    assert parse_le("f(g(a)) = b") == Pred("f(g(a))=b", ())   # extensions: = and nested terms


@pytest.mark.parametrize("text, reason", [
    ("¬¬P(a)", "expected '(' or a predicate after '¬'"),
    ("P(a) ∧", "expected '(' or a predicate"),
    ("P(a", "expected ')'"),
    ("∀ (P(a))", "expected a variable"),
    ("P(a) Q(a)", "expected an operator"),
    ("", "empty formula"),
])
def test_le_grammar_rejects(text, reason):
    with pytest.raises(ParseError, match=re.escape(reason)):
        parse_le(text)


@pytest.mark.parametrize("ref, cand, expected", [
    # hand-computed over the truth table (rows FF, FT, TF, TT)
    ("P(a) ∧ Q(a)", "P(a) ∨ Q(a)", 2 / 4),
    ("P(a) → Q(a)", "¬Q(a) → ¬P(a)", 1.0),          # contrapositive
    ("P(a) ∧ Q(a)", "P(a)", 3 / 4),                  # candidate padded with a dummy
    ("P(a) ⊕ Q(a)", "P(a) ↔ Q(a)", 0.0),
    ("∀x (W(x, c) → A(x, c))", "∃x (W(x, c) → A(x, c))", 1.0),   # paper 001 quantifier swap
    ("∀x (¬W(x, c) → A(x, c))", "∀x (W(x, c) → ¬A(x, c))", 2 / 4),  # paper 001 negation
])
def test_le_hand_computed(ref, cand, expected):
    assert le(ref, cand) == expected


def test_binding_search_order_and_top_n():
    # Eel(x) is nearest IsEel(x) (distance 2), so the first binding reads the candidate as
    # Fish → Eel (LE 2/4); the second binding swaps the atoms and is exact.
    result = logical_equivalence(parse_le("Eel(x) → Fish(x)"), parse_le("IsFish(x) → IsEel(x)"))
    assert result.score == 1.0
    assert result.bound_candidate_atoms == ["IsFish(x)", "IsEel(x)"]
    assert result.bindings_tried == 2
    assert le("Eel(x) → Fish(x)", "IsFish(x) → IsEel(x)", top_n=1) == 0.5


def test_levenshtein_matches_nltk():
    words = ["", "a", "Eel(x)", "IsEel(x)", "Fish(x)", "kitten", "sitting", "Drinks(Rina)"]
    for a, b in itertools.product(words, repeat=2):
        assert levenshtein(a, b) == edit_distance(a, b)


def test_metric_policy_for_unparseable_sides():
    metric = get_metric("fol-le")
    assert isinstance(metric, FOLLogicalEquivalence)
    bad_candidate = metric.score_pair(pair("P(a)", "P(a) ∧"))
    assert bad_candidate.score == 0.0 and "candidate" in bad_candidate.details["candidate_error"]
    bad_reference = metric.score_pair(pair("P(a) ∧", "P(a)"))
    assert bad_reference.score is None and bad_reference.status == "error"
    assert "p reference" in bad_reference.error
    ok = metric.score_pair(pair("∀x (Drinks(x) → Dependent(x))", "∀x (Drinks(x) → Dependent(x))"))
    assert ok.score == 1.0 and ok.details["reference_atoms"] == ["Drinks(x)", "Dependent(x)"]
    assert "metric:fol-le" in ok.signature and "top_n:1000" in ok.signature


def test_thirty_atoms_is_a_clean_error_without_allocation():
    thirty = " ∧ ".join(f"P{i}(a)" for i in range(30))
    start = time.perf_counter()
    result = get_metric("fol-le").score_pair(pair(thirty, thirty))
    assert result.score is None and "30 atoms" in result.error
    assert time.perf_counter() - start < 1.0
    with pytest.raises(ValueError, match="`max_atoms`"):
        FOLLogicalEquivalence(max_atoms=30)


def test_timeout_is_a_clean_error():
    ref = " ∧ ".join(f"P{i}(a)" for i in range(16))
    cand = " ∨ ".join(f"P{i}(a)" for i in range(16))
    with pytest.raises(ResourceLimitError, match="timeout"):
        logical_equivalence(parse_le(ref), parse_le(cand), timeout=1e-4)


@pytest.mark.parametrize("kwargs", [{"top_n": 0}, {"max_atoms": 0}, {"timeout": -1}])
def test_option_checks(kwargs):
    with pytest.raises(ValueError, match=f"`{next(iter(kwargs))}`"):
        FOLLogicalEquivalence(**kwargs)


def zip_(*lists):
    return zip(*lists, strict=False)


def _naive_value(tree, env):
    if isinstance(tree, Pred):
        return env[tree.name]
    if isinstance(tree, Not):
        return not _naive_value(tree.body, env)
    p, q = _naive_value(tree.left, env), _naive_value(tree.right, env)
    return {"∧": p and q, "∨": p or q, "⊕": p != q, "→": (not p) or q, "↔": p == q}[tree.op]


_ops = st.sampled_from(["∧", "∨", "→", "↔", "⊕"])
_lits = st.sampled_from(["P(a)", "Q(a)", "R(a)", "¬P(a)", "S(a, b)"])


@settings(derandomize=True, max_examples=150, deadline=None)
@given(st.lists(_lits, min_size=1, max_size=5), st.lists(_ops, min_size=4, max_size=4),
       st.lists(_lits, min_size=1, max_size=5), st.lists(_ops, min_size=4, max_size=4))
def test_bitset_truth_table_matches_naive_enumeration(lits1, ops1, lits2, ops2):
    ref_text = " ".join(x for pair_ in itertools.zip_longest(lits1, ops1[: len(lits1) - 1])
                        for x in pair_ if x)
    cand_text = " ".join(x for pair_ in itertools.zip_longest(lits2, ops2[: len(lits2) - 1])
                         for x in pair_ if x)
    ref, cand = parse_le(ref_text), parse_le(cand_text)
    assert logical_equivalence(ref, ref).score == 1.0
    result = logical_equivalence(ref, cand, top_n=1)
    atoms = result.reference_atoms
    bound = dict(zip_(logical_equivalence(ref, cand, top_n=1).bound_candidate_atoms or [], atoms))
    if not bound:
        assert result.score == 0.0
        return
    rows = list(itertools.product([False, True], repeat=len(atoms)))
    agree = sum(_naive_value(ref, dict(zip_(atoms, row)))
                == _naive_value(cand, {c: dict(zip_(atoms, row))[r] for c, r in bound.items()})
                for row in rows)
    assert result.score == agree / len(rows)
