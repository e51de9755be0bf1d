"""Definitional hypotheses substituted away (issue 33, item 5): ``subst``/``funext`` moves."""

from __future__ import annotations

import pytest

from transted.budget import Budget
from transted.metrics.registry import get_metric
from transted.pipeline.opt import parse_statement_normalized, parse_term
from transted.pipeline.opt.canonical import canonical
from transted.pipeline.search.state import State
from transted.pipeline.search.subst import subst_moves
from transted.reading.pairs import Pair


def _tree(text: str):
    return parse_statement_normalized(text).tree


def _substituted(text: str) -> list:
    tree = _tree(text)
    return [m.state.lhs for m in subst_moves(State(tree, parse_term("True")))]


def _same(a, b) -> bool:
    return canonical(a, {}, 0) == canonical(b, {}, 0)


def test_issue_example_meets_the_written_out_statement():
    metric = get_metric("transted", providers="offline,decide")
    pair = Pair.model_validate({
        "id": "subst", "reference": {"statement": "theorem t (s : ℕ) (h₀ : s = ∑ k ∈ "
                                                  "Finset.Icc 1 9, k) : s % 7 = 3 := sorry"},
        "candidate": {"statement": "theorem t : (∑ k ∈ Finset.Icc 1 9, k) % 7 = 3 := sorry"}})
    result = metric.score_pair(pair)
    assert result.details["status"] == "found"
    assert result.details["script"][0].startswith("simp only [forall_eq, forall_eq']")


def test_a_leaf_of_the_variables_type_goes_in_as_written():
    (out,) = _substituted("theorem t (s : ℕ) (h : s = ∑ k ∈ Finset.Icc 1 9, k) : s % 7 = 3 "
                          ":= sorry")
    assert _same(out, _tree("theorem t : (∑ k ∈ Finset.Icc 1 9, k) % 7 = 3 := sorry"))


def test_an_operator_value_keeps_its_type_ascribed():
    # x : ℝ := n - 1 is real subtraction of ↑n; put in bare into `x * 2` it would still be,
    # but in a context of another type it would not: the value is ascribed (n - 1 : ℝ)
    (out,) = _substituted("theorem t (n : ℕ) (x : ℝ) (h : x = n - 1) : x * 2 = 4 := sorry")
    assert "(<SLOT> : <SLOT>)" in out.labels()
    assert _same(out, _tree("theorem t (n : ℕ) : ((n - 1 : ℝ)) * 2 = 4 := sorry"))


def test_a_coerced_leaf_keeps_its_cast():
    # the sum is elaborated in ℕ (value 2) then cast: it must not become a real sum (value 3)
    (out,) = _substituted("theorem t (x : ℝ) (h : x = ∑ k ∈ Finset.range 4, k / 2) : "
                          "x + 1 = 3 := sorry")
    labels = out.labels()
    assert labels.count("(<SLOT> : <SLOT>)") == 2  # ((∑ … : ℕ) : ℝ)
    assert "ℕ" in labels and "ℝ" in labels


@pytest.mark.parametrize("text", [
    # the variable is in a binder's type (a dependent type): substituting changes that type
    "theorem t (n : ℕ) (v : Fin n) (h : n = 3) : v.val < 3 := sorry",
    # defined in terms of itself: not a definition
    "theorem t (x : ℕ) (h : x = x * 1) : x = 0 := sorry",
    # the definition mentions a variable bound after it: it would leave its scope
    "theorem t (x : ℕ) (hx : 0 < x) (y : ℕ) (h : x = y + 1) : x = y + 1 := sorry",
])
def test_refused_where_the_substitution_would_change_the_statement(text):
    assert _substituted(text) == []


def test_no_capture_by_a_later_binder():
    (out,) = _substituted("theorem t (y : ℕ) (x : ℕ) (h : x = y) : ∀ y : ℕ, x + y = y + x "
                          ":= sorry")
    # the inner ∀ y is renamed, so `x := y` still means the outer y
    expected = _tree("theorem t (y : ℕ) : ∀ z : ℕ, y + z = z + y := sorry")
    assert _same(out, expected)


def test_a_function_defined_pointwise_is_substituted_and_beta_reduced():
    (out,) = _substituted("theorem t (f : ℕ → ℕ) (h : ∀ x, f x = 2 * x + 1) : f 3 = 7 "
                          ":= sorry")
    assert _same(out, _tree("theorem t : 2 * (3 : ℕ) + 1 = 7 := sorry"))


def test_a_spent_budget_stops_the_walk():
    tree = parse_term("∀ s : ℕ, s = 45 → s % 7 = 3")
    spent = Budget(max_work=1)
    spent.charge(2)
    assert list(subst_moves(State(tree, parse_term("True")), spent)) == []
    assert list(subst_moves(State(tree, parse_term("True")), Budget()))  # the same walk, unspent
