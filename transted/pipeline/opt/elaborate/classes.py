"""Instances on abstract types through the class hierarchy, and ``Membership``'s outParam.

Both read the Mathlib declaration index (:mod:`transted.pipeline.opt.mathlib`):

* **Local instances and their parents.** An instance binder ``[Field F]`` makes every class
  ``Field`` extends available at ``F`` (Lean's structure eta and the parent projections
  ``Field.toCommRing``, … are instances: ``class … extends`` registers each ``toParent`` as an
  instance, ``Lean.Elab.Structure``), and so does an instance ``instance [C α] : P α`` with no
  other hypothesis (``LinearOrder.toLattice``). :meth:`IndexClasses.provides` walks these edges
  with their *arguments*: a parent is reached at the arguments the ``extends`` clause gives it
  (``RCLike K`` extends ``NormedAlgebra ℝ K``, not ``NormedAlgebra K K``). The walk only goes up:
  a child is never assumed from a parent (a ``[Ring R]`` gives no ``CommRing R``). An instance
  edge is trusted only when the instance's binders other than type variables are written in
  its own header: one whose instance binder comes from a ``variable`` may depend on further
  section variables the index could not see (Lean includes a variable the *elaborated* body
  uses: ``Valued.completable`` needs a ``[Valued K Γ₀]`` its record lacks), so it is not
  followed — except the edges in :data:`CHECKED_INSTANCE_EDGES`, whose sections were read.
* **``x ∈ S`` and its element type.** ``Membership α γ`` has ``α`` as an ``outParam`` (Lean
  core ``class Membership (α : outParam (Type u)) (γ : Type v)``): the collection's type alone
  fixes the element's. :meth:`IndexClasses.element_type` reads it from the instances of the
  index: ``SetLike (Subring R) R`` (``SetLike.instMembership : Membership B A`` for
  ``[SetLike A B]``), ``Membership (Set α) (Filter α)``, a reducible abbreviation unfolded
  (``Ideal R`` is ``Submodule R R``). No instance, or instances that disagree: None (the
  element's type is then not inferred).
"""

from __future__ import annotations

from collections import deque
from collections.abc import Mapping
from functools import lru_cache
from typing import Protocol

from transted.pipeline.opt.elaborate.index_types import (
    IndexTypes,
    Unrepresentable,
    is_sort,
    placeholder,
    substitute_type_variables,
)
from transted.pipeline.opt.elaborate.set_coercions import (
    SetCoercions,
    has_placeholder,
    match_type_pattern,
)
from transted.pipeline.opt.elaborate.types import Ty, Type_
from transted.pipeline.opt.mathlib.records import HierarchyEdge, IndexedDeclaration

__all__ = ["ClassInstance", "ClassResolver", "HierarchySource", "IndexClasses",
           "CHECKED_INSTANCE_EDGES"]

ClassInstance = tuple[str, tuple[Type_, ...]]
"""A class (full name) at its arguments: ``("Module", (ℝ, E))``."""
CHECKED_INSTANCE_EDGES = {
    "semigroupDvd": "Mathlib/Algebra/Divisibility/Basic.lean:37-46: the section's variables "
                    "are {α : Type*} [Semigroup α] {a b c : α}; `instance semigroupDvd : Dvd α "
                    ":= Dvd.mk fun a b => ∃ c, b = a * c` needs no other",
}
"""Instance edges whose binders come from ``variable`` commands, trusted because the
section's variables were read in the pinned Mathlib source (the only instance binder is
the one the edge names)."""
_MAX_REACHED = 4096
_MAX_UNFOLD = 3
_PLACEHOLDER = "\0"


class ClassResolver(Protocol):
    def provides(self, given: ClassInstance, wanted: ClassInstance) -> bool:
        """An instance ``given`` (a local instance binder) gives ``wanted``."""
        ...

    def element_type(self, collection: Ty) -> Type_ | None:
        """The element type of ``x ∈ s`` with ``s : collection`` (``Membership``'s outParam);
        None when the index does not say."""
        ...

    def set_of(self, collection: Ty) -> Type_ | None:
        """``B`` when ``collection`` is ``SetLike`` over ``B`` (a coercion to ``Set B``)."""
        ...

    def excluded_from_set(self, target: Ty) -> bool:
        """No coercion goes from a ``Set`` into ``target``."""
        ...


class HierarchySource(Protocol):
    def parents(self, name: str) -> tuple[HierarchyEdge, ...]: ...

    def ancestors(self, name: str) -> frozenset[str]: ...

    def instances_of(self, class_name: str) -> tuple[str, ...]: ...

    def declaration(self, name: str) -> IndexedDeclaration | None: ...


