"""How two whole statements are measured: a strategy object, chosen once from the ``cost`` option.

:class:`UnitDistance` is ASSESS's TED similarity exactly (unit-cost Zhang–Shasha over the whole
tree, ``1 - d / max(|T1|, |T2|)``). :class:`SemanticDistance` prices edits by
:class:`~transted.pipeline.ted.semantic.SemanticCost` and takes hypotheses and binders as units
(:class:`~transted.pipeline.ted.hypotheses.HypothesisAlignedDistance`), normalised by the dearer
statement's deletion cost. Everything downstream (the search's heuristic, the score's normaliser,
the costed edits of ``--explain``) asks the strategy, never the option's string.
"""

from __future__ import annotations

from abc import ABC, abstractmethod
from typing import ClassVar

from transted.pipeline.opt.node import Node
from transted.pipeline.ted.backends import DEFAULT_BACKEND
from transted.pipeline.ted.cost import CostModel, UnitCost
from transted.pipeline.ted.distance import TreeEditDistance, similarity_from
from transted.pipeline.ted.hypotheses import HypothesisAlignedDistance
from transted.pipeline.ted.semantic import SemanticCost

__all__ = ["COSTS", "StatementDistance", "UnitDistance", "SemanticDistance",
           "statement_distance", "GoalDistance"]

GoalDistance = TreeEditDistance | HypothesisAlignedDistance
"""What measures two trees for the search: a tree edit distance, or a statement distance."""


class StatementDistance(ABC):
    """The distance between two statement trees, its normaliser and the similarity.

    Parameters
    ----------
    backend : the TED backend (all give identical distances; ``edist`` is fastest)
    """

    name: ClassVar[str]

    def __init__(self, *, backend: str = DEFAULT_BACKEND) -> None:
        self.ted = TreeEditDistance(backend=backend, cost=self.make_cost())

    @staticmethod
    @abstractmethod
    def make_cost() -> CostModel:
        """A fresh cost model of this strategy."""

    @property
    def cost(self) -> CostModel:
        return self.ted.cost

    @property
    @abstractmethod
    def goal_distance(self) -> GoalDistance:
        """What the search measures each goal's two sides with."""

    @abstractmethod
    def norm(self, t1: Node, t2: Node) -> float:
        """The similarity's normaliser."""

    def distance(self, t1: Node, t2: Node) -> float:
        return float(self.goal_distance(t1, t2))

    def similarity(self, t1: Node, t2: Node) -> tuple[float, float]:
        """``(distance, similarity)`` of two statement trees."""
        distance = self.distance(t1, t2)
        norm = self.norm(t1, t2)
        return distance, similarity_from(distance, norm, norm)

    def options(self) -> dict[str, object]:
        """The signature fields (cost model and backend)."""
        return self.ted.options()


class UnitDistance(StatementDistance):
    """ASSESS: unit-cost TED over the whole tree, normalised by the larger tree's size."""

    name = "unit"

    @staticmethod
    def make_cost() -> CostModel:
        return UnitCost()

    @property
    def goal_distance(self) -> GoalDistance:
        return self.ted

    def norm(self, t1: Node, t2: Node) -> float:
        return float(max(t1.size(), t2.size()))

    def similarity(self, t1: Node, t2: Node) -> tuple[float, float]:
        distance = self.distance(t1, t2)
        return distance, similarity_from(distance, t1.size(), t2.size())


class SemanticDistance(StatementDistance):
    """The semantic cost table, hypotheses and binders aligned as units, normalised by the
    dearer statement's deletion cost."""

    name = "semantic"

    def __init__(self, *, backend: str = DEFAULT_BACKEND) -> None:
        super().__init__(backend=backend)
        self.aligned = HypothesisAlignedDistance(self.ted, self.ted.cost)

    @staticmethod
    def make_cost() -> CostModel:
        return SemanticCost()

    @property
    def goal_distance(self) -> GoalDistance:
        return self.aligned

    def norm(self, t1: Node, t2: Node) -> float:
        return max(self.aligned.deletion_cost(t1), self.aligned.deletion_cost(t2))


_STRATEGIES: dict[str, type[StatementDistance]] = {"unit": UnitDistance,
                                                    "semantic": SemanticDistance}
COSTS: tuple[str, ...] = tuple(_STRATEGIES)


def statement_distance(cost: str, *, backend: str = DEFAULT_BACKEND) -> StatementDistance:
    """The strategy called ``cost`` (one of :data:`COSTS`) on ``backend``."""
    try:
        strategy = _STRATEGIES[cost]
    except KeyError:
        raise ValueError(f"`cost` must be one of {', '.join(COSTS)}, got {cost!r}") from None
    return strategy(backend=backend)
