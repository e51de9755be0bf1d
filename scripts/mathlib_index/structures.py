"""The members of a ``structure``/``class`` (fields) and of an ``inductive`` (constructors), and
the entries of a ``where`` structure-instance value.

Lean 4 syntax (src/Lean/Parser/Command.lean ``structure``, ``inductive``; src/Lean/Parser/Term.lean
``whereDecls``/``structInst``): after ``where`` an optional ``ctor ::``, then one field per
entry — ``a b : T``, ``f (x : α) : T``, ``x : T := default``, ``(x : T)``, ``x := v`` (a new
default for an inherited field: no type, not recorded) — each entry on lines indented alike.
An inductive's constructors are ``| name binders (: type)?``.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from scripts.mathlib_index.signature import (
    PARSE_FAILURES,
    blank_universes,
    located,
    top_level_lines,
)
from transted.pipeline.opt.binders import BinderGroup, bracketed_group
from transted.pipeline.opt.lexer import KEYWORD_STOPS
from transted.pipeline.opt.node import Node
from transted.pipeline.opt.parser import TermParser

__all__ = ["Member", "read_fields", "read_constructors", "read_where_values", "constructor_name"]

_CTOR = re.compile(r"^\s*(?:@\[[^\]]*\]\s*)?(?:(?:private|protected)\s+)?([^\s:()]+)\s*::", re.M)
_ATTRS = re.compile(r"^\s*(?:@\[(?:[^\[\]]|\[[^\]]*\])*\]\s*)+")


@dataclass(frozen=True)
class Member:
    """A field or constructor as written: names, binders (with their texts), type, and the
    error when its text did not parse (then ``type`` is None)."""

    names: tuple[str, ...]
    groups: tuple[tuple[BinderGroup, str], ...]
    type: Node | None
    type_text: str
    has_default: bool = False
    private: bool = False
    protected: bool = False
    error: str | None = None


def constructor_name(value: str) -> tuple[str, str]:
    """``(ctor name, the rest)`` of a structure's ``where`` value (Lean's default is ``mk``)."""
    m = _CTOR.match(value)
    if m is None:
        return "mk", value
    return m.group(1), " " * m.end() + value[m.end():]


def read_fields(value: str, first_line: int, bound: list[str]) -> list[Member]:
    """The fields of a structure's ``where`` value (``first_line``: the file line it starts)."""
    members: list[Member] = []
    names = list(bound)
    for offset, chunk in top_level_lines(value):
        line = first_line + value[:offset].count("\n")
        text = _ATTRS.sub(lambda m: " " * len(m.group()), chunk)
        if not text.strip() or text.lstrip().startswith(("deriving", "|")):
            continue
        member = _field(text, line, names)
        if member is not None:
            members.append(member)
            names.extend(member.names)
    return members


def _modifiers(p: TermParser) -> tuple[bool, bool]:
    private = protected = False
    while p.tok.kind == "ident" and p.tok.text in ("private", "protected"):
        private |= p.tok.text == "private"
        protected |= p.tok.text == "protected"
        p.advance()
    return private, protected


def _field(text: str, line: int, bound: list[str]) -> Member | None:
    p = TermParser(blank_universes(text))
    try:
        with p.binding(bound):
            private, protected = _modifiers(p)
            if p.at("("):  # old style: `(x y : T)`
                group = bracketed_group(p)
                return Member(tuple(group.names), (), group.type, _rest(text, group), False,
                              private, protected)
            names = []
            while p.tok.kind == "ident" and p.tok.text not in KEYWORD_STOPS:
                names.append(p.advance().text)
            if not names:
                raise p.error(f"expected a field name, found {p.describe(p.tok)}")
            groups = _groups(p, text)
            with p.binding([n for g, _ in groups for n in g.names]):
                if not p.accept(":"):
                    return None  # `x := v`: a default for an inherited field
                start = p.tok.start
                ty = p.expr(0)
                type_text = text[start:p.tokens[p.i - 1].end]
            has_default = p.accept(":=") is not None
            if not has_default and p.tok.kind != "eof":
                raise p.error(f"unexpected {p.describe(p.tok)} after the field's type")
            return Member(tuple(names), tuple(groups), ty, " ".join(type_text.split()),
                          has_default, private, protected)
    except PARSE_FAILURES as e:
        return Member(_field_names(text), (), None, " ".join(text.split()),
                      error=located(e, line) if hasattr(e, "line") else str(e))


