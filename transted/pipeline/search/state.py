"""Search states: one goal ``lhs = rhs`` under a local context, or the closed goal.

ASSESS Algorithm 1 (Appendix B): the valid nodes of the search are "a single goal of
equality, or completed". A :class:`State` is such a goal; the locals are the variables that
congruence moves introduced (``apply forall_congr; intro x``), kept with their declared
types so type-guarded rules (``add_comm`` only on ℕ ℤ ℚ ℝ ℂ) can see them.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field

from transted.pipeline.opt.canonical import canonical, canonical_flat, spliced_flat
from transted.pipeline.opt.node import Flat, Node, unflatten
from transted.pipeline.search.pattern import replace_at

__all__ = ["Edit", "Local", "State", "CLOSED"]


@dataclass(frozen=True, slots=True)
class _Canonical:
    key: tuple
    flat_lhs: Flat
    flat_rhs: Flat


_SIDE_CACHE: dict[int, tuple[Node, tuple, Flat]] = {}
_SIDE_CACHE_MAX = 8192  # moves change one side; the other side's canonical form is reused


def _cached(node: Node, names: tuple[str, ...]) -> Flat | None:
    hit = _SIDE_CACHE.get(id(node))
    return hit[2] if hit is not None and hit[0] is node and hit[1] == names else None


def _side_flat(node: Node, names: tuple[str, ...], edit: Edit | None) -> Flat:
    flat = _cached(node, names)
    if flat is not None:
        return flat
    env = {n: f"#{i + 1}" for i, n in enumerate(names)}
    # `after is node`: a hint copied along with a side it does not describe is not read
    before = (_cached(edit.before, names) if edit is not None and edit.after is node
              else None)
    if before is not None:
        assert edit is not None
        flat = spliced_flat(edit.before, before, edit.path, edit.new, env, len(names))
    if flat is None:
        flat = canonical_flat(node, env, len(names))
    if len(_SIDE_CACHE) >= _SIDE_CACHE_MAX:
        _SIDE_CACHE.clear()
    _SIDE_CACHE[id(node)] = (node, names, flat)
    return flat


_TYPES_CACHE: dict[int, tuple[tuple[Local, ...], tuple[str, ...]]] = {}


def _local_types(context: tuple[Local, ...], names: tuple[str, ...]) -> tuple[str, ...]:
    """The locals' canonical types; a move keeps its goal's context (the same tuple)."""
    hit = _TYPES_CACHE.get(id(context))
    if hit is not None and hit[0] is context:
        return hit[1]
    types = tuple("_" if loc.type is None else
                  str(canonical(loc.type, {n: f"#{j + 1}" for j, n in enumerate(names[:i])}, i))
                  for i, loc in enumerate(context))
    if len(_TYPES_CACHE) >= _SIDE_CACHE_MAX:
        _TYPES_CACHE.clear()
    _TYPES_CACHE[id(context)] = (context, types)
    return types


@dataclass(frozen=True, slots=True)
class Edit:
    """How the side ``after`` was made: ``before`` with the subtree at ``path`` replaced by
    ``new``. Its canonical form is then spliced from ``before``'s
    (:func:`~transted.pipeline.opt.canonical.spliced_flat`)."""

    before: Node
    path: tuple[int, ...]
    new: Node
    after: Node


@dataclass(frozen=True, slots=True)
class Local:
    """A local of the goal's context: a variable ``name : type`` (type None if not written) or a
    hypothesis (its type a proposition: an antecedent ``forall_congr`` introduced)."""

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
    edit: tuple[str, Edit] | None = field(default=None, compare=False, hash=False, repr=False)
    """Which side (``"lhs"``/``"rhs"``) a rewrite made, and how: a hint for the canonical form,
    not part of the goal."""
    _canon: _Canonical | None = field(default=None, init=False, repr=False, compare=False,
                                      hash=False)

    def _canonical(self) -> _Canonical:
        if self._canon is None:
            names = tuple(loc.name for loc in self.context)
            types = _local_types(self.context, names)
            side, edit = self.edit if self.edit is not None else ("", None)
            fl = _side_flat(self.lhs, names, edit if side == "lhs" else None)
            fr = _side_flat(self.rhs, names, edit if side == "rhs" else None)
            key = ("closed",) if self.closed else (
                types, tuple(fl[0]), tuple(map(len, fl[1])),
                tuple(fr[0]), tuple(map(len, fr[1])))
            canon = _Canonical(key, fl, fr)
            object.__setattr__(self, "_canon", canon)
            return canon
        return self._canon

    @property
    def canonical_lhs(self) -> Node:
        """The left side in alpha-canonical form (bound/local names → ``#level``)."""
        return unflatten(self._canonical().flat_lhs)

    @property
    def canonical_rhs(self) -> Node:
        return unflatten(self._canonical().flat_rhs)

    @property
    def key(self) -> tuple:
        """Hashable alpha-canonical identity of the goal (context types, both sides)."""
        return self._canonical().key

    def flat_sides(self) -> tuple[Flat, Flat]:
        """Canonical sides as preorder labels + adjacency lists (TED backend input)."""
        canon = self._canonical()
        return canon.flat_lhs, canon.flat_rhs

    def rewritten(self, side: str, path: tuple[int, ...], new: Node) -> State:
        """This goal with the subterm at ``path`` of ``side`` (``lhs``/``rhs``) replaced by
        ``new``; the edit travels with it so the canonical form is spliced, not recomputed."""
        before: Node = getattr(self, side)
        after = replace_at(before, path, new)
        edit = (side, Edit(before, path, new, after))
        if side == "lhs":
            return State(after, self.rhs, self.context, edit=edit)
        return State(self.lhs, after, self.context, edit=edit)

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
