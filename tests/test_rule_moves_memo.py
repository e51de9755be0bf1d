"""A goal's side seen before (the side a move kept) gets its rewrites from the provider's memo:
the same moves, in the same order, with the same budget checks, as found afresh."""

from __future__ import annotations

from transted.budget import Budget
from transted.pipeline.opt import parse_term
from transted.pipeline.search.providers.offline import RuleProvider
from transted.pipeline.search.state import State


def _moves(provider: RuleProvider, state: State, budget: Budget) -> list[tuple[str, tuple]]:
    return [(m.name, m.state.key, m.tactic_text()) for m in provider.moves(state, budget)]


def test_a_kept_side_gets_the_same_rewrites_from_the_memo():
    lhs, rhs = parse_term("a * (b + c) + 0 = d"), parse_term("(c + b) * a ≤ d * 1")
    first = State(lhs, rhs)
    memo = RuleProvider()
    moves = _moves(memo, first, Budget())
    assert len(moves) > 5
    child = next(m.state for m in memo.moves(first, Budget()) if m.state.rhs is rhs)
    assert (id(rhs), id(child.context)) in memo._found  # its rhs was tried with `first`
    assert _moves(memo, child, Budget()) == _moves(RuleProvider(), child, Budget())


def _consumed(provider: RuleProvider, state: State, work: int) -> list[tuple]:
    """The moves the engine takes under ``max_work=work`` (it charges one unit per move)."""
    budget, out = Budget(max_work=work), []
    for move in provider.moves(state, budget):
        out.append(move.state.key)
        if budget.charge():
            break
    return out


def test_a_spent_budget_stops_a_replay_where_it_stops_a_first_search():
    state = State(parse_term("a * (b + c) + 0 = d"), parse_term("(c + b) * a ≤ d * 1"))
    memo = RuleProvider()
    everything = _moves(memo, state, Budget())
    for work in range(1, len(everything) + 2):
        assert _consumed(memo, state, work) == _consumed(RuleProvider(), state, work)
    assert len(_consumed(memo, state, 3)) == 3
