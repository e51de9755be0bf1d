"""What each kind of declaration adds to its record once its signature is parsed.

* theorem: nothing more (its statement is split from its binders and type on reading,
  :mod:`transted.pipeline.opt.mathlib.statements`);
* ``def``/``abbrev``/``irreducible_def``/``instance``/``opaque``: the value
  (:mod:`scripts.mathlib_index.bodies`); an instance also the class it provides; an
  ``irreducible_def foo`` also the theorem ``foo_def : foo args = value`` Mathlib generates
  (Mathlib/Tactic/IrreducibleDef.lean);
* structure/class: ``extends`` parents, fields, the constructor and the projections
  (:mod:`scripts.mathlib_index.projections`); a ``class abbrev``'s components are its parents;
* inductive: the constructors.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field, replace

from scripts.mathlib_index.bodies import read_body
from scripts.mathlib_index.projections import (
    constructors,
    parent_record,
    projections,
    structure_constructor,
    structure_field,
)
from scripts.mathlib_index.signature import PARSE_FAILURES, Cut, Header, parse_value
from scripts.mathlib_index.structures import (
    Member,
    constructor_name,
    read_constructors,
    read_fields,
)
from transted.pipeline.opt.labels import ARROW, EQ, FORALL, application
from transted.pipeline.opt.mathlib.records import IndexedDeclaration, InstanceOf, Term
from transted.pipeline.opt.node import Node
from transted.pipeline.opt.scope import head_name

__all__ = ["Specific", "read_kind_specific", "instance_of"]

Finish = Callable[[IndexedDeclaration], list[IndexedDeclaration]]


@dataclass
class Specific:
    record: IndexedDeclaration
    mentions: list[Node | None]
    """The trees whose names decide which ``variable`` binders the declaration takes."""
    finish: Finish = field(default=lambda r: [r])
    """The final record (binders known) → it and the declarations it generates."""


def read_kind_specific(base: IndexedDeclaration, modifiers: list[str], header: Header, c: Cut,
                       first_line: int, bound: list[str], own: tuple[str, ...]) -> Specific:
    record = replace(base, type=Term(" ".join(header.type_text.split()), header.type)
                     if header.type_text else None)
    if base.kind == "theorem":
        return _theorem(record, header)
    if base.kind in ("def", "abbrev", "irreducible_def", "instance", "opaque", "axiom"):
        return _definition(record, modifiers, header, c, first_line, bound, own)
    if base.kind in ("structure", "class") and base.keyword not in ("class inductive",):
        return _structure(record, header, c, first_line, bound)
    return _inductive(record, header, c, first_line, bound)


def _theorem(record: IndexedDeclaration, header: Header) -> Specific:
    return Specific(record, [header.type])


def instance_of(ty: Node) -> InstanceOf | None:
    """The class an instance type provides (after its ``∀``/``→``) and its arguments."""
    while ty.label in (FORALL, ARROW) and len(ty.children) == 2:
        ty = ty.children[1]
    head = head_name(ty.label, len(ty.children)) if ty.children else ty.label
    if head is None:
        return None
    return InstanceOf(head, ty.children)


def _definition(record: IndexedDeclaration, modifiers: list[str], header: Header, c: Cut,
                first_line: int, bound: list[str], own: tuple[str, ...]) -> Specific:
    body = read_body(c.separator, c.value, first_line, bound, own, modifiers)
    if record.kind in ("opaque", "axiom") and body is not None:
        body = replace(body, unfoldable=False, why_not=f"an {record.kind} is never unfolded")
    record = replace(record, body=body)
    if header.type is not None and (record.kind == "instance" or "instance" in record.attributes):
        record = replace(record, instance=instance_of(header.type))
    mentions = [header.type, body.value.tree if body is not None else None,
                *(f.value.tree for f in (body.fields if body is not None else ()))]
    if record.kind != "irreducible_def":
        return Specific(record, mentions)

    def finish(r: IndexedDeclaration) -> list[IndexedDeclaration]:
        return [r, *_irreducible_def_lemma(r)]
    return Specific(record, mentions, finish)


def _irreducible_def_lemma(r: IndexedDeclaration) -> list[IndexedDeclaration]:
    if r.body is None or r.body.value.tree is None:
        return []
    explicit = [n for b in r.binders if b.kind == "explicit" for n in b.names]
    short = r.name.rsplit(".", 1)[-1]
    lhs = Node(application(short, len(explicit)), tuple(Node(n) for n in explicit)) \
        if explicit else Node(short)
    eq = Node(EQ, (lhs, r.body.value.tree))
    text = f"{' '.join([short, *explicit])} = {r.body.value.text}"
    lemma = IndexedDeclaration(f"{r.name}_def", "theorem", "irreducible_def", r.source, r.scope,
                        protected=r.protected, binders=r.binders, type=Term(text, eq))
    return [lemma]


def _structure(record: IndexedDeclaration, header: Header, c: Cut, first_line: int,
               bound: list[str]) -> Specific:
    parents = [parent_record(label, term, text) for label, term, text in header.parents]
    members: list[Member] = []
    ctor = "mk"
    if record.keyword == "class abbrev":
        parents = _abbrev_parents(c.value, bound)
    elif c.separator == "where":
        ctor, value = constructor_name(c.value)
        members = read_fields(value, first_line, bound)
    fields = tuple(structure_field(m, n) for m in members if not m.private for n in m.names)
    record = replace(record, parents=tuple(parents), fields=fields, constructors=(ctor,))
    mentions = [header.type, *(p.term.tree for p in parents), *(m.type for m in members)]
    is_class = record.kind == "class"

    def finish(r: IndexedDeclaration) -> list[IndexedDeclaration]:
        return [r, *projections(r, is_class), structure_constructor(r, ctor)]
    return Specific(record, mentions, finish)


def _abbrev_parents(value: str, bound: list[str]) -> list:
    out = []
    depth, start = 0, 0
    for i, ch in enumerate(value + ","):
        if ch in "([{⟨":
            depth += 1
        elif ch in ")]}⟩":
            depth -= 1
        elif ch == "," and depth == 0:
            text = value[start:i].strip()
            start = i + 1
            if not text:
                continue
            try:
                out.append(parent_record(None, parse_value(text, bound), text))
            except PARSE_FAILURES:
                continue
    return out


def _inductive(record: IndexedDeclaration, header: Header, c: Cut, first_line: int,
               bound: list[str]) -> Specific:
    value = "|" + c.value if c.separator == "|" else c.value
    members = read_constructors(value, first_line, bound) if c.separator in ("|", "where") else []
    record = replace(record, constructors=tuple(n for m in members for n in m.names))

    def finish(r: IndexedDeclaration) -> list[IndexedDeclaration]:
        return [r, *constructors(r, members)]
    return Specific(record, [header.type, *(m.type for m in members)], finish)
