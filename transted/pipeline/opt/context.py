"""The context a statement is read in: the declarations before it, parsed.

The commands before a theorem (a translator's helper ``def``s, ``variable`` lines, notations,
options — :func:`transted.pipeline.extraction.extract` finds them, and a pair's header may hold them
too) become a :class:`Context`:

* **definitions** (``def``/``abbrev``, and named ``structure``/``class``/``inductive``/
  ``opaque``/``axiom``/``instance``), each with its parameters, type and value tree; whether
  it may be unfolded (:mod:`transted.pipeline.opt.unfold`) or is only compared, and why;
* **variables**: the ``variable`` binder groups in order (a later ``variable {x}`` changes the
  binder kind of ``x``, as Lean's ``variable`` does), and the inclusion commands: ``include h``
  makes ``h`` a binder of every later theorem of the section, ``omit h`` undoes it and
  ``omit [C α]`` drops an instance binder (``omit … in``: for the next theorem only; Lean 4
  ``include``/``omit`` commands, src/Lean/Elab/Command.lean, the ``variable`` docstring);
* **notations**: ``notation "ℝ²" => t`` (an atom), ``infix[l|r]:p " op " => f``,
  ``prefix``/``postfix``, and ``notation:p a " op " b => f a b``, which become parser entries
  (Lean's ``notation`` is a macro: src/Lean/Elab/Notation.lean); any other shape is
  ``unsupported`` and a statement that uses its atom is an error naming it;
* **options**: ``set_option autoImplicit false`` (then a free name is unknown, not bound).

A context is plain data read from :class:`ContextSource` records (kind, name, source text,
namespace) so this package does not depend on the extractor.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass, field, replace
from typing import Protocol

from transted.errors import ParseError
from transted.pipeline.opt.binders import BinderGroup, bracketed_group
from transted.pipeline.opt.declaration import header_opens, read_declaration_head
from transted.pipeline.opt.labels import (
    AND,
    DVD,
    EQ,
    EVENTUALLY,
    EXISTS,
    FORALL,
    FREQUENTLY,
    GE,
    GT,
    IFF,
    LE,
    LT,
    MEM,
    MODEQ,
    NE,
    NOT,
    OR,
    SLOT,
    application,
    infix,
)
from transted.pipeline.opt.lexer import tokenize
from transted.pipeline.opt.node import Node
from transted.pipeline.opt.notation import MAX_PREC, NotationTable, Operator, load_notation
from transted.pipeline.opt.parser import TermParser
from transted.pipeline.opt.patterns import match_alternatives, match_fun
from transted.pipeline.opt.scope import free_names

__all__ = ["ContextSource", "Definition", "ContextNotation", "Context", "read_context",
           "UNFOLDABLE_KINDS", "PROP_ROOTS"]

UNFOLDABLE_KINDS = ("def", "abbrev")
PROP_ROOTS = frozenset({FORALL, EXISTS, f"∃! {SLOT}, {SLOT}", AND, OR, NOT, IFF, EQ, NE, LT, LE,
                        GT, GE, MEM, DVD, MODEQ, infix("∉"), infix("⊆"), infix("⊂"), infix("⊇"),
                        infix("⊃"), EVENTUALLY, FREQUENTLY, "True", "False"})
"""Roots of a term that is a proposition whatever the expected type (Init/Core, Init/Prelude,
Mathlib/Order/Filter/Defs): an untyped definition with such a value may be unfolded."""
_NAMED_KINDS = ("def", "abbrev", "instance", "structure", "class", "inductive", "axiom",
                "opaque")
_TAIL_KEYWORDS = ("termination_by", "decreasing_by", "deriving")
_NOTATION_HEAD = re.compile(r"^(?:(?:local|scoped)\s+)?(notation|infixl|infixr|infix|prefix|"
                            r"postfix)(?::(\w+))?\s+(.*?)\s*=>\s*(.+)$", re.DOTALL)
_NAMED_PRECEDENCES = {"max": MAX_PREC, "arg": MAX_PREC, "lead": MAX_PREC - 1, "min": 10,
                      "min1": 11}


class ContextSource(Protocol):
    """One command of the context (:class:`transted.pipeline.extraction.ContextDeclaration` is one)."""

    @property
    def kind(self) -> str: ...
    @property
    def name(self) -> str: ...
    @property
    def text(self) -> str: ...
    @property
    def namespace(self) -> str: ...


@dataclass(frozen=True)
class Definition:
    """A named declaration of the context."""

    name: str
    full_name: str
    kind: str
    text: str
    params: tuple[BinderGroup, ...] = ()
    type: Node | None = None
    value: Node | None = None
    modifiers: frozenset[str] = frozenset()
    kept_because: str | None = None
    """Why it is compared rather than unfolded (``None``: it may be unfolded)."""
    parsed: bool = True
    """False for a declaration whose text is not parsed (compared by its tokens)."""

    @property
    def explicit(self) -> list[tuple[str, Node | None]]:
        """The explicit parameters (an application's arguments fill these)."""
        return [(n, g.type) for g in self.params if g.kind in ("explicit", "bare")
                for n in g.names]

    @property
    def implicit(self) -> list[str]:
        """Implicit, strict-implicit and named instance parameters (Lean infers them)."""
        return [n for g in self.params if g.kind not in ("explicit", "bare") for n in g.names]

    @property
    def tokens(self) -> str:
        """The source up to white space and comments: what an unparsed declaration is
        compared by."""
        return " ".join(t.text for t in tokenize(self.text, load_notation().symbols)[:-1])


@dataclass(frozen=True)
class ContextNotation:
    atom: str
    text: str
    expansion: Node | None = None
    """An atom notation's term."""
    operator: Operator | None = None
    """An infix/prefix/postfix notation's parser entry."""

    @property
    def supported(self) -> bool:
        return self.expansion is not None or self.operator is not None


@dataclass(frozen=True)
class Context:
    definitions: dict[str, Definition] = field(default_factory=dict)
    """Full name → definition, in declaration order."""
    variables: tuple[BinderGroup, ...] = ()
    notations: tuple[ContextNotation, ...] = ()
    auto_implicit: bool = True
    namespace: str = ""
    unnamed: tuple[str, ...] = ()
    """Sources of unnamed instances and other commands that change elaboration but no name."""
    unread_variables: tuple[tuple[tuple[str, ...], ParseError], ...] = ()
    """``variable`` commands that do not parse: their names and the error (raised when a
    statement uses one of those names)."""
    included: frozenset[str] = frozenset()
    """Variables ``include`` names (and no later ``omit`` undoes)."""
    omitted: tuple[Node, ...] = ()
    """Types of the instance binders ``omit [C α]`` drops."""

    @property
    def variable_names(self) -> list[str]:
        return [n for g in self.variables for n in g.names]

    def table(self, base: NotationTable | None = None) -> NotationTable:
        """The notation table extended with this context's infix/prefix/postfix entries."""
        base = base or load_notation()
        ops = [n.operator for n in self.notations if n.operator is not None]
        if not ops:
            return base
        infix, prefix, postfix = dict(base.infix), dict(base.prefix), dict(base.postfix)
        for op in ops:
            {"infix": infix, "prefix": prefix, "postfix": postfix}[op.kind][op.symbol] = op
        return replace(base, infix=infix, prefix=prefix, postfix=postfix,
                       version=base.version + "+context")

    @property
    def atoms(self) -> dict[str, Node]:
        return {n.atom: n.expansion for n in self.notations if n.expansion is not None}


def read_context(sources: Sequence[ContextSource], *, header: str | None = None,
                 namespace: str = "", split_binders: bool = True) -> Context:
    """The :class:`Context` of ``sources`` (in order), parsed under ``header``'s ``open``
    lines.

    Raises
    ------
    transted.errors.ParseError
        for a definition, ``variable`` or notation whose text does not parse (the error
        names the declaration and its position in it).
    """
    opens = header_opens(header)
    notations: list[ContextNotation] = []
    for s in sources:
        if s.kind == "notation":
            notations.append(_notation(s, opens, notations))
    atoms = {n.atom: n.expansion for n in notations if n.expansion is not None}
    ctx = Context(notations=tuple(notations), namespace=namespace)
    table = ctx.table()
    definitions: dict[str, Definition] = {}
    variables: list[BinderGroup] = []
    unnamed: list[str] = []
    unread: list[tuple[tuple[str, ...], ParseError]] = []
    included: set[str] = set()
    omitted: list[Node] = []
    auto_implicit = True
    for s in sources:
        if s.kind in _NAMED_KINDS and s.name:
            d = _definition(s, opens, split_binders, table, atoms)
            definitions[d.full_name] = d
        elif s.kind in _NAMED_KINDS:
            unnamed.append(s.text)
        elif s.kind == "variable":
            try:
                variables = _variables(s, variables, opens, table, atoms)
            except ParseError as e:  # an error only for a statement that uses its names
                unread.append((tuple(s.name.split()), e))
        elif s.kind == "set_option" and s.name == "autoImplicit":
            auto_implicit = not s.text.split()[-1] == "false"
        elif s.kind in ("include", "omit"):
            names, instances = _inclusion(s, opens, table, atoms)
            if s.kind == "include":
                included |= names
            else:
                included -= names
                omitted += instances
    return replace(ctx, definitions=_mark_recursive(definitions), variables=tuple(variables),
                   auto_implicit=auto_implicit, unnamed=tuple(unnamed),
                   unread_variables=tuple(unread), included=frozenset(included),
                   omitted=tuple(omitted))


def _parser(s: ContextSource, opens: tuple[str, ...], split: bool, table: NotationTable,
            atoms: dict[str, Node]) -> TermParser:
    return TermParser(s.text, opens=opens, split_binders=split, table=table, atoms=atoms)


def _full_name(s: ContextSource, name: str) -> str:
    if name.startswith("_root_."):
        return name.removeprefix("_root_.")
    return f"{s.namespace}.{name}" if s.namespace else name


def _definition(s: ContextSource, opens: tuple[str, ...], split: bool, table: NotationTable,
                atoms: dict[str, Node]) -> Definition:
    modifiers = frozenset(re.findall(r"\b(private|protected|noncomputable|partial|unsafe|"
                                     r"irreducible)\b", s.text.split(s.kind, 1)[0]))
    base = Definition(s.name, _full_name(s, s.name), s.kind, s.text, modifiers=modifiers)
    if s.kind not in UNFOLDABLE_KINDS:
        return replace(base, kept_because=f"`{s.kind}` declarations are compared, never unfolded")
    p = _parser(s, opens, split, table, atoms)
    try:
        _kw, _name, groups, _extents = read_declaration_head(p, UNFOLDABLE_KINDS)
        names = [n for g in groups for n in g.names if n != "_"]
        with p.binding(names):
            ty = p.expr(0) if p.accept(":") else None
            value, why = _value(p)
    except ParseError as e:  # kept: a statement using it compares it by its tokens
        return replace(base, parsed=False, kept_because=f"its text does not parse offline "
                       f"({e.line}:{e.column}: {e.reason}): compared by its tokens")
    if "partial" in modifiers or "unsafe" in modifiers:
        why = f"a {'partial' if 'partial' in modifiers else 'unsafe'} def is opaque"
    elif why is None and ty is None and value is not None and value.label not in PROP_ROOTS:
        why = "untyped and not a proposition (its value's type could follow the use site)"
    return replace(base, params=tuple(groups), type=ty, value=value, kept_because=why)


def _value(p: TermParser) -> tuple[Node | None, str | None]:
    """The value after the signature and, when it may not be unfolded, why."""
    if p.at("|"):
        return match_fun(match_alternatives(p)), "defined by pattern matching"
    if p.accept(":="):
        value = p.expr(0)
        if p.at("where"):
            return value, "has local definitions (`where`)"
        if not (p.tok.kind == "eof" or p.at(*_TAIL_KEYWORDS)):
            raise p.error(f"unexpected {p.describe(p.tok)} after the definition's value")
        return value, None
    return None, "has no value to unfold"


def _mark_recursive(definitions: dict[str, Definition]) -> dict[str, Definition]:
    """Definitions that reach themselves through their values are kept (no finite unfolding)."""
    uses = {k: _mentions(d, definitions) for k, d in definitions.items()}
    out = {}
    for key, d in definitions.items():
        seen, stack = set(), list(uses[key])
        while stack:
            other = stack.pop()
            if other not in seen:
                seen.add(other)
                stack.extend(uses.get(other, ()))
        if key in seen and d.kept_because is None:
            d = replace(d, kept_because="recursive")
        out[key] = d
    return out


def _mentions(d: Definition, definitions: dict[str, Definition]) -> set[str]:
    if d.value is None:
        return set()
    names = free_names(d.value)
    return {k for k, other in definitions.items()
            if other.name in names or other.full_name in names or k.rsplit(".", 1)[-1] in names}


def _variables(s: ContextSource, groups: list[BinderGroup], opens: tuple[str, ...],
               table: NotationTable, atoms: dict[str, Node]) -> list[BinderGroup]:
    """``groups`` after one ``variable`` command (a group naming known variables without a
    type changes their binder kind)."""
    p = _parser(s, opens, True, table, atoms)
    p.expect("variable")
    out = list(groups)
    known = {n for g in groups for n in g.names}
    while p.at("(", "{", "⦃", "["):
        with p.binding(sorted(known)):
            group = bracketed_group(p)
        if group.type is None and group.names and set(group.names) <= known:
            out = [_rekind(g, set(group.names), group.kind) for g in out]
            continue
        out.append(group)
        known |= set(group.names)
    if p.tok.kind != "eof":
        raise p.error(f"in `variable`: expected a binder group, found {p.describe(p.tok)}")
    return out


def _inclusion(s: ContextSource, opens: tuple[str, ...], table: NotationTable,
               atoms: dict[str, Node]) -> tuple[set[str], list[Node]]:
    """The variable names and instance binder types of ``include …`` / ``omit …``."""
    p = _parser(s, opens, True, table, atoms)
    p.expect(s.kind)
    names: set[str] = set()
    instances: list[Node] = []
    while p.tok.kind != "eof":
        if p.at("["):
            p.advance()
            instances.append(p.expr(0))
            p.expect("]")
        elif p.tok.kind == "ident":
            names.add(p.advance().text)
        else:
            raise p.error(f"in `{s.kind}`: expected a variable name or an instance binder, "
                          f"found {p.describe(p.tok)}")
    return names, instances


def _rekind(group: BinderGroup, names: set[str], kind: str) -> BinderGroup:
    if not set(group.names) & names or group.kind == "instance":
        return group
    return BinderGroup(group.names, group.type, kind)


def _notation(s: ContextSource, opens: tuple[str, ...],
              earlier: list[ContextNotation]) -> ContextNotation:
    m = _NOTATION_HEAD.match(s.text.strip())
    atom = s.name
    if m is None:
        return ContextNotation(atom, s.text)
    command, prec_text, pattern, rhs = m.groups()
    strings = re.findall(r'"([^"]*)"', pattern)
    if len(strings) != 1:
        return ContextNotation(atom, s.text)
    atom = strings[0].strip()
    prec = _precedence(prec_text)
    atoms = {n.atom: n.expansion for n in earlier if n.expansion is not None}
    try:
        term = TermParser(rhs, opens=opens, atoms=atoms).parse()
    except ParseError:
        return ContextNotation(atom, s.text)
    if command == "notation":
        args = pattern.replace(f'"{strings[0]}"', " ").split()
        if not args:
            return ContextNotation(atom, s.text, expansion=term)
        if len(args) == 2 and pattern.strip().startswith(args[0]) and _applies(term, args):
            return ContextNotation(atom, s.text, operator=Operator(
                atom, "infix", prec if prec is not None else 0, "none",
                label=application(term.label.split(" ", 1)[0], 2), source=s.text))
        return ContextNotation(atom, s.text)
    if not term.is_leaf:
        return ContextNotation(atom, s.text)
    kind = "infix" if command.startswith("infix") else command
    assoc = {"infixl": "left", "infixr": "right"}.get(command, "none")
    arity = 2 if kind == "infix" else 1
    level = prec if prec is not None else (MAX_PREC if kind != "infix" else 0)
    return ContextNotation(atom, s.text, operator=Operator(
        atom, kind, level, assoc, arg=level, label=application(term.label, arity),  # type: ignore[arg-type]
        source=s.text))


def _applies(term: Node, args: list[str]) -> bool:
    """``term`` is ``f a b`` with the notation's variables in order."""
    return [c.label for c in term.children] == args and term.label == application(
        term.label.split(" ", 1)[0], len(args))


def _precedence(text: str | None) -> int | None:
    if text is None:
        return None
    return int(text) if text.isdigit() else _NAMED_PRECEDENCES.get(text)
