"""The one budget of a pair (transted.budget): stages share the pair's deadline, keep their
own work counters, and the evidence engines read it in one place."""

from __future__ import annotations

from fractions import Fraction

import pytest

from transted.budget import Budget
from transted.pipeline.evidence import RefuteOptions, pair_evidence
from transted.pipeline.evidence.evaluate import evaluate_term, stops_at
from transted.pipeline.evidence.refute import engine_budget, left_ms
from transted.pipeline.evidence.terms import Big, Num, Unsupported, Var
from transted.pipeline.opt import parse_statement


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
    assert evaluate_term(total, {}) == 500500
    clock = FakeClock()
    spent = Budget(max_time=1.0, clock=clock)
    clock.now += 2
    with stops_at(spent), pytest.raises(Unsupported, match="evaluation deadline"):
        evaluate_term(total, {})
    with stops_at(Budget(max_time=60.0)):
        assert evaluate_term(total, {}) == 500500


def test_evidence_after_the_pairs_deadline_says_timeout():
    clock = FakeClock()
    pair = Budget(max_time=1.0, clock=clock)
    clock.now += 2
    ref = parse_statement("theorem t (x : ℕ) (h : 0 < x) : 1 ≤ x")
    cand = parse_statement("theorem t (x : ℕ) (h : 0 < x) : 2 ≤ x")
    ev = pair_evidence(ref, cand, RefuteOptions(), pair)
    assert ev.kind == "none" and ev.reason.startswith("timeout (safety net 0 ms)")
    assert pair.deadline_hit  # what ends the pair as a timeout (never as this `none`)
    # the same pair with time left: refuted (x = 1)
    assert pair_evidence(ref, cand, RefuteOptions()).kind == "refuted"


def test_a_stage_reaching_its_deadline_marks_every_budget_it_came_from():
    clock = FakeClock()
    pair = Budget(max_time=10.0, clock=clock)
    engines = pair.within(2.0)
    half = engines.within(1.0)
    assert not half.spent()
    clock.now += 1.5
    assert half.remaining_time() == 0  # asking is enough: the caller stops here
    assert (half.deadline_hit, engines.deadline_hit, pair.deadline_hit) == (True, True, True)
    assert pair.reason == "time" and pair.spent()  # no later stage of the pair starts


def test_work_limits_mark_no_deadline():
    pair = Budget(max_work=2, max_time=10.0)
    stage = pair.within(1.0)
    assert pair.charge(2) and pair.reason == "work"
    assert not stage.spent()
    assert not (pair.deadline_hit or stage.deadline_hit)


def _pair(ref: str, cand: str):
    from transted.reading.pairs import Pair, Statement

    return Pair(id="p", reference=Statement(statement=ref), candidate=Statement(statement=cand))


PAIR = ("theorem t (x : ℕ) (h : 0 < x) : 1 ≤ x", "theorem t (x : ℕ) (h : 0 < x) : 2 ≤ x")


def test_an_evidence_safety_net_reached_ends_the_pair_as_a_timeout():
    from transted.metrics.registry import get_metric

    quick = get_metric("transted", max_time=None,
                       evidence_options=RefuteOptions(budget_ms=1e-6))
    result = quick.score_pair(_pair(*PAIR))
    assert (result.status, result.score, result.verdict) == ("timeout", None, None)
    assert result.error == ("timeout: an evidence engine passed its safety net (budget_ms 1e-06 ms, "
                            "call_timeout_ms 1000 ms)")
    # with its default safety net the pair is refuted (x = 1), on any machine
    plain = get_metric("transted", max_time=None).score_pair(_pair(*PAIR))
    assert (plain.status, plain.details["evidence"], plain.score) == ("ok", "refuted", 0.0)


def test_the_work_budget_is_an_answer_not_a_timeout():
    from transted.metrics.registry import get_metric

    result = get_metric("transted", max_work=1, evidence=False).score_pair(
        _pair("theorem t (a b : ℕ) : a + b = b + a", "theorem t (a b : ℕ) : b + a = a + b"))
    assert result.status == "ok" and result.details["status"] == "exhausted"
    assert result.details["expanded"] == 1