def _rest(text: str, group: BinderGroup) -> str:
    return " ".join(text.strip()[1:-1].partition(":")[2].split())


def _groups(p: TermParser, text: str) -> list[tuple[BinderGroup, str]]:
    groups = []
    while p.at("(", "{", "⦃", "["):
        start = p.tok.start
        with p.binding([n for g, _ in groups for n in g.names]):
            group = bracketed_group(p)
        groups.append((group, text[start:p.tokens[p.i - 1].end]))
    return groups


def _field_names(text: str) -> tuple[str, ...]:
    head = re.split(r"[:({\[⦃]", text.strip(), maxsplit=1)[0].split()
    return tuple(w for w in head if w not in ("private", "protected"))


def read_constructors(value: str, first_line: int, bound: list[str]) -> list[Member]:
    """The ``| name binders : type`` alternatives of an inductive's value."""
    members = []
    for m in re.finditer(r"(?:^|\n)[ \t]*\|", value):
        start = m.end()
        nxt = re.search(r"\n[ \t]*\|", value[start:])
        text = value[start:start + nxt.start()] if nxt else value[start:]
        line = first_line + value[:start].count("\n")
        members.append(_constructor(text, line, bound))
    return members


def _constructor(text: str, line: int, bound: list[str]) -> Member:
    p = TermParser(blank_universes(text))
    try:
        with p.binding(bound):
            private, protected = _modifiers(p)
            if p.tok.kind != "ident":
                raise p.error(f"expected a constructor name, found {p.describe(p.tok)}")
            name = p.advance().text
            groups = _groups(p, text)
            with p.binding([n for g, _ in groups for n in g.names]):
                ty, type_text = None, ""
                if p.accept(":"):
                    start = p.tok.start
                    ty = p.expr(0)
                    type_text = text[start:p.tokens[p.i - 1].end]
            if p.tok.kind != "eof":
                raise p.error(f"unexpected {p.describe(p.tok)} after the constructor")
            return Member((name,), tuple(groups), ty, " ".join(type_text.split()),
                          private=private, protected=protected)
    except PARSE_FAILURES as e:
        words = text.split()
        return Member((words[0],) if words else (), (), None, " ".join(text.split()),
                      error=located(e, line) if hasattr(e, "line") else str(e))


def read_where_values(value: str, first_line: int, bound: list[str]
                      ) -> list[tuple[str, str, Node | None, str | None]]:
    """``(field, value text, tree, error)`` per ``name binders := value`` entry of a ``where``
    value; binders become ``fun binders => value`` (Lean's ``whereStructField`` is
    ``letIdDecl``: ``f x := v`` is ``f := fun x => v``)."""
    out = []
    for offset, chunk in top_level_lines(value):
        line = first_line + value[:offset].count("\n")
        head, sep, body = chunk.partition(":=")
        words = head.split()
        if not sep or not words:
            continue
        name, params = words[0], " ".join(words[1:])
        text = f"fun {params} => {body.strip()}" if params else body.strip()
        if body.strip().startswith("by"):
            out.append((name, " ".join(body.split()), None, "a tactic proof"))
            continue
        try:
            p = TermParser(blank_universes(text))
            with p.binding(bound):
                tree = p.parse()
            out.append((name, " ".join(text.split()), tree, None))
        except PARSE_FAILURES as e:
            out.append((name, " ".join(text.split()), None,
                        located(e, line) if hasattr(e, "line") else str(e)))
    return out
