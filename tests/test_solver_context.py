"""A z3 answer (a refutation's witness) must not depend on what the process solved before.

In z3's shared ``main_ctx`` the terms of earlier calls stay and steer the model a later call
returns: the same formula gave ``a = 38, b = 1`` first and ``a = 10, b = 9`` after fifty
other calls (measured with z3-solver 4.x). Each :class:`Encoder` now has its own context.
"""

from __future__ import annotations

import z3

from transted.pipeline.evidence.smt import Encoder, check_sat


def _model() -> dict:
    enc = Encoder()
    a, b = enc.var("a", "ℕ"), enc.var("b", "ℕ")
    result = check_sat(enc, z3.And(a * b > 30, a + b < 40, a % 7 == 3),
                       timeout_ms=5000, rlimit=2_000_000)
    assert result.status == "sat"
    return result.model


def _other_calls(n: int) -> None:
    for i in range(n):
        enc = Encoder()
        x, y = enc.var("b", "ℕ"), enc.var(f"z{i}", "ℤ")
        assert check_sat(enc, z3.And(x * y > i * 13 + 5, x > y, y > i % 5),
                         timeout_ms=5000, rlimit=2_000_000).status == "sat"


def test_the_same_formula_gets_the_same_model_after_other_calls():
    first = _model()
    _other_calls(50)
    assert _model() == first


def test_each_encoder_has_its_own_context_made_at_first_use():
    enc, other = Encoder(), Encoder()
    assert enc._ctx is None  # no z3 cost for an encoder that never reaches z3
    assert enc.var("x", "ℤ").ctx is not other.var("x", "ℤ").ctx
