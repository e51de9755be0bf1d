"""Tree-edit-distance backends: one class per library, all taking our :class:`Node`.

Every backend computes the same quantity, the Zhang–Shasha tree edit distance [1]_ under a
:class:`~transted.pipeline.ted.cost.CostModel`; they differ only in speed. Conversions from ``Node``
are iterative, so trees deeper than Python's recursion limit are fine.

``zss``
    The reference implementation (pure Python Zhang–Shasha, zss 1.2): slow but simple
    enough to read against the paper; every other backend is tested against it.
``edist``
    Zhang–Shasha in Cython (edist, Paaßen 2018). **The default.** Measured by
    ``benchmarks/bench_ted.py`` on the Lean LSP operator trees of the 93 dev pairs
    (|T1|+|T2| mean 61, max 135): edist gives 390-930x the pairs/s of zss and 85-125x
    those of apted (runs on the shared 2-core machine; median 0.09 ms a pair, most of it our
    conversion to its list format), with identical distances on every pair
    (``tests/test_ted_backends.py``). It is iterative
    inside (two 5000-deep chains take ~2 s), and unit costs use its integer fast path.
``apted``
    APTED (Pawlik & Augsten 2016 [2]_, pure Python port): the algorithm GTED used; kept
    to cross-check GTED's numbers. Its indexer recurses once per tree level, so the
    recursion limit is raised for the call (under a lock) to fit the tree's depth.

All three accept any cost model (``supports_costs``); a backend that cannot says so and
:func:`check_cost` rejects a non-unit model with a ``ValueError`` naming ``cost``.

References
----------
.. [1] K. Zhang and D. Shasha, "Simple fast algorithms for the editing distance between
   trees and related problems", SIAM J. Comput. 18(6), 1989.
.. [2] M. Pawlik and N. Augsten, "Tree edit distance: robust and memory-efficient",
   Information Systems 56, 2016.
"""

from __future__ import annotations

import functools
import sys
import threading
from abc import ABC, abstractmethod
from importlib.metadata import PackageNotFoundError
from importlib.metadata import version as _dist_version
from typing import Any, ClassVar

from transted.pipeline.opt.node import Flat, Node, flatten, unflatten
from transted.pipeline.ted.cost import CostModel

__all__ = [
    "TEDBackend",
    "ZSSBackend",
    "EdistBackend",
    "APTEDBackend",
    "BACKENDS",
    "DEFAULT_BACKEND",
    "edist_delta",
    "backend_names",
    "get_backend",
    "check_cost",
    "flatten",
]


class TEDBackend(ABC):
    """A tree edit distance implementation.

    Class attributes
    ----------------
    name : registry name, recorded in signatures
    distribution : the PyPI distribution implementing it (its version goes in signatures)
    supports_costs : whether non-unit cost models are implemented
    """

    name: ClassVar[str]
    distribution: ClassVar[str]
    supports_costs: ClassVar[bool] = True

    def distance(self, t1: Node, t2: Node, cost: CostModel) -> float:
        """Edit distance from ``t1`` to ``t2`` under ``cost``."""
        check_cost(self, cost)
        return float(self._distance(t1, t2, cost))

    @abstractmethod
    def _distance(self, t1: Node, t2: Node, cost: CostModel) -> float: ...

    def flat_distance(self, t1: Flat, t2: Flat, cost: CostModel) -> float:
        """:meth:`distance` of two trees given in :data:`~transted.pipeline.opt.node.Flat` form."""
        check_cost(self, cost)
        return float(self._distance(unflatten(t1), unflatten(t2), cost))

    @classmethod
    @functools.cache  # noqa: B019 - one entry per backend class; metadata parsing costs ~0.5 ms
    def library_version(cls) -> str:
        try:
            return _dist_version(cls.distribution)
        except PackageNotFoundError:  # pragma: no cover - installed with transted
            return "unknown"

    @classmethod
    def describe(cls) -> str:
        """``name-version``, e.g. ``edist-1.2.2`` (for signatures)."""
        return f"{cls.name}-{cls.library_version()}"

    def __repr__(self) -> str:
        return f"{type(self).__name__}()"


def check_cost(backend: TEDBackend, cost: CostModel) -> None:
    """Raise unless ``backend`` can compute distances under ``cost``."""
    if not isinstance(cost, CostModel):
        raise TypeError(f"`cost` must be a CostModel, got {type(cost).__name__}")
    if not cost.is_unit and not backend.supports_costs:
        raise ValueError(
            f"`cost`: backend {backend.name!r} implements unit costs only; got "
            f"{cost.describe()!r}; use one of "
            f"{', '.join(n for n, c in BACKENDS.items() if c.supports_costs)}")


