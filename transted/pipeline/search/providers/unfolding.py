"""``unfold``: a Mathlib definition replaced by its body, as Lean's ``unfold`` does (issue 32).

One move per occurrence of an application ``C a₁ … aₙ`` of a definition the Mathlib declaration
index (:mod:`transted.pipeline.opt.mathlib`) holds with a body: ``Set.Nonempty s`` becomes
``∃ x, x ∈ s``, ``Function.Surjective f`` becomes ``∀ b, ∃ a, f a = b``, ``Even n`` becomes
``∃ r, n = r + r``. A plain ``def`` unfolds as soundly as an ``abbrev``: ``unfold`` (``delta``)
replaces a constant by its definition, which is definitional equality, whatever the
reducibility Lean's automation uses; an ``irreducible_def`` is never unfolded (Lean hides its
body behind an opaque constant). A move applies only where every step is certain:

* the definition is a ``def``/``abbrev`` whose value is one term that parsed, is not
  recursive (the index's ``unfoldable``), and is not a ``@[to_additive]`` copy (whose value
  the index only has by name translation);
* the definition is not a ``def`` whose value is a type (a *type synonym*,
  :meth:`MathlibIndex.defines_a_type`): ``OrderDual ℕ`` and ``ℕ`` are one term, but the
  statement's ``≤`` on the first is ``ℕ``'s reversed (Mathlib/Order/Synonym.lean gives each
  synonym its own instances, and Lean's instance resolution does not unfold a ``def``); an
  ``abbrev`` is reducible, so instance resolution sees through it and it unfolds;
* a bound variable's type written as an implicit type parameter is left out where an explicit
  function parameter is applied to the variable (``∀ ⦃x₁ : α⦄, … f x₁ …`` with ``f : α →
  β``: Lean infers ``α`` from ``f``'s domain, so the term is the same);
* the application gives exactly its explicit parameters (partial or extra arguments: no
  move), and the body mentions no implicit parameter (a type the tree does not write);
* every other name in the body resolves to one constant in the declaration's own scope (its
  namespace and ``open`` lines, with the bundled name table), and is written in full, as the
  normalised trees write names; a body with generalised field notation (``s.1``) is left alone
  (which constant ``.1`` is depends on a type the tree does not carry);
* the arguments go in by capture-avoiding substitution.

``∃! x, p x`` unfolds by ``ExistsUnique``'s definition (Mathlib/Logic/ExistsUnique.lean:22),
beta-reduced: ``∃ x, p x ∧ ∀ y, p y → y = x``.

Two notations unfold through their instance (curated, each with its source), only where the
operands' types are known from their binders: ``a ∣ b`` over ℕ or ℤ (``Nat.instDvdNat``, Lean
core ``Init/Data/Nat/Dvd.lean``; ``Int.instDvdInt``, ``Init/Data/Int/Basic.lean``: ``⟨fun a b =>
∃ c, b = a * c⟩``) and ``s ⊆ t`` over ``Set``/``Finset`` (``Set.instHasSubset`` →
``Set.Subset``, Mathlib/Data/Set/Defs.lean; ``Finset.instHasSubset``,
Mathlib/Data/Finset/Defs.lean: ``∀ ⦃a⦄, a ∈ s → a ∈ t``).

The move's tactic is ``unfold C`` (for a notation unfolded through its instance,
``rw [show (a ∣ b) = (∃ c, b = a * c) from rfl]``: the two are definitionally equal); every
script is marked unverified (no Lean here).
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass
from functools import lru_cache

from transted.budget import Budget
from transted.errors import InputError
from transted.pipeline.opt.header_scope import OpenDecl, Scope
from transted.pipeline.opt.labels import (
    ARROW,
    EXISTS,
    FORALL,
    IMPLICIT_BINDER,
    SLOT,
    STRICT_BINDER,
    TYPED_BINDER,
)
from transted.pipeline.opt.mathlib import MathlibIndex, load_index
from transted.pipeline.opt.mathlib.records import IndexedDeclaration
from transted.pipeline.opt.names import Constant, load_name_table
from transted.pipeline.opt.node import Node
from transted.pipeline.opt.render import to_lean
from transted.pipeline.opt.scope import free_names, head_name
from transted.pipeline.opt.substitution import fresh_name, substitute
from transted.pipeline.search.pattern import Path, positions
from transted.pipeline.search.providers.base import Move, Provider, ProviderContext
from transted.pipeline.search.scalars import ScopeAt, term_type
from transted.pipeline.search.state import State

__all__ = ["UnfoldProvider", "UnfoldableDefinition", "definition_template"]

VERSION = "4"
"""Version of the moves (in the signature beside the index's): 2 leaves type synonyms folded;
3 leaves out a bound variable's type that a function parameter's domain fixes; 4 unfolds
``∃!``."""


@dataclass(frozen=True)
class UnfoldableDefinition:
    """A definition ready to unfold: its explicit parameters and its body, names in full."""

    name: str
    params: tuple[str, ...]
    body: Node


class UnfoldProvider(Provider):
    """Unfold moves from the Mathlib declaration index (see the module docstring)."""

    name = "unfold"
    version = VERSION

    def __init__(self, index: MathlibIndex | None = None) -> None:
        self._index = index

    @classmethod
    def from_context(cls, context: ProviderContext) -> UnfoldProvider:
        return cls()

    @property
    def index(self) -> MathlibIndex | None:
        if self._index is None:
            self._index = _bundled_index()
        return self._index

    def options(self) -> dict[str, object]:
        index = self.index
        return {"unfold": f"{VERSION}-{index.version}" if index is not None
                else "no-index"}

    def moves(self, state: State, budget: Budget) -> Iterator[Move]:
        if state.closed or self.index is None:
            return
        outer = state.local_types()
        for side in ("lhs", "rhs"):
            tree: Node = getattr(state, side)
            for path, node in positions(tree):
                if budget.spent():
                    return
                found = self._unfold(node, tree, path, outer)
                if found is not None:
                    name, new, tactic = found
                    yield Move(name, tactic, state.rewritten(side, path, new))

    def _unfold(self, node: Node, tree: Node, path: Path, outer: object
                ) -> tuple[str, Node, str] | None:
        """``(definition, unfolded term, tactic)`` for ``node``, or None."""
        notation = _notation(node, ScopeAt(tree, path, outer))  # type: ignore[arg-type]
        if notation is not None:  # an instance's value, equal to the notation by `rfl`
            new = notation[1]
            return notation[0], new, f"rw [show ({to_lean(node)}) = ({to_lean(new)}) from rfl]"
        head = head_name(node.label, len(node.children))
        if head is None or node.label != head + f" {SLOT}" * len(node.children):
            return None
        assert self.index is not None
        template = definition_template(self.index, head)
        if template is None or len(template.params) != len(node.children):
            return None
        return head, _instantiate(template, node.children), f"unfold {head}"


def definition_template(index: MathlibIndex, name: str) -> UnfoldableDefinition | None:
    """The definition ``name`` ready to unfold, or None (see the module docstring)."""
    return _template(index, name)


@lru_cache(maxsize=4096)
def _template(index: MathlibIndex, name: str) -> UnfoldableDefinition | None:
    decl = index.declaration(name)
    if decl is None or not _unfoldable(decl):
        return None
    if decl.kind == "def" and index.defines_a_type(name):
        return None  # a type synonym: its value elaborates with other instances
    assert decl.body is not None and decl.body.value.tree is not None
    body = decl.body.value.tree
    explicit = [n for b in decl.binders if b.kind == "explicit" for n in b.names]
    implicit = {n for b in decl.binders if b.kind != "explicit" for n in b.names}
    if len(set(explicit)) != len(explicit) or "_" in explicit:
        return None
    body = _inferred_binder_types(body, decl, implicit)
    free = free_names(body)
    if free & implicit:
        return None
    resolved = _resolved_names(body, free - set(explicit), decl)
    return None if resolved is None else UnfoldableDefinition(name, tuple(explicit), resolved)


def _inferred_binder_types(body: Node, decl: IndexedDeclaration, implicit: set[str]) -> Node:
    """``body`` with the type of a bound variable left out where it is an implicit type
    parameter that an explicit function parameter fixes (``∀ ⦃x₁ : α⦄, … f x₁ …`` with
    ``f : α → β``, ``Set.InjOn``): Lean elaborates ``f x₁`` by unifying ``x₁``'s type with
    ``f``'s domain, so the binder is ``α`` whether written or not, and the tree then names no
    type the application does not give."""
    domains = {n: b.type.tree.children[0].label for b in decl.binders
               if b.kind == "explicit" and b.type.tree is not None
               and b.type.tree.label == ARROW and b.type.tree.children[0].is_leaf
               for n in b.names}
    return _strip_ascriptions(body, {f: d for f, d in domains.items() if d in implicit})


def _strip_ascriptions(node: Node, domains: dict[str, str]) -> Node:
    kids = tuple(_strip_ascriptions(c, domains) for c in node.children)
    if node.label in (FORALL, EXISTS) and len(kids) == 2:
        binder = kids[0]
        if binder.label in _TYPED_BINDERS and len(binder.children) == 2 \
                and binder.children[0].is_leaf and binder.children[1].is_leaf:
            name, ty = binder.children[0].label, binder.children[1].label
            if any(ty == d and _applied(kids[1], f, name) for f, d in domains.items()):
                return Node(node.label, (binder.children[0], kids[1]))
    return Node(node.label, kids) if kids != node.children else node


def _applied(tree: Node, function: str, argument: str) -> bool:
    """``function argument`` occurs in ``tree`` (an application of the name to the leaf)."""
    return any(n.label == f"{function} {SLOT}" and n.children[0].is_leaf
               and n.children[0].label == argument for n in tree.preorder())


_TYPED_BINDERS = frozenset({TYPED_BINDER, STRICT_BINDER, IMPLICIT_BINDER})


def _unfoldable(decl: IndexedDeclaration) -> bool:
    return (decl.kind in ("def", "abbrev") and decl.reducibility != "irreducible"
            and decl.generated is None and decl.body is not None and decl.body.unfoldable
            and decl.body.form == "term" and decl.body.value.tree is not None)


def _resolved_names(body: Node, names: frozenset[str], decl: IndexedDeclaration) -> Node | None:
    """``body`` with every name in ``names`` written as the constant it resolves to in the
    declaration's scope, or None when one does not resolve to exactly one constant."""
    if any(n.label.startswith(f"{SLOT}.") for n in body.preorder()):
        return None  # generalised field notation: which constant depends on a type
    table = load_name_table()
    scope = Scope(namespace=decl.scope.namespace,
                  opens=tuple(OpenDecl(namespace=ns) for ns in decl.scope.opens))
    full: dict[str, str] = {}
    for name in names:
        if not name or not (name[0].isalpha() or name[0] == "_"):
            continue  # a numeral or a symbol, not a name
        try:
            found = table.resolve(name, scope=scope)
        except InputError:
            return None
        if not isinstance(found, Constant) or found.fields:
            return None
        full[name] = found.name
    return _renamed(body, full)


def _renamed(tree: Node, full: dict[str, str]) -> Node:
    if not full:
        return tree

    def rename(node: Node) -> Node:
        kids = tuple(rename(c) for c in node.children)
        head = head_name(node.label, len(kids))
        label = node.label
        if head is not None and head in full:
            label = full[head] + label[len(head):]
        return Node(label, kids)
    return rename(tree)


def _instantiate(template: UnfoldableDefinition, args: tuple[Node, ...]) -> Node:
    """The body with the parameters replaced by the arguments, all at once (each parameter
    first renamed to a name free everywhere, so one argument never meets another's)."""
    avoid = set(free_names(template.body)) | {n for a in args for n in free_names(a)}
    body = template.body
    placeholders = []
    for p in template.params:
        fresh = fresh_name(f"{p}✝", avoid)
        avoid.add(fresh)
        body = substitute(body, p, Node(fresh))
        placeholders.append(fresh)
    for fresh, arg in zip(placeholders, args, strict=True):
        body = substitute(body, fresh, arg)
    return body


def _notation(node: Node, env: ScopeAt) -> tuple[str, Node] | None:
    """``a ∣ b`` over ℕ/ℤ and ``s ⊆ t`` over ``Set``/``Finset`` through their instances;
    ``∃! x, p x`` by ``ExistsUnique``'s definition."""
    if len(node.children) != 2:
        return None
    a, b = node.children
    avoid = set(env) | free_names(a) | free_names(b)
    if node.label == EXISTS_UNIQUE:
        unique = _exists_unique(a, b, avoid)
        return None if unique is None else ("ExistsUnique", unique)
    if node.label == f"{SLOT} ∣ {SLOT}":
        types = {term_type(a, env), term_type(b, env)}
        if len(types) != 1 or types.pop() not in ("ℕ", "ℤ"):
            return None
        c = Node(fresh_name("c", avoid))
        product = Node(f"{SLOT} = {SLOT}", (b, Node(f"{SLOT} * {SLOT}", (a, c))))
        return "Dvd.dvd", Node(f"∃ {SLOT}, {SLOT}", (c, product))
    if node.label == f"{SLOT} ⊆ {SLOT}":
        kinds = {_collection(a, env), _collection(b, env)}
        if len(kinds) != 1 or kinds.pop() not in ("Set", "Finset"):
            return None
        x = Node(fresh_name("a", avoid))
        membership = Node(f"{SLOT} → {SLOT}", (Node(f"{SLOT} ∈ {SLOT}", (x, a)),
                                               Node(f"{SLOT} ∈ {SLOT}", (x, b))))
        return "HasSubset.Subset", Node(f"∀ {SLOT}, {SLOT}", (x, membership))
    return None


def _exists_unique(binder: Node, body: Node, avoid: set[str]) -> Node | None:
    """``∃! x, p x`` is ``ExistsUnique fun x => p x`` (Lean core/Mathlib notation), and
    ``def ExistsUnique (p : α → Prop) := ∃ x, p x ∧ ∀ y, p y → y = x``
    (Mathlib/Logic/ExistsUnique.lean:22); beta-reduced: ``∃ x, p x ∧ ∀ y, p y → y = x``
    (the binder's written type on both). Only a single plain or typed binder."""
    if binder.is_leaf:
        x, typ = binder.label, None
    elif binder.label == TYPED_BINDER and binder.children[0].is_leaf:
        x, typ = binder.children[0].label, binder.children[1]
    else:
        return None
    y = Node(fresh_name("y", avoid | {x}))
    other = substitute(body, x, y)
    y_binder = y if typ is None else Node(TYPED_BINDER, (y, typ))
    rest = Node(FORALL, (y_binder, Node(ARROW, (other, Node(f"{SLOT} = {SLOT}",
                                                                (y, Node(x)))))))
    return Node(EXISTS, (binder, Node(f"{SLOT} ∧ {SLOT}", (body, rest))))


EXISTS_UNIQUE = f"∃! {SLOT}, {SLOT}"


def _collection(node: Node, env: ScopeAt) -> str | None:
    """``Set``/``Finset`` when ``node`` is a variable declared with that type."""
    if not node.is_leaf:
        return None
    typ = env.get(node.label)
    head = typ.label.split(" ", 1)[0] if isinstance(typ, Node) else None
    return head if head in ("Set", "Finset") else None


@lru_cache(maxsize=1)
def _bundled_index() -> MathlibIndex | None:
    try:
        return load_index()
    except FileNotFoundError:
        return None
