"""Size guard for tree edit distance: estimate work and memory before computing, refuse past a bound.

Zhang–Shasha [1]_ (what the zss and edist backends compute) fills, for each pair of *key
roots*, a forest-distance table of ``|T1[k1]| x |T2[k2]|`` cells, so its work is exactly
``C(T1) * C(T2)`` with ``C(T)`` the sum of the subtree sizes of ``T``'s key roots — an O(n)
computation from the tree's shape (``C(T) <= |T| * min(depth, leaves)``, the paper's bound).
Which nodes are key roots depends on the decomposition: the paper's leftmost-leaf one (zss:
the root and every node with a *left* sibling) or the mirror image, which edist uses (the
root and every node with a *right* sibling; measured: a left-deep chain ``x + x + ... + x``
of 301 nodes takes edist 6.5 s and its mirror 0.01 s; the time follows ``C * C`` at
3e7 cells/s on random trees of 300-1000 nodes and 8e7 on chains, within 1.3x across shapes). APTED picks the cheaper decomposition per subtree, so
the smaller of the two products bounds it. Memory is 24 bytes a cell of ``(|T1|+1) x
(|T2|+1)``: three float64 tables (measured on edist: 204 MB of extra peak RSS at 3,000 x
3,000 nodes, 570 MB at 5,000 x 5,000; a 24 KB pair of 12,007-node trees asked numpy for
1.07 GiB per table).

The defaults, :data:`DEFAULT_MAX_WORK` = 1.5e8 cells (about 5 s of edist at its slowest
measured rate on the 2-core reference machine) and :data:`DEFAULT_MAX_MEMORY` = 1 GiB (half
of a 2 GB batch worker, leaving room for the interpreter and the trees; two 5,000-deep chains
need 0.6 GB and are computed), are far above every statement in the bundled data (the
costliest of the 859 miniF2F/ProofNet statements against itself needs 1.1e6 cells and
0.8 MB). A pair above either bound
raises :class:`~transted.errors.TooLarge` carrying both sizes and the bound, which a metric
turns into a ``status: too_large`` result line — never a ``MemoryError`` or an unbounded
run. The bound is not part of a score's signature: it decides whether a score is computed,
never its value.

References
----------
.. [1] K. Zhang and D. Shasha, SIAM J. Comput. 18(6), 1989, §4 (key roots, complexity).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Literal

from transted.errors import TooLarge
from transted.pipeline.opt.node import Node

__all__ = ["TEDBounds", "TEDCost", "Decomposition", "DEFAULT_MAX_WORK", "DEFAULT_MAX_MEMORY", "keyroot_work",
           "estimate", "estimate_flat", "check_bounds", "check_flat_bounds"]

DEFAULT_MAX_WORK = 150_000_000
"""Forest-distance cells (Zhang–Shasha inner-loop steps) allowed for one pair."""
DEFAULT_MAX_MEMORY = 1024 * 1024 * 1024
"""Bytes of distance tables allowed for one pair."""
_TABLE_BYTES = 3 * 8  # three float64 (|T1|+1) x (|T2|+1) tables (measured, see above)


@dataclass(frozen=True)
class TEDCost:
    """Predicted cost of one Zhang–Shasha run."""

    size1: int
    size2: int
    work: int
    """Forest-distance cells filled: ``keyroot_work(T1) * keyroot_work(T2)`` (per backend)."""
    memory: int
    """Bytes of the distance tables."""


@dataclass(frozen=True)
class TEDBounds:
    """Limits on one TED computation; ``None`` disables a limit.

    Parameters
    ----------
    max_work : int or None, default=DEFAULT_MAX_WORK
        Most forest-distance cells (time; edist fills 3e7-8e7 a second).
    max_memory : int or None, default=DEFAULT_MAX_MEMORY
        Most bytes of distance tables.
    """

    max_work: int | None = DEFAULT_MAX_WORK
    max_memory: int | None = DEFAULT_MAX_MEMORY

    def __post_init__(self) -> None:
        for name in ("max_work", "max_memory"):
            value = getattr(self, name)
            if value is not None and (isinstance(value, bool) or not isinstance(value, int)
                                      or value < 1):
                raise ValueError(f"`{name}` must be an int >= 1 or None, got {value!r}")

    def check(self, cost: TEDCost) -> None:
        """Raise :class:`TooLarge` if ``cost`` exceeds a limit."""
        if self.max_memory is not None and cost.memory > self.max_memory:
            raise TooLarge(
                f"tree edit distance of trees with {cost.size1} and {cost.size2} nodes needs "
                f"{_mib(cost.memory)} of tables, over the bound of {_mib(self.max_memory)}",
                size1=cost.size1, size2=cost.size2, needed=cost.memory,
                bound=self.max_memory, resource="memory")
        if self.max_work is not None and cost.work > self.max_work:
            raise TooLarge(
                f"tree edit distance of trees with {cost.size1} and {cost.size2} nodes needs "
                f"{cost.work:.3g} table cells, over the bound of {self.max_work:.3g}",
                size1=cost.size1, size2=cost.size2, needed=cost.work,
                bound=self.max_work, resource="work")


def _mib(n: int) -> str:
    return f"{n / 2**20:.1f} MiB"


Decomposition = Literal["left", "right"]
_BACKEND_DECOMPOSITION: dict[str, tuple[Decomposition, ...]] = {
    "zss": ("left",), "edist": ("right",), "apted": ("left", "right")}


def keyroot_work(adj: Sequence[Sequence[int]], side: Decomposition = "right") -> int:
    """Sum of the subtree sizes of the key roots of a preorder-flattened tree (iterative).

    ``side="left"``: key roots are the root and nodes with a left sibling (Zhang–Shasha as
    published, zss); ``"right"``: the root and nodes with a right sibling (edist).
    """
    if side not in ("left", "right"):
        raise ValueError(f"`side` must be 'left' or 'right', got {side!r}")
    n = len(adj)
    size = [1] * n
    for i in range(n - 1, -1, -1):  # children follow their parent in preorder
        for c in adj[i]:
            size[i] += size[c]
    total = size[0] if n else 0
    for children in adj:
        for c in (children[1:] if side == "left" else children[:-1]):
            total += size[c]
    return total


def estimate_flat(adj1: Sequence[Sequence[int]], adj2: Sequence[Sequence[int]], *,
                  backend: str = "edist") -> TEDCost:
    """:class:`TEDCost` of two trees in edist's ``(labels, adj)`` form (only ``adj`` needed)."""
    sides = _BACKEND_DECOMPOSITION.get(backend, ("left", "right"))
    work = min(keyroot_work(adj1, s) * keyroot_work(adj2, s) for s in sides)
    n1, n2 = len(adj1), len(adj2)
    return TEDCost(size1=n1, size2=n2, work=work, memory=_TABLE_BYTES * (n1 + 1) * (n2 + 1))


