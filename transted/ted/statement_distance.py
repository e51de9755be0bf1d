"""Distances between whole statements under a named cost: ``unit`` or ``semantic``.

``unit`` is ASSESS's TED similarity exactly (unit-cost Zhang–Shasha over the whole tree,
``1 - d / max(|T1|, |T2|)``). ``semantic`` prices edits by :class:`~transted.ted.semantic.SemanticCost`
and takes hypotheses and binders as units (:class:`~transted.ted.hypotheses.HypothesisAlignedDistance`),
normalised by the dearer statement's deletion cost.
"""

from __future__ import annotations

from transted.opt.node import Node
from transted.ted.cost import CostModel, UnitCost
from transted.ted.distance import TreeEditDistance, similarity_from
from transted.ted.hypotheses import HypothesisAlignedDistance
from transted.ted.semantic import SemanticCost

__all__ = ["COSTS", "make_cost", "statement_similarity", "statement_distance_function",
           "statement_norm"]

COSTS: tuple[str, ...] = ("unit", "semantic")


def make_cost(name: str) -> CostModel:
    """The cost model called ``name`` (one of :data:`COSTS`)."""
    if name == "unit":
        return UnitCost()
    if name == "semantic":
        return SemanticCost()
    raise ValueError(f"`cost` must be one of {', '.join(COSTS)}, got {name!r}")


def statement_distance_function(ted: TreeEditDistance, cost_name: str
                                ) -> TreeEditDistance | HypothesisAlignedDistance:
    """The distance between two statement trees that ``cost_name`` asks for."""
    if cost_name == "unit":
        return ted
    return HypothesisAlignedDistance(ted, ted.cost)


def statement_norm(ted: TreeEditDistance, cost_name: str, t1: Node, t2: Node) -> float:
    """The similarity's normaliser: max(|T1|, |T2|) (unit) or the dearer deletion cost."""
    if cost_name == "unit":
        return float(max(t1.size(), t2.size()))
    h = HypothesisAlignedDistance(ted, ted.cost)
    return max(h.deletion_cost(t1), h.deletion_cost(t2))


def statement_similarity(ted: TreeEditDistance, t1: Node, t2: Node, cost_name: str
                         ) -> tuple[float, float]:
    """``(distance, similarity)`` of two statement trees under ``cost_name``."""
    distance = float(statement_distance_function(ted, cost_name)(t1, t2))
    if cost_name == "unit":
        return distance, similarity_from(distance, t1.size(), t2.size())
    norm = statement_norm(ted, cost_name, t1, t2)
    return distance, similarity_from(distance, norm, norm)
