"""The one place the search computes a tree edit distance (the heuristic of Algorithm 1).

A seam: the search asks a :class:`~transted.pipeline.ted.distance.TreeEditDistance` (the metric's
backend and ``CostModel``; unit-cost edist by default, ASSESS Definition 2/3) for every
distance, on trees flattened once per state by :func:`~transted.pipeline.opt.node.flatten`. A new
cost model is honoured here with no change. A whole-statement distance of the ``ted`` package
(:class:`~transted.pipeline.ted.hypotheses.HypothesisAlignedDistance`: hypotheses and binders as units,
``cost=semantic``) is taken as well: it is asked about the two sides as trees. Callers memoise
per state (see :mod:`transted.pipeline.search.engine`).
"""

from __future__ import annotations

from collections.abc import Callable

from transted.pipeline.opt.node import Flat, Node, flatten
from transted.pipeline.ted.distance import TreeEditDistance
from transted.pipeline.ted.hypotheses import HypothesisAlignedDistance
from transted.pipeline.ted.statement_distance import GoalDistance

__all__ = ["UNIT_TED", "tree_distance", "flat_distance", "sides_distance", "flatten", "Flat"]

UNIT_TED = TreeEditDistance(cache_size=0)
"""Unit costs on edist: the distance when the caller names none."""


def tree_distance(a: Node, b: Node, ted: GoalDistance = UNIT_TED) -> float:
    """Distance between ``a`` and ``b`` under ``ted`` (its cost model, and its size bounds:
    trees past :class:`~transted.pipeline.ted.bounds.TEDBounds` raise :class:`~transted.errors.TooLarge`
    here, before any search starts)."""
    return float(ted(a, b)) if isinstance(ted, HypothesisAlignedDistance) else ted(a, b)


def sides_distance(ted: GoalDistance) -> Callable[[Flat, Flat, Node, Node], float]:
    """The per-goal distance: flattened sides for a tree edit distance (edist's fast path),
    the trees themselves for a statement distance."""
    if isinstance(ted, TreeEditDistance):
        return lambda fa, fb, _a, _b: ted.flat(fa, fb)
    return lambda _fa, _fb, a, b: ted(a, b)


def flat_distance(a: Flat, b: Flat, ted: TreeEditDistance = UNIT_TED) -> float:
    """:func:`tree_distance` of two already-flattened trees."""
    return ted.flat(a, b)
