"""Search states: one goal ``lhs = rhs`` under a local context, or the closed goal.

ASSESS Algorithm 1 (Appendix B): the valid nodes of the search are "a single goal of
equality, or completed". A :class:`State` is such a goal; the locals are the variables that
congruence moves introduced (``apply forall_congr; intro x``), kept with their declared
types so type-guarded rules (``add_comm`` only on ℕ ℤ ℚ ℝ ℂ) can see them.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field

from transted.opt.node import Flat, Node
from transted.opt.scope import canonical, canonical_flat

__all__ = ["Local", "State", "CLOSED"]


@dataclass(frozen=True, slots=True)
class _Canonical:
    key: tuple
    flat_lhs: Flat
    flat_rhs: Flat


_SIDE_CACHE: dict[int, tuple[Node, tuple, Flat]] = {}
_SIDE_CACHE_MAX = 8192  # moves change one side; the other side's canonical form is reused


def _side_flat(node: Node, names: tuple[str, ...]) -> Flat:
    hit = _SIDE_CACHE.get(id(node))
    if hit is not None and hit[0] is node and hit[1] == names:
        return hit[2]
    flat = canonical_flat(node, {n: f"#{i + 1}" for i, n in enumerate(names)}, len(names))
    if len(_SIDE_CACHE) >= _SIDE_CACHE_MAX:
        _SIDE_CACHE.clear()
    _SIDE_CACHE[id(node)] = (node, names, flat)
    return flat


@dataclass(frozen=True, slots=True)
class Local:
    """A variable of the goal's local context: ``name : type`` (type None if not written)."""

    name: str
    type: Node | None = None


@dataclass(frozen=True)
class State:
    """The goal ``lhs = rhs`` with ``context`` in scope; ``closed`` marks a finished proof.

    ``key`` is the alpha-canonical form (bound and local names replaced by de Bruijn
    levels, flattened to preorder labels and arities so it hashes fast): equal keys mean the
    same goal up to renaming, so the search visits it once.
    """

    lhs: Node
    rhs: Node
    context: tuple[Local, ...] = ()
    closed: bool = False
    handle: Mapping[str, object] = field(default_factory=dict, compare=False, hash=False,
                                         repr=False)
    """Provider data riding along, one slot per provider name (``{"lean": <proof state>}``);
    not part of the goal's identity: equality and :attr:`key` ignore it."""
    _canon: _Canonical | None = field(default=None, init=False, repr=False, compare=False,
                                      hash=False)

    def _env(self) -> tuple[dict[str, str], int]:
        return {loc.name: f"#{i + 1}" for i, loc in enumerate(self.context)}, len(self.context)

    def _canonical(self) -> _Canonical:
        if self._canon is None:
            names = tuple(loc.name for loc in self.context)
            types = tuple("_" if loc.type is None else
                          str(canonical(loc.type, {n: f"#{j + 1}" for j, n in
                                                   enumerate(names[:i])}, i))
                          for i, loc in enumerate(self.context))
            fl, fr = _side_flat(self.lhs, names), _side_flat(self.rhs, names)
            key = ("closed",) if self.closed else (
                types, tuple(fl[0]), tuple(len(a) for a in fl[1]),
                tuple(fr[0]), tuple(len(a) for a in fr[1]))
            canon = _Canonical(key, fl, fr)
            object.__setattr__(self, "_canon", canon)
            return canon
        return self._canon

    @property
    def canonical_lhs(self) -> Node:
        """The left side in alpha-canonical form (bound/local names → ``#level``)."""
        return canonical(self.lhs, *self._env())

    @property
    def canonical_rhs(self) -> Node:
        return canonical(self.rhs, *self._env())

    @property
    def key(self) -> tuple:
        """Hashable alpha-canonical identity of the goal (context types, both sides)."""
        return self._canonical().key

    def flat_sides(self) -> tuple[Flat, Flat]:
        """Canonical sides as preorder labels + adjacency lists (TED backend input)."""
        canon = self._canonical()
        return canon.flat_lhs, canon.flat_rhs

    def local_types(self) -> dict[str, Node | None]:
        """Name → declared type of the locals (later locals shadow earlier ones)."""
        return {loc.name: loc.type for loc in self.context}

    def names(self) -> set[str]:
        return {loc.name for loc in self.context}

    def __str__(self) -> str:
        if self.closed:
            return "⊢ closed"
        ctx = " ".join(f"({loc.name} : …)" if loc.type is not None else loc.name
                       for loc in self.context)
        return f"{ctx} ⊢ {self.lhs} = {self.rhs}".strip()


CLOSED = State(Node("True"), Node("True"), closed=True)
"""The completed goal (TED 0 by definition, Algorithm 1 line 24)."""
