"""Does a class instance a lemma asks for exist at the types of the subterm it rewrites?

A lemma stated for ``[CommRing R]`` may rewrite a subterm over ℝ only if Lean finds a
``CommRing ℝ`` instance (``mul_comm`` must not fire in a ring that is not commutative). The
answer is *yes* only when one of these proves it, and *no* otherwise (never a guess):

1. a local instance of the pair (an antecedent ``[Field K]`` of the statement, above the
   rewritten subterm) of a class that gives the one asked for (``provides`` in the index's class
   hierarchy: ``extends`` and single-instance-binder instance edges);
2. the instance table (``transted/pipeline/opt/instances.yaml``, each entry cited) for the number types,
   through the hierarchy (``Field ℝ`` gives ``CommMagma ℝ``);
3. an instance declaration of the index for the class (or a class that gives it) whose
   arguments unify with the types, each of its instance binders found the same way (depth
   :data:`MAX_DEPTH`, Lean's typeclass resolution cut short); one with an explicit argument
   cannot fire by itself and is not used, nor one whose arguments mention a binder that is not
   a type (``instance {X : FintypeCat} : Finite X`` is about the coerced ``↥X``, not about
   every type), nor one whose section instances the index could not read
   (``unread_instances``);
4. ``Decidable p``, ``DecidableEq α``, ``DecidablePred``, ``DecidableRel``: a ``Decidable``
   instance is a subsingleton (``instSubsingletonDecidable``, Lean core Init/Core.lean) and
   classical logic gives one for every proposition (``Classical.propDecidable``), so the
   rewritten statement means the same whichever instance Lean uses.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from collections.abc import Set as AbstractSet
from functools import lru_cache

from transted.pipeline.opt.elaborate.index_types import is_sort
from transted.pipeline.opt.elaborate.type_nodes import type_of_node
from transted.pipeline.opt.elaborate.types import SORT, Ty, Type_, show
from transted.pipeline.opt.instances import load_instance_table
from transted.pipeline.opt.mathlib.index import MathlibIndex
from transted.pipeline.opt.node import Node
from transted.pipeline.opt.scope import free_names, head_name

__all__ = ["InstanceOracle", "LocalInstance", "MAX_DEPTH", "DECIDABLE"]

MAX_DEPTH = 3
DECIDABLE = frozenset({"Decidable", "DecidableEq", "DecidablePred", "DecidableRel"})

LocalInstance = tuple[str, tuple[Ty, ...]]
"""A class instance the pair's statement assumes: class name and argument types."""


class InstanceOracle:
    """Instance existence from the pair's local instances, the instance table and the index."""

    def __init__(self, index: MathlibIndex) -> None:
        self.index = index

    def holds(self, cls: str, args: tuple[Type_, ...],
              local: Sequence[LocalInstance] = ()) -> bool:
        """True when the instance ``cls args`` certainly exists (see the module docstring)."""
        if cls in DECIDABLE:
            return True
        if not all(isinstance(a, Ty) and _closed(a) for a in args):
            return False
        typed = tuple(a for a in args if isinstance(a, Ty))
        if any(c == cls or self.index.provides(c, cls) for c, a in local if a == typed):
            return True
        return _global_instance(self.index, cls, typed)


@lru_cache(maxsize=16384)
def _global_instance(index: MathlibIndex, cls: str, args: tuple[Ty, ...]) -> bool:
    """Whether ``cls args`` has an instance without the pair's local ones: a function of the
    query alone (each query resolves with its own cycle guard), so it is kept for the process
    and a pair's answer never depends on which pairs ran before it."""
    return _Resolution(index)._global(cls, args, MAX_DEPTH)


class _Resolution:
    """One global instance query: Lean's typeclass resolution cut to :data:`MAX_DEPTH`."""

    def __init__(self, index: MathlibIndex) -> None:
        self.index = index
        self.table = load_instance_table()
        self._memo: dict[tuple[str, tuple[Ty, ...]], bool] = {}

    def _global(self, cls: str, args: tuple[Ty, ...], depth: int) -> bool:
        key = (cls, args)
        if key in self._memo:
            return self._memo[key]
        self._memo[key] = False  # a cycle through this goal fails
        found = self._table(cls, args) or (depth > 0 and self._declared(cls, args, depth))
        self._memo[key] = found
        return found

    def _table(self, cls: str, args: tuple[Ty, ...]) -> bool:
        if len(args) != 1 or args[0].args:
            return False
        name = show(args[0])
        if self.table.find(name, cls) is not None:
            return True
        return any(self.index.provides(k, cls) for k in self.table.classes_at(name))

    def _declared(self, cls: str, args: tuple[Ty, ...], depth: int) -> bool:
        for name, patterns, variables in _candidates(self.index, cls, len(args)):
            bound: dict[str, Ty] = {}
            if all(_bind(p, a, variables, bound) for p, a in zip(patterns, args, strict=True)) \
                    and self._fires(name, args, depth):
                return True
        return False

    def _fires(self, name: str, args: tuple[Ty, ...], depth: int) -> bool:
        """Whether the instance ``name``, whose head patterns bind ``args``
        (:func:`_candidates`), fires."""
        shape = _instance_shape(self.index, name, len(args))
        if shape is None:
            return False
        patterns, variables, needs = shape
        theta: dict[str, Ty] = {}
        if not all(_bind(p, a, variables, theta) for p, a in zip(patterns, args, strict=True)):
            return False
        for tree, sorts in needs:
            needed = _class_application(tree, sorts, theta)
            if needed is None or not self._global(needed[0], needed[1], depth - 1):
                return False
        return True