def estimate(t1: Node, t2: Node, *, backend: str = "edist") -> TEDCost:
    """:class:`TEDCost` of the tree edit distance between ``t1`` and ``t2`` with ``backend``."""
    return estimate_flat(_adjacency(t1), _adjacency(t2), backend=backend)


def check_bounds(t1: Node, t2: Node, bounds: TEDBounds | None = None, *,
                 backend: str = "edist") -> TEDCost:
    """Estimate, and raise :class:`TooLarge` past ``bounds`` (default :class:`TEDBounds`)."""
    cost = estimate(t1, t2, backend=backend)
    (bounds or TEDBounds()).check(cost)
    return cost


def check_flat_bounds(adj1: Sequence[Sequence[int]], adj2: Sequence[Sequence[int]],
                      bounds: TEDBounds | None = None) -> TEDCost:
    """:func:`check_bounds` for already-flattened trees and edist (the search's hot path)."""
    cost = estimate_flat(adj1, adj2)
    (bounds or TEDBounds()).check(cost)
    return cost


def _adjacency(tree: Node) -> list[list[int]]:
    adj: list[list[int]] = []
    stack: list[tuple[Node, int]] = [(tree, -1)]
    while stack:
        node, parent = stack.pop()
        index = len(adj)
        adj.append([])
        if parent >= 0:
            adj[parent].append(index)
        stack.extend((child, index) for child in reversed(node.children))
    return adj
