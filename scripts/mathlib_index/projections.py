"""The declarations a ``structure``/``class``/``inductive`` generates besides itself: its field
projections (``S.f``), its parent projections (``S.toP``) and its constructors.

Lean 4 (src/Lean/Elab/Structure.lean): a projection takes the structure's parameters as
implicit arguments (instance binders stay instance-implicit) and the structure itself —
``(self : S params)``, or ``[self : C params]`` for a class — then the field's own binders;
a parent ``extends P args`` gives the projection ``toP`` (``to`` + the parent's last name
component, capitalised) unless the parent is named (``extends le : H ≤ G``).
"""

from __future__ import annotations

from dataclasses import replace

from scripts.mathlib_index.signature import binder_type_text
from scripts.mathlib_index.structures import Member
from transted.pipeline.opt.labels import application
from transted.pipeline.opt.mathlib.records import (
    Binder,
    IndexedDeclaration,
    Parent,
    StructureField,
    Term,
)
from transted.pipeline.opt.node import Node
from transted.pipeline.opt.scope import head_name

__all__ = ["projection_name", "parent_record", "structure_field", "projections",
           "constructors", "structure_constructor", "member_binders"]


def projection_name(label: str | None, parent: Node) -> str:
    if label:
        return label
    head = head_name(parent.label, len(parent.children)) or parent.label
    last = head.split(".")[-1]
    return "to" + last[:1].upper() + last[1:]


def parent_record(label: str | None, term: Node, text: str) -> Parent:
    head = head_name(term.label, len(term.children)) or term.label
    return Parent(head, Term(" ".join(text.split()), term), projection_name(label, term))


def member_binders(member: Member) -> tuple[Binder, ...]:
    return tuple(Binder(tuple(g.names), "explicit" if g.kind in ("explicit", "bare") else g.kind,  # type: ignore[arg-type]
                        Term(binder_type_text(t), g.type)) for g, t in member.groups)


def structure_field(member: Member, name: str) -> StructureField:
    return StructureField(name, member_binders(member), Term(member.type_text, member.type),
                          member.has_default)


def _projection_params(base: IndexedDeclaration, is_class: bool) -> tuple[Binder, ...]:
    params = tuple(b if b.kind == "instance" else replace(b, kind="implicit")
                   for b in base.binders)
    names = [n for b in base.binders if b.kind != "instance" for n in b.names]
    short = base.name.split(".")[-1]
    self_type = Node(application(short, len(names)), tuple(Node(n) for n in names)) \
        if names else Node(short)
    self_text = " ".join([short, *names])
    return (*params, Binder(("self",), "instance" if is_class else "explicit",
                            Term(self_text, self_type)))


def projections(base: IndexedDeclaration, is_class: bool) -> list[IndexedDeclaration]:
    """Field and parent projections of ``base`` (its ``fields`` and ``parents`` filled in)."""
    params = _projection_params(base, is_class)
    out = []
    for parent in base.parents:
        out.append(IndexedDeclaration(f"{base.name}.{parent.projection}", "field", "structure",
                               base.source, base.scope, binders=params, type=parent.term,
                               owner=base.name))
    for field in base.fields:
        out.append(IndexedDeclaration(f"{base.name}.{field.name}", "field", "structure", base.source,
                               base.scope, binders=(*params, *field.binders), type=field.type,
                               owner=base.name))
    return out


def structure_constructor(base: IndexedDeclaration, ctor: str) -> IndexedDeclaration:
    """``S.mk`` (or the declared name): the parameters implicit, then one explicit argument
    per parent (``toP``, as Lean's subobject fields) and per declared field."""
    params = tuple(b if b.kind == "instance" else replace(b, kind="implicit")
                   for b in base.binders)
    args = tuple(Binder((p.projection,), "explicit", p.term) for p in base.parents) + tuple(
        Binder((f.name,), "explicit", f.type) for f in base.fields if not f.binders)
    return IndexedDeclaration(f"{base.name}.{ctor}", "constructor", base.keyword, base.source,
                       base.scope, binders=(*params, *args), owner=base.name)


def constructors(base: IndexedDeclaration, members: list[Member]) -> list[IndexedDeclaration]:
    """An inductive's constructor records (its parameters implicit, then the constructor's own
    binders)."""
    params = tuple(b if b.kind == "instance" else replace(b, kind="implicit")
                   for b in base.binders)
    out = []
    for member in members:
        for name in member.names:
            out.append(IndexedDeclaration(
                f"{base.name}.{name}", "constructor", base.keyword, base.source, base.scope,
                protected=member.protected, binders=(*params, *member_binders(member)),
                type=Term(member.type_text, member.type) if member.type_text else None,
                owner=base.name, parse_error=member.error))
    return out
