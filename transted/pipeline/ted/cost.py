"""Cost models for tree edit distance: a strategy object, as apted's ``config.Config``.

A cost model prices the three edit operations on node *labels*: ``delete(label)``,
``insert(label)`` and ``rename(a, b)``. ASSESS Definition 2/3 (§3.2) uses unit costs
(``c_del = c_ins = c_rel = 1``), which is :class:`UnitCost`, the default everywhere.
:class:`PerOperationCost` parameterises the three constants (apted's
``PerEditOperationConfig``); a backend that only implements unit costs rejects it with a
``ValueError`` naming the ``cost`` parameter (see :mod:`transted.pipeline.ted.backends`).

Costs are on labels rather than nodes so every backend can apply them to the flat
label lists it works on; a label-dependent model (e.g. free renames of variables) is a
subclass overriding :meth:`CostModel.rename`.
"""

from __future__ import annotations

import math
from abc import ABC, abstractmethod
from numbers import Real
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from transted.pipeline.opt.node import Node

__all__ = ["CostModel", "UnitCost", "PerOperationCost"]


class CostModel(ABC):
    """Prices of the edit operations on labels; subclasses override the three hooks.

    For the distance to be a pseudometric (ASSESS §3.2, Definition 2) insert and delete must
    cost the same and ``rename`` must be symmetric; :attr:`symmetric` says whether that holds
    (the memo in :class:`~transted.pipeline.ted.distance.TreeEditDistance` relies on it).
    """

    @abstractmethod
    def delete(self, label: str) -> float:
        """Cost of deleting a node labelled ``label``."""

    @abstractmethod
    def insert(self, label: str) -> float:
        """Cost of inserting a node labelled ``label``."""

    @abstractmethod
    def rename(self, a: str, b: str) -> float:
        """Cost of relabelling ``a`` into ``b`` (0 when they are equal)."""

    @property
    def is_unit(self) -> bool:
        """True when every operation costs 1 and equal labels rename for free."""
        return False

    @property
    def symmetric(self) -> bool:
        """True when d(T1, T2) = d(T2, T1) for every pair of trees."""
        return False

    def tree_cost(self, tree: Node) -> float:
        """Cost of deleting every node of ``tree`` (``|tree|`` under unit costs): the
        normaliser of the TED similarity, ``1 - d / max(tree_cost(T1), tree_cost(T2))``."""
        return float(sum(self.delete(n.label) for n in tree.preorder()))

    @abstractmethod
    def describe(self) -> str:
        """Short stable text for signatures, e.g. ``unit`` or ``ins=1,del=1,ren=0.5``."""


class UnitCost(CostModel):
    """Unit costs (Zhang & Shasha 1989; ASSESS §3.2, Definition 3): 1 per operation."""

    def delete(self, label: str) -> float:
        return 1.0

    def insert(self, label: str) -> float:
        return 1.0

    def rename(self, a: str, b: str) -> float:
        return 0.0 if a == b else 1.0

    @property
    def is_unit(self) -> bool:
        return True

    @property
    def symmetric(self) -> bool:
        return True

    def describe(self) -> str:
        return "unit"

    def __eq__(self, other: object) -> bool:
        return type(other) is UnitCost

    def __hash__(self) -> int:
        return hash(UnitCost)

    def __repr__(self) -> str:
        return "UnitCost()"


class PerOperationCost(CostModel):
    """Constant costs per operation type (apted's ``PerEditOperationConfig``).

    Parameters
    ----------
    insert : float, default=1.0
        Cost of inserting any node; finite and > 0.
    delete : float, default=1.0
        Cost of deleting any node; finite and > 0.
    rename : float, default=1.0
        Cost of relabelling a node to a different label; finite and >= 0.
    """

    def __init__(self, *, insert: float = 1.0, delete: float = 1.0, rename: float = 1.0):
        for name, value, low_ok in (("insert", insert, False), ("delete", delete, False),
                                    ("rename", rename, True)):
            if isinstance(value, bool) or not isinstance(value, Real):
                raise TypeError(f"`{name}` must be a real number, got {type(value).__name__}")
            if not math.isfinite(value) or value < 0 or (value == 0 and not low_ok):
                bound = ">= 0" if low_ok else "> 0"
                raise ValueError(f"`{name}` must be finite and {bound}, got {value!r}")
        self._ins, self._del, self._ren = float(insert), float(delete), float(rename)

    def delete(self, label: str) -> float:
        return self._del

    def insert(self, label: str) -> float:
        return self._ins

    def rename(self, a: str, b: str) -> float:
        return 0.0 if a == b else self._ren

    @property
    def is_unit(self) -> bool:
        return self._ins == self._del == self._ren == 1.0

    @property
    def symmetric(self) -> bool:
        return self._ins == self._del

    def describe(self) -> str:
        if self.is_unit:
            return "unit"
        return f"ins={self._ins!r},del={self._del!r},ren={self._ren!r}"

    def __eq__(self, other: object) -> bool:
        return (isinstance(other, PerOperationCost)
                and (self._ins, self._del, self._ren) == (other._ins, other._del, other._ren))

    def __hash__(self) -> int:
        return hash((PerOperationCost, self._ins, self._del, self._ren))

    def __repr__(self) -> str:
        return f"PerOperationCost(insert={self._ins!r}, delete={self._del!r}, rename={self._ren!r})"
