"""The one budget of a pair (transted.budget): stages share the pair's deadline, keep their
own work counters, and the evidence engines read it in one place."""

from __future__ import annotations

from fractions import Fraction

import pytest

from transted.budget import Budget
from transted.evidence import RefuteOptions, pair_evidence
from transted.evidence.evaluate import evaluate, stops_at
from transted.evidence.refute import engine_budget, left_ms
from transted.evidence.terms import Big, Num, Unsupported, Var
from transted.opt import parse_statement


class FakeClock:
    def __init__(self) -> None:
        self.now = 50.0

    def __call__(self) -> float:
        return self.now


def test_a_stage_ends_at_the_pairs_deadline_when_that_comes_first():
    clock = FakeClock()
    pair = Budget(max_time=1.0, clock=clock)
    clock.now += 0.75
    stage = pair.within(2.0)
    assert stage.max_time == pytest.approx(0.25) and stage.remaining_time() == pytest.approx(0.25)
    assert pair.within(0.1).max_time == pytest.approx(0.1)  # its own net, when that is sooner
    clock.now += 0.5
    assert stage.spent() and stage.timed_out and stage.elapsed() == pytest.approx(0.5)


def test_a_stage_of_an_unlimited_or_expired_pair():
    clock = FakeClock()
    assert Budget(clock=clock).within(2.0).max_time == 2.0
    pair = Budget(max_time=1.0, clock=clock)
    clock.now += 3
    stage = pair.within(2.0)
    assert stage.max_time == 0 and stage.remaining_time() == 0 and stage.spent()


def test_a_stage_counts_its_own_work():
    pair = Budget(max_work=2)
    stage = pair.within(5.0)
    pair.charge(2)
    assert pair.spent() and pair.reason == "work"
    assert stage.work == 0 and not stage.spent()


def test_engine_budget_is_the_safety_net_in_seconds():
    options = RefuteOptions(budget_ms=500.0)
    assert engine_budget(options).max_time == pytest.approx(0.5)
    assert left_ms(Budget()) == float("inf")
    clock = FakeClock()
    pair = Budget(max_time=0.2, clock=clock)
    assert left_ms(engine_budget(options, pair)) == pytest.approx(200.0)


def test_evaluation_stops_at_a_spent_budget():
    total = Big("sum", "i", "ℕ", Num(Fraction(0), "ℕ"), Num(Fraction(1000), "ℕ"),
                Var("i", "ℕ"), "ℕ", False)
    assert evaluate(total, {}) == 500500
    clock = FakeClock()
    spent = Budget(max_time=1.0, clock=clock)
    clock.now += 2
    with stops_at(spent), pytest.raises(Unsupported, match="evaluation deadline"):
        evaluate(total, {})
    with stops_at(Budget(max_time=60.0)):
        assert evaluate(total, {}) == 500500


def test_evidence_after_the_pairs_deadline_says_timeout():
    clock = FakeClock()
    pair = Budget(max_time=1.0, clock=clock)
    clock.now += 2
    ref = parse_statement("theorem t (x : ℕ) (h : 0 < x) : 1 ≤ x")
    cand = parse_statement("theorem t (x : ℕ) (h : 0 < x) : 2 ≤ x")
    ev = pair_evidence(ref, cand, RefuteOptions(), pair)
    assert ev.kind == "none" and ev.reason.startswith("timeout (safety net 0 ms)")
    # the same pair with time left: refuted (x = 1)
    assert pair_evidence(ref, cand, RefuteOptions()).kind == "refuted"
