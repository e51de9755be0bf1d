"""Budgets (issue 14 item 1, search side): work-bounded limits are deterministic, the
deadline is checked inside expansions and gives ``timeout`` with the best distance so far."""

from __future__ import annotations

import multiprocessing
import time
from itertools import count

import pytest

from transted.budget import Budget, BudgetExceeded
from transted.loading import collector_paused
from transted.metrics.ted import TEDSimilarity
from transted.pipeline.opt.node import Node
from transted.pipeline.search.engine import SearchConfig, search
from transted.pipeline.search.providers.base import Move
from transted.pipeline.search.providers.offline import OfflineProvider, RuleProvider
from transted.pipeline.search.state import State
from transted.reading.pairs import read_pairs

DEV = "tests/data/gted/proofnet.jsonl"


class FakeClock:
    def __init__(self) -> None:
        self.now = 100.0

    def __call__(self) -> float:
        return self.now


def test_work_limit_is_sticky_and_named():
    budget = Budget(max_work=3)
    assert [budget.charge() for _ in range(4)] == [False, False, True, True]
    assert budget.reason == "work" and not budget.timed_out and budget.work == 4


def test_deadline_on_a_fake_clock():
    clock = FakeClock()
    budget = Budget(max_time=2.0, clock=clock)
    assert not budget.spent() and budget.remaining_time() == 2.0
    clock.now += 2.5
    assert budget.spent() and budget.timed_out and budget.remaining_time() == 0.0
    with pytest.raises(BudgetExceeded, match="deadline"):
        budget.check()


@pytest.mark.parametrize("kwargs", [{"max_work": -1}, {"max_work": 1.5}, {"max_time": 0},
                                    {"max_time": True}])
def test_bad_budget_arguments(kwargs):
    with pytest.raises(ValueError, match="`max_"):
        Budget(**kwargs)


class EndlessProvider:
    """Yields ever new goals ``f = g_k`` (k = 1, 2, …), slowly; checks the budget."""

    name, version = "endless", "1"

    def __init__(self, delay: float = 0.0):
        self.delay = delay

    def moves(self, state, budget):
        for k in count(1):
            if budget.spent():
                return
            time.sleep(self.delay)
            yield Move("step", "skip", State(state.lhs, Node(f"g{k}")))


def test_max_work_stops_inside_the_first_expansion():
    a, b = Node.from_text("{f}"), Node.from_text("{g}")
    result = search(a, b, EndlessProvider(), config=SearchConfig(max_work=5, max_time=None))
    # one expansion, and inside it exactly 5 moves (the endless generator is cut mid-way)
    assert result.stats["expanded"] == 1 and result.stats["work"] == 5
    assert result.stats["generated"] == 5 and result.status == "exhausted"


def test_deadline_fires_inside_an_expansion_with_best_so_far():
    a, b = Node.from_text("{f}"), Node.from_text("{g}")
    t = time.perf_counter()
    result = search(a, b, EndlessProvider(delay=0.01),
                    config=SearchConfig(max_expansions=1, max_time=0.1, max_work=None))
    elapsed = time.perf_counter() - t
    assert result.status == "timeout" and result.stats["expanded"] == 1
    assert elapsed < 1.0  # 10x the budget
    assert result.distance == 1 == result.start_distance  # best so far: every goal has TED 1


def _dev_trees():
    ted = TEDSimilarity()
    return {p.id: ted.trees(p) for p in read_pairs(DEV) if p.id in {
        "proofnet/exercise_1_1b/4", "proofnet/exercise_4_6/84"}}


def test_tiny_deadline_on_a_real_search_times_out_within_10x():
    a, b = _dev_trees()["proofnet/exercise_4_6/84"]
    provider = OfflineProvider()  # loading the rule file is not part of the search
    full = search(a, b, provider, config=SearchConfig(max_expansions=200, max_time=None))
    assert full.stats["expanded"] > 8  # a search that takes many expansions
    # the collector paused as a batch pauses it for a pair (running/executors/guard.py): a full
    # collection of the heap earlier tests left (the lemma table's, ~0.5 s) is not the search's
    with collector_paused():
        t = time.perf_counter()
        result = search(a, b, provider,
                        config=SearchConfig(max_expansions=200, max_time=0.02, max_work=None))
        elapsed = time.perf_counter() - t
    assert result.status == "timeout" and elapsed < 0.2
    assert result.stats["expanded"] < full.stats["expanded"]
    assert full.distance <= result.distance <= result.start_distance


def test_a_spent_budget_stops_the_rule_provider():
    a, b = _dev_trees()["proofnet/exercise_1_1b/4"]
    state = State(a, b)
    provider = RuleProvider()
    assert list(provider.moves(state, Budget()))  # there are rewrites to make
    spent = Budget(max_work=0)
    assert list(provider.moves(state, spent)) == []


def _burn(stop) -> None:
    while not stop.is_set():
        pass


def test_same_expanded_and_distance_under_a_cpu_burner():
    a, b = _dev_trees()["proofnet/exercise_4_6/84"]
    config = SearchConfig(max_expansions=12)  # default deadline, default work limit
    provider = OfflineProvider()
    quiet = search(a, b, provider, config=config)
    ctx = multiprocessing.get_context("fork")
    stop = ctx.Event()
    burners = [ctx.Process(target=_burn, args=(stop,), daemon=True) for _ in range(2)]
    for p in burners:
        p.start()
    try:
        loaded = search(a, b, provider, config=config)
    finally:
        stop.set()
        for p in burners:
            p.join(5)
    assert quiet.status != "timeout" and loaded.status == quiet.status
    assert loaded.stats["expanded"] == quiet.stats["expanded"] == 12
    assert loaded.stats["work"] == quiet.stats["work"]
    assert loaded.distance == quiet.distance and loaded.script == quiet.script


class RaisingProvider:
    """One good move, then a long loop that can only stop by raising BudgetExceeded."""

    name, version = "raising", "1"

    def moves(self, state, budget):
        yield Move("drop", "simp", State(Node.from_text("{f{x}}"), state.rhs))
        while True:
            time.sleep(0.005)
            budget.check(1)


def test_budget_exceeded_inside_a_provider_keeps_the_best_so_far():
    a, b = Node.from_text("{f{x}{y}}"), Node.from_text("{g}")
    result = search(a, b, RaisingProvider(),
                    config=SearchConfig(max_expansions=3, max_time=0.05, max_work=None))
    assert result.status == "timeout" and result.start_distance == 3
    assert result.distance == 2 and [s.name for s in result.path] == ["drop"]