class IndexClasses:
    """:class:`ClassResolver` over the index (edges and instances read on first use)."""

    def __init__(self, index: HierarchySource, types: IndexTypes) -> None:
        self.index = index
        self.types = types
        self.provided = lru_cache(maxsize=1024)(self._provided)
        self._links: dict[str, tuple[tuple[str, tuple[Type_, ...]], ...]] = {}
        self._ancestors: dict[str, frozenset[str]] = {}
        self._membership: dict[str, list[tuple[Ty, Type_]]] | None = None
        self.set_coercions = SetCoercions(index.instances_of, index.declaration, types)

    # -- the hierarchy ------------------------------------------------------------------------
    def provides(self, given: ClassInstance, wanted: ClassInstance) -> bool:
        if given == wanted:
            return True
        if wanted[0] not in self._ancestors_of(given[0]):  # the names alone rule it out
            return False
        return wanted in self.provided(given)

    def _ancestors_of(self, name: str) -> frozenset[str]:
        hit = self._ancestors.get(name)
        if hit is None:
            hit = self._ancestors[name] = self.index.ancestors(name)
        return hit

    def _provided(self, given: ClassInstance) -> frozenset[ClassInstance]:
        """Every class instance ``given`` reaches through trusted edges, with arguments."""
        seen = {given}
        queue = deque([given])
        while queue and len(seen) < _MAX_REACHED:
            cls, args = queue.popleft()
            for parent, template in self.links(cls):
                values = {str(i): a for i, a in enumerate(args)}
                mapped = tuple(substitute_type_variables(t, values) for t in template)
                if any(has_placeholder(t) for t in mapped):
                    continue  # the parent takes an argument the child does not determine
                reached = (parent, mapped)
                if reached not in seen:
                    seen.add(reached)
                    queue.append(reached)
        return frozenset(seen)

    def links(self, cls: str) -> tuple[tuple[str, tuple[Type_, ...]], ...]:
        """The trusted parent edges of ``cls``: (parent, its arguments over the child's
        positional parameters ``"0"``, ``"1"``, …)."""
        hit = self._links.get(cls)
        if hit is None:
            hit = self._links[cls] = tuple(self._read_links(cls))
        return hit

    def _read_links(self, cls: str) -> list[tuple[str, tuple[Type_, ...]]]:
        child = self.index.declaration(cls)
        if child is None:
            return []
        own = [n for b in child.binders if b.kind != "instance" for n in b.names]
        positions = {n: placeholder(str(i)) for i, n in enumerate(own)}
        out = []
        for edge in self.index.parents(cls):
            if edge.by == "extends":
                out += self._extends(child, edge, positions)
            elif self._trusted_instance(edge.via):
                out.append((edge.parent, tuple(placeholder(str(i)) for i in range(len(own)))))
        return out

    def _extends(self, child: IndexedDeclaration, edge: HierarchyEdge,
                 positions: Mapping[str, Type_]) -> list[tuple[str, tuple[Type_, ...]]]:
        out = []
        for p in child.parents:
            if p.name != edge.parent or f"{child.name}.{p.projection}" != edge.via:
                continue
            tree = p.term.tree
            if tree is None:
                continue
            try:
                args = tuple(self.types.read(c, child.scope, positions, frozenset())
                             for c in tree.children)
            except Unrepresentable:
                continue
            out.append((edge.parent, args))
        return out

    def _trusted_instance(self, via: str) -> bool:
        """``instance [C α …] : P α …`` written with all its binders in its header, the
        class binder's arguments distinct variables of the instance (so it applies at any
        arguments, as the edge's identity mapping says)."""
        d = self.index.declaration(via)
        if d is None or d.kind != "instance":
            return False
        if via not in CHECKED_INSTANCE_EDGES and any(
                b.from_variable and not is_sort(b.type.tree) for b in d.binders):
            return False
        binders = [b for b in d.binders if b.kind == "instance"]
        own = {n for b in d.binders for n in b.names}
        tree = binders[0].type.tree if len(binders) == 1 else None
        if tree is None:
            return False
        labels = [c.label for c in tree.children]
        return (all(c.is_leaf for c in tree.children) and len(set(labels)) == len(labels)
                and set(labels) <= own)

    # -- SetLike coercions (transted.pipeline.opt.elaborate.set_coercions) --------------------
    def set_of(self, collection: Ty) -> Type_ | None:
        return self.set_coercions.set_of(collection)

    def excluded_from_set(self, target: Ty) -> bool:
        return self.set_coercions.excluded_from_set(target)

    # -- Membership's outParam ----------------------------------------------------------------
    def element_type(self, collection: Ty) -> Type_ | None:
        t: Ty | None = collection
        for _ in range(_MAX_UNFOLD):
            if t is None:
                return None
            found = {r for r in self._element_types(t) if not has_placeholder(r)}
            if len(found) == 1:
                return found.pop()
            if found:
                return None  # two instances disagree: the model cannot say which Lean picks
            t = self.types.unfold_type(t)
        return None

    def _element_types(self, collection: Ty) -> list[Type_]:
        out = []
        for pattern, element in self._rules().get(collection.head, []):
            binding: dict[str, Type_] = {}
            if match_type_pattern(pattern, collection, binding):
                out.append(substitute_type_variables(element, binding))
        return out

    def _rules(self) -> dict[str, list[tuple[Ty, Type_]]]:
        """Per collection head: (collection pattern, element type) of each ``SetLike A B``
        and ``Membership α γ`` instance of the index."""
        if self._membership is None:
            rules: dict[str, list[tuple[Ty, Type_]]] = {}
            for cls, coll, elem in (("SetLike", 0, 1), ("Membership", 1, 0)):
                for name in self.index.instances_of(cls):
                    rule = self._rule(name, coll, elem)
                    if rule is not None:
                        rules.setdefault(rule[0].head, []).append(rule)
            self._membership = rules
        return self._membership

    def _rule(self, name: str, coll: int, elem: int) -> tuple[Ty, Type_] | None:
        d = self.index.declaration(name)
        if d is None or d.instance is None or len(d.instance.arguments) != 2:
            return None
        types = {n: placeholder(n) for b in d.binders if is_sort(b.type.tree)
                 for n in b.names}
        values = frozenset(n for b in d.binders for n in b.names) - set(types)
        try:
            pattern = self.types.read(d.instance.arguments[coll], d.scope, types, values)
            element = self.types.read(d.instance.arguments[elem], d.scope, types, values)
        except Unrepresentable:
            return None
        if not isinstance(pattern, Ty) or pattern.head.startswith(_PLACEHOLDER):
            return None  # `SetLike.instMembership`: any collection, read through SetLike
        return pattern, element

