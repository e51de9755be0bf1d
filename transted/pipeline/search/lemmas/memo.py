"""What a lemma instance gives at a subterm, kept for the process.

The search meets the same subterm in state after state (a move changes one place of a side, and
every goal that keeps the rest asks again), and each time the lemma search would instantiate the
lemma's other side and conditions, elaborate the new subterm alone (step 4 of
:mod:`~transted.pipeline.search.lemmas.rewrite`) and call the evidence engines on the side
conditions (step 5), the last two being most of a search's lemma time. Each answer kept here is a
function of its key alone — instantiation is syntactic, the elaborator reads only the tree and the
types it is given, and the engines are deterministic (z3 under its ``rlimit``, its own context per
call) — so a kept answer is the one a fresh computation gives, and the moves do not change; a full
memo is cleared (only speed changes). A side condition's answer is neither kept nor taken from the
memo once the pair's budget has run out: it may be the budget's, not the condition's.
"""

from __future__ import annotations

from collections.abc import Hashable, Mapping, Sequence

from transted.budget import Budget
from transted.pipeline.evidence.refute import RefuteOptions
from transted.pipeline.opt.node import Node
from transted.pipeline.search.lemmas.conditions import PathContext, discharge_conditions
from transted.pipeline.search.memo import Memo

__all__ = ["DischargeMemo"]


class DischargeMemo:
    """:func:`~transted.pipeline.search.lemmas.conditions.discharge_conditions`, each answer kept
    by the conditions, the premises and number variables it was asked with, and the engines'
    options (the only inputs it reads)."""

    def __init__(self, limit: int) -> None:
        self._memo: Memo[Hashable, tuple[str, ...] | None] = Memo(limit)

    def discharge(self, conditions: Sequence[Node], context: PathContext,
                  options: RefuteOptions, budget: Budget) -> tuple[str, ...] | None:
        if budget.spent():  # the answer is the budget's: as discharge_conditions gives it
            return discharge_conditions(conditions, context, options, budget)
        key = (tuple(conditions), context.premises, _items(context.variables), options)
        kept, answer = self._memo.lookup(key)
        if kept:
            return answer
        answer = discharge_conditions(conditions, context, options, budget)
        if not budget.spent():  # else the engines may have been cut short by the deadline
            self._memo.put(key, answer)
        return answer


def _items(mapping: Mapping[str, str]) -> tuple[tuple[str, str], ...]:
    return tuple(mapping.items())