_Shape = tuple[tuple[Ty, ...], frozenset[str], tuple[tuple[Node | None, Mapping[str, Type_]], ...]]


_Candidate = tuple[str, tuple[Ty, ...], frozenset[str]]


@lru_cache(maxsize=4096)
def _candidates(index: MathlibIndex, cls: str, arity: int) -> tuple[_Candidate, ...]:
    """The instance declarations a query ``cls`` at ``arity`` types tries, in the order it
    tries them (those of ``cls``, then of each class that gives it, by name), each with its
    head patterns (:func:`_instance_patterns`); those whose patterns do not read are left out
    (they never fire). Read once per process: a query tries hundreds, most at other types."""
    out: list[_Candidate] = []
    for provider in (cls, *sorted(_descendants(index, cls))):
        for name in index.instances_of(provider):
            first = _instance_patterns(index, name, arity)
            if first is not None:
                out.append((name, first[0], first[1]))
    return tuple(out)


@lru_cache(maxsize=65536)
def _instance_patterns(index: MathlibIndex, name: str, arity: int
                       ) -> tuple[tuple[Ty, ...], frozenset[str]] | None:
    """The instance's argument patterns read as if every binder that is not an instance binder
    were a type (its binder types are not decoded), or None: the shape's own tests, and a
    pattern that does not read even so. A necessary condition of :func:`_instance_shape`'s
    patterns binding, read from the record's head alone (most instances a query tries are
    at other types): when the shape is not None no argument mentions a binder that is not a
    type, so these patterns are the shape's and bind alike; a pattern None here is None there
    (more names read as types only make fewer patterns None)."""
    h = index.instance_header(name)
    if (h is None or h.instance is None or len(h.instance.arguments) != arity
            or h.unread_instances or "scoped" in h.keyword
            or any(kind == "explicit" for _, kind in h.groups)):
        return None
    names = frozenset(n for group, kind in h.groups if kind != "instance" for n in group)
    patterns = _argument_patterns(h.instance.arguments, dict.fromkeys(names, SORT))
    return None if patterns is None else (patterns, names)


@lru_cache(maxsize=65536)
def _instance_shape(index: MathlibIndex, name: str, arity: int) -> _Shape | None:
    """An instance declaration's argument patterns, their type variables and its instance
    binders, read from the index once per process (a query tries hundreds of instances);
    None for one that cannot fire by itself (see the module docstring)."""
    d = index.declaration(name)
    if (d is None or d.instance is None or len(d.instance.arguments) != arity
            or d.unread_instances or "scoped" in d.keyword or any(b.kind == "explicit" for b in d.binders)):
        return None
    sorts: dict[str, Type_] = {n: SORT for b in d.binders if b.kind != "instance"
                               and is_sort(b.type.tree) for n in b.names}
    values = {n for b in d.binders if b.kind != "instance" for n in b.names} - set(sorts)
    if any(free_names(node) & values for node in d.instance.arguments):
        return None  # `instance {X : FintypeCat} : Finite X`: a term coerced to a type (`↥X`)
    patterns = _argument_patterns(d.instance.arguments, sorts)
    if patterns is None:
        return None
    needs = tuple((b.type.tree, sorts) for b in d.binders if b.kind == "instance")
    return patterns, frozenset(sorts), needs


def _argument_patterns(arguments: Sequence[Node], types: Mapping[str, Type_]
                       ) -> tuple[Ty, ...] | None:
    """An instance's arguments as type patterns over ``types``, or None when one is not a
    type the model reads."""
    patterns: list[Ty] = []
    for node in arguments:
        pattern = type_of_node(node, types)
        if pattern is None:
            return None
        patterns.append(pattern)
    return tuple(patterns)


@lru_cache(maxsize=1024)
def _descendants_cached(index: MathlibIndex, cls: str) -> frozenset[str]:
    seen: set[str] = set()
    todo = [cls]
    while todo:
        for edge in index.children(todo.pop()):
            if edge.child not in seen:
                seen.add(edge.child)
                todo.append(edge.child)
    return frozenset(seen - {cls})


def _descendants(index: MathlibIndex, cls: str) -> frozenset[str]:
    return _descendants_cached(index, cls)


def _closed(t: Ty) -> bool:
    return all(isinstance(a, Ty) and _closed(a) for a in t.args)


def _bind(pattern: Ty, t: Ty, variables: AbstractSet[str], theta: dict[str, Ty]) -> bool:
    if not pattern.args and pattern.head in variables:
        old = theta.get(pattern.head)
        if old is None:
            theta[pattern.head] = t
            return True
        return old == t
    if pattern.head != t.head or len(pattern.args) != len(t.args):
        return False
    return all(isinstance(p, Ty) and isinstance(a, Ty) and _bind(p, a, variables, theta)
               for p, a in zip(pattern.args, t.args, strict=True))


def _class_application(tree: Node | None, sorts: Mapping[str, Type_], theta: dict[str, Ty]
                       ) -> tuple[str, tuple[Ty, ...]] | None:
    if tree is None or tree.is_leaf:
        return None
    cls = head_name(tree.label, len(tree.children))
    if cls is None:
        return None
    out: list[Ty] = []
    for child in tree.children:
        ty = type_of_node(child, sorts)
        if ty is None:
            return None
        out.append(substitute_type(ty, theta))
    return cls, tuple(out)


def substitute_type(ty: Ty, theta: dict[str, Ty]) -> Ty:
    """``ty`` with its type variables replaced by ``theta``."""
    if not ty.args and ty.head in theta:
        return theta[ty.head]
    return Ty(ty.head, tuple(substitute_type(a, theta) if isinstance(a, Ty) else a
                             for a in ty.args))
