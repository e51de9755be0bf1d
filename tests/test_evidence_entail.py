"""Hypothesis entailment (transted.pipeline.evidence.entail): proofs only, premises outside the fragment
left out, vacuous premises never discharge."""

from __future__ import annotations

from transted.pipeline.evidence.entail import entails, equal_under, in_fragment, number_variables
from transted.pipeline.opt import parse_statement_normalized
from transted.pipeline.opt.parts import statement_parts


def _parts(statement: str):
    parts = statement_parts(parse_statement_normalized(f"theorem t {statement} := sorry").tree)
    return ([p.node for p in parts.hypotheses], parts.conclusion.node,
            number_variables([p.node for p in parts.binders]))


def test_number_variables_keep_only_number_typed_binders():
    _, _, variables = _parts("(x : ℝ) (n : ℕ) (s : Finset ℕ) (f : ℕ → ℕ) : f n ∈ s ∧ x = x")
    assert variables == {"x": "ℝ", "n": "ℕ"}


def test_an_implied_hypothesis_is_proved_and_a_free_one_is_not():
    hyps, _, v = _parts("(x y : ℝ) (h₀ : x * y = 6) (h₁ : 0 < x) (h₂ : 0 < y) (h₃ : 1 < y) : True")
    proof = entails(hyps[:2], hyps[2], v)  # x * y = 6 ∧ 0 < x → 0 < y
    assert proof is not None and proof.premises == (0, 1) and proof.tactics
    assert entails(hyps[:2], hyps[3], v) is None  # x = 6, y = 1: not 1 < y
    assert entails(hyps[1:2], hyps[2], v) is None  # 0 < x alone says nothing about y


def test_vacuous_premises_and_valid_goals_discharge_nothing():
    hyps, _, v = _parts("(x : ℝ) (h₁ : x < 0) (h₂ : 0 < x) (h₃ : x = 5) (h₄ : 0 ≤ x ^ 2) : True")
    assert entails(hyps[:2], hyps[2], v) is None  # unsatisfiable premises
    assert entails([], hyps[3], v) is None  # no premise: a valid goal is not discharged


def test_premises_outside_the_fragment_are_left_out_goals_outside_refused():
    hyps, concl, v = _parts("(x y : ℝ) (h₀ : Real.log x = y) (h₁ : x = 2) (h₂ : 0 < x) : "
                            "Real.exp x > 0")
    assert not in_fragment(hyps[0], v) and in_fragment(hyps[1], v)
    proof = entails(hyps[:2], hyps[2], v)
    assert proof is not None and proof.premises == (1,)  # log is not modelled: dropped
    assert entails(hyps[1:2], concl, v) is None  # exp is not modelled: no claim


def test_equal_under_substitutes_values_the_hypotheses_fix():
    hyps, _, v = _parts("(x y : ℝ) (h₀ : x = 2) (h₁ : y = x + 1) : True")
    x, two = hyps[0].children
    assert equal_under(hyps, x, two, v) is not None
    y = hyps[1].children[0]
    assert equal_under(hyps, y, two, v) is None  # y = 3


def test_in_fragment_is_the_rfl_closing_of_a_proposition_with_itself():
    # in_fragment answers from the translation alone (kept for the process): it must agree
    # with what it stands for, decide_trees(p, p) closing by rfl without a solver
    from transted.pipeline.evidence.decide import decide_trees
    hyps, concl, v = _parts("(x y : ℝ) (n : ℕ) (s : Finset ℕ) (h₀ : Real.log x = y) (h₁ : x = 2) "
                            "(h₂ : n ∈ s) (h₃ : (n : ℝ) < x ^ 2) (h₄ : ∀ k : ℕ, k < n → k ≤ n) : "
                            "Real.exp x > 0")
    for prop in [*hyps, concl]:
        for _ in range(2):  # the second answer is the kept one
            assert in_fragment(prop, v) == (decide_trees(prop, prop, v) is not None)
    assert [in_fragment(h, v) for h in hyps] == [False, True, False, True, True]
