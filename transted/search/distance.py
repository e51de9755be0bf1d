"""The one place the search computes a tree edit distance (the heuristic of Algorithm 1).

A seam: the search asks a :class:`~transted.ted.distance.TreeEditDistance` (the metric's
backend and ``CostModel``; unit-cost edist by default, ASSESS Definition 2/3) for every
distance, on trees flattened once per state by :func:`~transted.opt.node.flatten`. A new
cost model is honoured here with no change. Callers memoise per state (see
:mod:`transted.search.engine`).
"""

from __future__ import annotations

from transted.opt.node import Flat, Node, flatten
from transted.ted.distance import TreeEditDistance

__all__ = ["UNIT_TED", "tree_distance", "flat_distance", "flatten", "Flat"]

UNIT_TED = TreeEditDistance(cache_size=0)
"""Unit costs on edist: the distance when the caller names none."""


def tree_distance(a: Node, b: Node, ted: TreeEditDistance = UNIT_TED) -> float:
    """Tree edit distance between ``a`` and ``b`` under ``ted``'s cost model."""
    return ted.flat(flatten(a), flatten(b))


def flat_distance(a: Flat, b: Flat, ted: TreeEditDistance = UNIT_TED) -> float:
    """:func:`tree_distance` of two already-flattened trees."""
    return ted.flat(a, b)
