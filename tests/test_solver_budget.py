"""A z3 call's answer comes from its rlimit; its wall-clock timeout only ends the pair."""

from __future__ import annotations

from fractions import Fraction

import z3

from transted.budget import Budget
from transted.metrics.registry import get_metric
from transted.pipeline.evidence import RefuteOptions
from transted.pipeline.evidence.refute import solve
from transted.pipeline.evidence.smt import Encoder
from transted.pipeline.evidence.terms import Num, Op, Var
from transted.reading.pairs import Pair, Statement

# minif2f numbertheory_aoddbdiv4asqpbsqmod8eq1: z3's nonlinear integer arithmetic runs ~2 s on
# it while its resource counter moves ~3,300 units, so the wall clock, not rlimit, ends it
HARD = ("theorem t (a : ℤ) (b : ℕ) (h₀ : Odd a) (h₁ : 4 ∣ b) : (a ^ 2 + b ^ 2) % 8 = 1",
        "theorem t (a : ℤ) (b : ℕ) (h₀ : Odd a) (h₁ : 4 ∣ b) : (a ^ 2 + b ^ 2) % 8 = 1 ∨ a = 0")


def _cube(v: Var) -> Op:
    return Op("pow", (v, Num(Fraction(3), "ℕ")), "ℤ")


def _cube_sum() -> tuple[Encoder, z3.BoolRef]:
    """``x³ + y³ = z³`` with ``x, y, z`` positive integers: hard for z3."""
    enc = Encoder()
    x, y, z = (Var(n, "ℤ") for n in "xyz")
    one = Num(Fraction(1), "ℤ")
    eq = Op("eq", (Op("add", (_cube(x), _cube(y)), "ℤ"), _cube(z)), "Prop")
    pos = [Op("le", (one, v), "Prop") for v in (x, y, z)]
    return enc, z3.And(enc.encode(eq), *(enc.encode(p) for p in pos))


def test_a_call_ended_by_its_rlimit_is_an_answer_not_a_timeout():
    enc, formula = _cube_sum()
    budget = Budget(max_time=60.0)
    res = solve(enc, formula, budget, RefuteOptions(rlimit=1000, call_timeout_ms=60_000))
    assert res.status == "unknown" and res.reason == "z3: resource limit (rlimit)"
    assert not budget.deadline_hit


def test_a_call_ended_by_the_wall_clock_marks_the_pairs_deadline():
    enc, formula = _cube_sum()
    pair = Budget(max_time=60.0)
    stage = pair.within(30.0)
    res = solve(enc, formula, stage, RefuteOptions(rlimit=None, call_timeout_ms=1))
    assert res.reason == "z3: timeout"
    assert stage.deadline_hit and pair.deadline_hit and pair.spent()


def test_a_pair_whose_solver_call_ends_by_the_clock_is_a_timeout():
    result = get_metric("transted", max_time=None).score_pair(
        Pair(id="p", reference=Statement(statement=HARD[0]),
             candidate=Statement(statement=HARD[1])))
    assert result.status == "timeout" and result.score is None
    assert "call_timeout_ms 1000 ms" in (result.error or "")