class ZSSBackend(TEDBackend):
    """Reference: ``zss.distance`` (Zhang–Shasha in pure Python)."""

    name = "zss"
    distribution = "zss"

    def _distance(self, t1: Node, t2: Node, cost: CostModel) -> float:
        import zss

        return zss.distance(
            t1, t2, _children,
            insert_cost=lambda n: cost.insert(n.label),
            remove_cost=lambda n: cost.delete(n.label),
            update_cost=lambda a, b: cost.rename(a.label, b.label),
        )


def _children(node: Node) -> tuple[Node, ...]:
    return node.children


class EdistBackend(TEDBackend):
    """Fast: ``edist.ted`` (Zhang–Shasha in Cython); integer fast path for unit costs."""

    name = "edist"
    distribution = "edist"

    def _distance(self, t1: Node, t2: Node, cost: CostModel) -> float:
        return self._flat(flatten(t1), flatten(t2), cost)

    def flat_distance(self, t1: Flat, t2: Flat, cost: CostModel) -> float:
        check_cost(self, cost)
        return float(self._flat(t1, t2, cost))

    @staticmethod
    def _flat(t1: Flat, t2: Flat, cost: CostModel) -> float:
        from edist import ted as edist_ted

        if cost.is_unit:
            return edist_ted.standard_ted(t1[0], t1[1], t2[0], t2[1])
        return edist_ted.ted(t1[0], t1[1], t2[0], t2[1], edist_delta(cost))


def edist_delta(cost: CostModel) -> Any:
    """``cost`` as edist's one ``delta(x, y)`` function (``None`` = the empty node)."""
    # edist's single delta(x, y) encodes deletion as delta(x, None), insertion as delta(None, y).
    def delta(x: str | None, y: str | None) -> float:
        if y is None:
            return cost.delete(x) if x is not None else 0.0
        if x is None:
            return cost.insert(y)
        return cost.rename(x, y)

    return delta


class _APNode:
    """A fresh node per tree position. apted keeps a per-node table keyed by ``id()``; a
    ``Node`` value may sit at several positions (an interning parser), so copying keeps that
    table one-to-one; the copy also gives the depth for the recursion limit."""

    __slots__ = ("label", "children")

    def __init__(self, label: str):
        self.label = label
        self.children: list[_APNode] = []


def _to_apted(tree: Node) -> tuple[_APNode, int]:
    """Copy ``tree`` into :class:`_APNode` objects; also return its depth."""
    root = _APNode(tree.label)
    stack = [(tree, root, 1)]
    depth = 1
    while stack:
        node, copy, d = stack.pop()
        depth = max(depth, d)
        for child in node.children:
            child_copy = _APNode(child.label)
            copy.children.append(child_copy)
            stack.append((child, child_copy, d + 1))
    return root, depth


_RECURSION_LOCK = threading.Lock()


class APTEDBackend(TEDBackend):
    """APTED (``apted.APTED``), the algorithm GTED uses."""

    name = "apted"
    distribution = "apted"

    def _distance(self, t1: Node, t2: Node, cost: CostModel) -> float:
        from apted import APTED, Config

        class _Config(Config):  # type: ignore[misc]
            def delete(self, node: _APNode) -> float:
                return cost.delete(node.label)

            def insert(self, node: _APNode) -> float:
                return cost.insert(node.label)

            def rename(self, a: _APNode, b: _APNode) -> float:
                return cost.rename(a.label, b.label)

            def children(self, node: _APNode) -> list[_APNode]:
                return node.children

        a, depth_a = _to_apted(t1)
        b, depth_b = _to_apted(t2)
        needed = 2 * max(depth_a, depth_b) + 200
        with _RECURSION_LOCK:
            old = sys.getrecursionlimit()
            if needed > old:
                sys.setrecursionlimit(needed)
            try:
                return APTED(a, b, _Config()).compute_edit_distance()
            finally:
                sys.setrecursionlimit(old)


BACKENDS: dict[str, type[TEDBackend]] = {
    "edist": EdistBackend,
    "zss": ZSSBackend,
    "apted": APTEDBackend,
}
"""Backends by name; CLI choices come from these keys."""

DEFAULT_BACKEND = "edist"


def backend_names() -> list[str]:
    return list(BACKENDS)


def get_backend(backend: str | TEDBackend) -> TEDBackend:
    """A backend instance from its name (or the instance itself)."""
    if isinstance(backend, TEDBackend):
        return backend
    if not isinstance(backend, str):
        raise TypeError(f"`backend` must be a name or a TEDBackend, got {type(backend).__name__}")
    try:
        return BACKENDS[backend]()
    except KeyError:
        raise ValueError(f"`backend`: unknown TED backend {backend!r}; "
                         f"known: {', '.join(BACKENDS)}") from None
