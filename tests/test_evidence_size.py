"""Exact evaluation is bounded by the size of its results (MAX_VALUE_BITS), not by the clock."""

from __future__ import annotations

import math
from fractions import Fraction

import pytest

import transted
from transted.pipeline.evidence.evaluate import MAX_RANGE, MAX_VALUE_BITS, evaluate_term
from transted.pipeline.evidence.terms import Big, Num, Op, Unsupported, Var


def _n(value: int | Fraction, typ: str = "ℕ") -> Num:
    return Num(Fraction(value), typ)


def _pow(base, exponent: int, typ: str = "ℕ") -> Op:
    return Op("pow", (base, _n(exponent)), typ)


def test_a_power_past_the_cap_abstains_before_it_is_computed():
    n = Var("n", "ℕ")
    nested = _pow(_pow(_pow(n, 250), 250), 250)  # n ^ 15,625,000
    with pytest.raises(Unsupported, match="cap"):
        evaluate_term(nested, {"n": 7})
    # 0, 1 (and -1) stay exact at any size: their powers are small
    assert evaluate_term(nested, {"n": 1}) == 1
    assert evaluate_term(nested, {"n": 0}) == 0
    # just under the cap the value is computed exactly
    assert evaluate_term(_pow(_n(2), 256), {}) == 2**256
    assert evaluate_term(_pow(_pow(_n(2), 256), 255), {}) == 2 ** (256 * 255)


def test_fraction_powers_are_sized_by_numerator_and_denominator():
    x = Var("x", "ℚ")
    assert evaluate_term(_pow(x, 3, "ℚ"), {"x": Fraction(1, 2)}) == Fraction(1, 8)
    with pytest.raises(Unsupported, match="cap"):
        evaluate_term(_pow(_pow(x, 256, "ℚ"), 256, "ℚ"), {"x": Fraction(1, 3)})


def test_products_and_factorials_are_held_to_the_cap():
    assert evaluate_term(Op("fact", (_n(MAX_RANGE),), "ℕ"), {}) == math.factorial(MAX_RANGE)
    big = Op("fact", (_n(MAX_RANGE),), "ℕ")
    with pytest.raises(Unsupported, match="cap"):
        evaluate_term(Op("mul", (_pow(big, 3), _pow(big, 3)), "ℕ"), {})  # 6 × 19,053 bits
    # ∏ i in [1, 2000], i^8 = (2000!)^8: each factor is small (≤ 88 bits), the product
    # (152,424 bits) passes the cap on the way
    i = Var("i", "ℕ")
    prod = Big("prod", "i", "ℕ", _n(1), _n(2000), _pow(i, 8), "ℕ", False)
    with pytest.raises(Unsupported, match="cap"):
        evaluate_term(prod, {})
    assert 8 * math.factorial(2000).bit_length() > MAX_VALUE_BITS


@pytest.mark.parametrize("reference, candidate", [
    # measured before the cap: past the pair's 10 s deadline (18 s), and > 100 s
    ("theorem t (n : ℕ) (h : 0 < n) : ((n ^ 250) ^ 250) ^ 250 > 0",
     "theorem t (n : ℕ) (h : 0 < n) : ((n ^ 250) ^ 250) ^ 250 ≥ 1"),
    # (`n !` is notation scoped in Nat: without `open Nat` Lean does not read it, so the
    # function is named)
    ("theorem t (n : ℕ) : (Nat.factorial 2000 ^ 256) ^ 256 = n",
     "theorem t (n : ℕ) : (Nat.factorial 2000 ^ 256) ^ 256 = n + 1"),
])
def test_a_pair_of_huge_values_gets_an_answer_not_a_timeout(reference, candidate):
    result = transted.score(reference, candidate, "transted")
    assert result.status == "ok"
    assert result.details["evidence"] == "none"
    assert "not exactly evaluable" in result.details["evidence_detail"]["reason"]
