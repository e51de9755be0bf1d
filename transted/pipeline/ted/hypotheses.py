"""Hypotheses and binders as units: TED after aligning the parts of two statements.

A proposition-form tree ``∀ x, … , h₁ → … → conclusion`` splits into its binders, its
hypotheses and its conclusion (:func:`transted.pipeline.opt.parts.statement_parts`). The distance of two statements is

    A(binders) + A(hypotheses) + TED(conclusion₁, conclusion₂)

where ``A`` is a minimum-cost assignment (:func:`transted.assignment.min_cost_assignment`,
scipy's ``linear_sum_assignment`` method) over the pairwise TEDs of the items, each item left
unmatched costing a fixed amount from the cost table (``units`` in ``costs/semantic.yaml``) rather than its node count. The order
of hypotheses does not matter (Lean's ``Imp.swap``); the order of binders is not checked either,
which can only lower a distance, never raise it above a reordering's. The similarity divides by
the larger of the two statements' *deletion costs* ``M(T) = U_b·#binders + U_h·#hypotheses +
cost(conclusion)``, so it stays in [0, 1] (clipped, as ``ted``).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from functools import lru_cache
from importlib import resources
from typing import Any

from transted import yaml_text
from transted.assignment import min_cost_assignment
from transted.pipeline.opt.node import Node
from transted.pipeline.opt.parts import statement_parts
from transted.pipeline.ted.cost import CostModel
from transted.pipeline.ted.semantic import DEFAULT_TABLE

__all__ = ["align", "UnitCosts", "load_unit_costs",
           "HypothesisAlignedDistance"]


@dataclass(frozen=True)
class UnitCosts:
    hypothesis: float
    binder: float


@lru_cache(maxsize=1)
def load_unit_costs() -> UnitCosts:
    text = resources.files("transted.pipeline.ted").joinpath("costs", DEFAULT_TABLE).read_text("utf-8")
    units = (yaml_text.safe_load(text) or {}).get("units") or {}
    return UnitCosts(float(units["hypothesis"]["unmatched"]), float(units["binder"]["unmatched"]))


def align(left: Sequence[Node], right: Sequence[Node], distance: Callable[[Node, Node], float],
          unmatched: float) -> tuple[float, list[tuple[int | None, int | None, float]]]:
    """Minimum total cost of matching ``left`` to ``right``; unmatched items cost ``unmatched``.

    Returns the cost and the pairs ``(i, j, cost)`` (``None`` for an unmatched side).
    """
    n, m = len(left), len(right)
    if n == 0 and m == 0:
        return 0.0, []
    big = unmatched * 4 + 1.0  # forbidden cells: dearer than any feasible choice
    size = n + m
    cost = [[0.0] * size for _ in range(size)]
    for i, a in enumerate(left):
        cost[i][:m] = [float(distance(a, b)) for b in right]
        cost[i][m:] = [big] * n
        cost[i][m + i] = unmatched
    for j in range(m):
        cost[n + j][:m] = [big] * m
        cost[n + j][j] = unmatched
    rows, cols = min_cost_assignment(cost)
    pairs: list[tuple[int | None, int | None, float]] = []
    total = 0.0
    for r, c in zip(rows, cols, strict=True):
        if r < n and c < m:
            pairs.append((r, c, float(cost[r][c])))
        elif r < n:
            pairs.append((r, None, unmatched))
        elif c < m:
            pairs.append((None, c, unmatched))
        else:
            continue
        total += pairs[-1][2]
    return total, pairs


class HypothesisAlignedDistance:
    """Statement distance with hypotheses and binders as units (see the module docstring).

    Parameters
    ----------
    ted : callable ``(Node, Node) -> float``, e.g. a :class:`~transted.pipeline.ted.TreeEditDistance`
    cost : the :class:`CostModel` that ``ted`` uses (for the conclusion's deletion cost)
    units : unmatched costs; default from the packaged cost table
    """

    def __init__(self, ted: Callable[[Node, Node], float], cost: CostModel,
                 units: UnitCosts | None = None, cache_size: int = 65536):
        self.ted = ted
        self.cost = cost
        self.units = units or load_unit_costs()
        self.cache_size = cache_size
        self._memo: dict[tuple[str, str], float] = {}

    def __call__(self, t1: Node, t2: Node) -> float:
        return self.details(t1, t2)["distance"]

    def _memo_distance(self, keys: dict[int, str]) -> Callable[[Node, Node], float]:
        # The search re-scores goals whose binders and hypotheses rarely change: one text key
        # per part per call (Node.__str__ is iterative, not free) and a memo over part pairs.
        def distance(a: Node, b: Node) -> float:
            key = (keys.setdefault(id(a), str(a)), keys.setdefault(id(b), str(b)))
            value = self._memo.get(key)
            if value is None:
                value = self._memo[key] = float(self.ted(a, b))
                if len(self._memo) > self.cache_size:
                    self._memo.pop(next(iter(self._memo)))
            return value
        return distance

    def details(self, t1: Node, t2: Node) -> dict[str, Any]:
        p1, p2 = statement_parts(t1), statement_parts(t2)
        distance = self._memo_distance({})
        db, bpairs = align([p.node for p in p1.binders], [p.node for p in p2.binders], distance,
                           self.units.binder)
        dh, hpairs = align([p.node for p in p1.hypotheses], [p.node for p in p2.hypotheses],
                           distance, self.units.hypothesis)
        dc = distance(p1.conclusion.node, p2.conclusion.node)
        return {"distance": db + dh + dc, "binders": bpairs, "hypotheses": hpairs,
                "conclusion": dc, "parts": (p1, p2)}

    def deletion_cost(self, tree: Node) -> float:
        p = statement_parts(tree)
        return (self.units.binder * len(p.binders) + self.units.hypothesis * len(p.hypotheses)
                + self.cost.tree_cost(p.conclusion.node))

    def describe(self) -> str:
        return f"align(h={self.units.hypothesis:g},b={self.units.binder:g})"
