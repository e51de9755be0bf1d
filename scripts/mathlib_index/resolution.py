"""Once every file is read: names written in the source → the declarations they name, global
``attribute [..]`` commands applied, and the class hierarchy's edges.

Resolution ports the part of Lean's ``ResolveName.resolveGlobalName`` (src/Lean/ResolveName.lean)
the index needs: in namespace ``A.B`` the name ``x`` is ``A.B.x``, else ``A.x``, else — together
— the root ``x`` and ``O.x`` for every open ``O``; several candidates there are ambiguous and
the name stays as written (as does a name the index does not know, e.g. most of Lean core).
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import replace

from scripts.mathlib_index.attributes import AttributeCommand
from scripts.mathlib_index.kinds import instance_of
from transted.pipeline.opt.mathlib.records import (
    DeclarationScope,
    Deprecation,
    HierarchyEdge,
    IndexedDeclaration,
    InstanceOf,
    LemmaStatement,
)
from transted.pipeline.opt.scope import head_name

__all__ = ["Resolver", "resolve_records", "apply_attribute_commands", "hierarchy_edges",
           "rewrite_head"]


class Resolver:
    def __init__(self, names: Iterable[str]) -> None:
        self.names = frozenset(names)

    def resolve(self, written: str, scope: DeclarationScope) -> str | None:
        name = written.lstrip("@")
        if name.startswith("_root_."):
            name = name[len("_root_."):]
            return name if name in self.names else None
        parts = scope.namespace.split(".") if scope.namespace else []
        for cut in range(len(parts), 0, -1):
            candidate = ".".join([*parts[:cut], name])
            if candidate in self.names:
                return candidate
        hits = {c for c in [name, *(f"{o}.{name}" for o in scope.opens)] if c in self.names}
        return hits.pop() if len(hits) == 1 else None

    def resolved(self, written: str, scope: DeclarationScope) -> str:
        return self.resolve(written, scope) or written.lstrip("@")


def resolve_records(records: list[IndexedDeclaration], resolver: Resolver) -> list[IndexedDeclaration]:
    """Parents, instance classes, alias targets and deprecation targets resolved."""
    out = []
    for r in records:
        changes: dict[str, object] = {}
        if r.parents:
            changes["parents"] = tuple(replace(p, name=resolver.resolved(p.name, r.scope))
                                       for p in r.parents)
        if r.instance is not None:
            changes["instance"] = InstanceOf(resolver.resolved(r.instance.class_name, r.scope),
                                             r.instance.arguments)
        if r.alias_of is not None:
            changes["alias_of"] = resolver.resolved(r.alias_of, r.scope)
        if r.deprecated is not None:
            new = r.deprecated.new_name or (changes.get("alias_of") if r.kind == "alias" else None)
            changes["deprecated"] = Deprecation(
                resolver.resolved(new, r.scope) if isinstance(new, str) else None,
                r.deprecated.since)
        out.append(replace(r, **changes) if changes else r)  # type: ignore[arg-type]
    return out


def apply_attribute_commands(records: dict[str, IndexedDeclaration],
                             commands: list[tuple[AttributeCommand, DeclarationScope]],
                             resolver: Resolver) -> int:
    """Add the attributes of global ``attribute [a] x`` commands to ``x`` (a ``scoped``/``local``
    one never reaches here). An erasure
    ``attribute [-simp] x`` is not applied: Lean's erase changes the current file's state only
    (``modifyState``, not an exported entry: src/Lean/Meta/Tactic/Simp/Attr.lean), so a file
    importing Mathlib still sees the attribute. Returns how many names did not resolve."""
    missed = 0
    for command, scope in commands:
        for written in command.names:
            name = resolver.resolve(written, scope)
            if name is None or name not in records:
                missed += 1
                continue
            r = records[name]
            attrs = [*r.attributes, *(a for a in command.attributes if a not in r.attributes)]
            r = replace(r, attributes=tuple(attrs))
            if "instance" in command.attributes and r.instance is None and r.type is not None \
                    and r.type.tree is not None:  # `attribute [instance] foo` makes foo one
                found = instance_of(r.type.tree)
                if found is not None:
                    r = replace(r, instance=InstanceOf(resolver.resolved(found.class_name, r.scope),
                                                       found.arguments))
            records[name] = r
    return missed


def hierarchy_edges(records: dict[str, IndexedDeclaration], resolver: Resolver) -> list[HierarchyEdge]:
    """``extends`` edges of classes and structures, and instance edges: an instance with one
    instance binder ``[C args]`` whose arguments are the provided class's (``instance [Field K] :
    Semifield K``, ``instance [Fintype α] : Finite α``) makes ``C`` a child of that class."""
    edges = []
    for r in records.values():
        if r.kind in ("class", "structure"):
            edges.extend(HierarchyEdge(r.name, p.name, f"{r.name}.{p.projection}", "extends")
                         for p in r.parents)
        elif r.instance is not None:
            edge = _instance_edge(r, records, resolver)
            if edge is not None:
                edges.append(edge)
    return sorted(set(edges), key=lambda e: (e.child, e.parent, e.via, e.by))


def _instance_edge(r: IndexedDeclaration, records: dict[str, IndexedDeclaration],
                   resolver: Resolver) -> HierarchyEdge | None:
    assert r.instance is not None
    parent = records.get(r.instance.class_name)
    if parent is None or parent.kind != "class":
        return None
    if r.unread_instances:
        return None  # it may need a section instance its record lacks
    binders = [b for b in r.binders if b.kind == "instance"]
    if len(binders) != 1 or binders[0].type.tree is None:
        return None
    ty = binders[0].type.tree
    head = head_name(ty.label, len(ty.children)) if ty.children else ty.label
    if head is None or ty.children != r.instance.arguments:
        return None
    child = resolver.resolved(head, r.scope)
    child_record = records.get(child)
    if child_record is None or child_record.kind != "class" or child == parent.name:
        return None
    return HierarchyEdge(child, parent.name, r.name, "instance")


def rewrite_head(r: IndexedDeclaration, s: LemmaStatement, resolver: Resolver) -> str | None:
    """The key of a rewrite lemma's lhs: its root label with a named head resolved to the full
    name (``Nat.choose <SLOT> <SLOT>``), ``?`` when the head is one of the lemma's variables
    (it matches any term), the label itself for notation (``<SLOT> + <SLOT>``)."""
    if s.lhs is None:
        return None
    bound = {n for b in s.variables for n in b.names} | {h.name for h in s.hypotheses if h.name}
    lhs = s.lhs
    head = lhs.label if lhs.is_leaf else head_name(lhs.label, len(lhs.children))
    if head is None:
        return lhs.label
    if head in bound:
        return "?"
    full = resolver.resolved(head, r.scope)
    return full + lhs.label[len(head):] if not lhs.is_leaf else full
