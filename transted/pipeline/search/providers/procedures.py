"""``decide``: close a goal between aligned components with a decision procedure.

After the congruence moves have aligned binders and hypotheses, a goal ``A = B`` between two
propositions over the goal's locals (``x : ℕ ⊢ Even x = (x % 2 = 0)``) is closed when
:func:`transted.pipeline.evidence.decide_trees` proves ``A ↔ B`` (``rfl``, sympy ``ring_nf``, z3 named
``omega``/``linarith``/``nlinarith``, componentwise ``and_congr``…). The move goes to the
closed goal and its tactic is the Lean text that would close ``A = B`` (``propext`` turns the
``↔`` into the equality), so ``SearchResult.script`` replays in Lean.

Vacuity guard (the engine's rule, docs/EVIDENCE.md): a decision closes ``A = B`` only if ``A``
is contingent over the goal's locals, so a whole statement ``P = Q`` between two true closed
theorems (``2 + 2 = 4`` vs ``3 * 3 = 9``) is never closed: only aligned components that pin
down the same set of points are.

Budget: the engine's own bounds are deterministic (z3 ``rlimit``, sample counts); the pair's
budget is honoured by not starting a decision once it is spent, and each decision runs
under :func:`~transted.pipeline.evidence.refute.engine_budget`, its safety net ended by the pair's
deadline.
"""

from __future__ import annotations

from collections.abc import Iterator
from functools import partial
from typing import TYPE_CHECKING, Any

from transted.budget import Budget
from transted.pipeline.evidence.decide import Closing, TermMemo, decide_trees
from transted.pipeline.evidence.refute import RefuteOptions, engine_budget
from transted.pipeline.search.elaborated import elaborated_side
from transted.pipeline.search.providers.base import Move, Provider, ProviderContext
from transted.pipeline.search.state import CLOSED, State

if TYPE_CHECKING:
    from transted.reading.pairs import Pair

__all__ = ["DecisionProvider", "closing_tactic"]


def closing_tactic(closing: Closing) -> tuple[str, bool]:
    """Lean text closing the goal ``A = B`` for ``closing`` (``propext`` turns the proof of
    ``A ↔ B`` into the equality); approximate when no Lean proof is claimed for some part
    (a z3 decision outside every tactic's fragment)."""
    if closing.tactics == ["rfl"]:
        return "rfl", False
    if closing.proof is None:
        return "-- decided offline by z3 (" + ", ".join(closing.procedures) + \
            "); no Lean tactic claimed", True
    return f"exact propext ({closing.proof})", False


class DecisionProvider(Provider):
    """Closing moves by decision procedures (registry name ``decide``).

    Parameters
    ----------
    options : the engines' options (rlimit, samples, seed, safety nets)
    """

    name = "decide"
    version = "1"

    def __init__(self, options: RefuteOptions | None = None):
        self.engine_options = options if options is not None else RefuteOptions()
        self._tried: dict[tuple, Closing | None] = {}
        self._terms: TermMemo = {}

    @classmethod
    def from_context(cls, context: ProviderContext) -> DecisionProvider:
        extra: dict[str, Any] = context.extra
        keys = ("rlimit", "samples", "seed", "budget_ms", "call_timeout_ms", "memory_mb")
        given = {k: extra[f"decide.{k}"] for k in keys if f"decide.{k}" in extra}
        return cls(RefuteOptions(**given))

    def options(self) -> dict[str, object]:
        o = self.engine_options
        return {"decide": f"rlimit:{o.rlimit}|samples:{o.samples}|seed:{o.seed}"
                          f"|budget:{o.budget_ms:g}ms|call:{o.call_timeout_ms}ms"
                          f"|mem:{o.memory_mb}MB"}

    def prepare(self, pair: Pair | None, start: State, budget: Budget) -> State | None:
        self._tried, self._terms = {}, {}
        return start

    def moves(self, state: State, budget: Budget) -> Iterator[Move]:
        if state.closed or budget.spent():
            return
        key = state.key
        if key not in self._tried:
            stage = engine_budget(self.engine_options, budget)
            if stage.remaining_time() == 0:
                return  # the pair's deadline has passed
            outer = state.local_types()
            self._tried[key] = decide_trees(state.lhs, state.rhs, outer, self.engine_options,
                                            stage, memo=self._terms,
                                            elaborated=partial(elaborated_side, outer=outer))
        closing = self._tried[key]
        if closing is None:
            return
        tactic, approximate = closing_tactic(closing)
        yield Move("+".join(closing.tactics), tactic, CLOSED, approximate)
