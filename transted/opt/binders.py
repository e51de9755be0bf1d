"""Binder notations of the term parser: ∀ ∃ ∃! fun, big operators, ∫, set-builder, let/have, if.

These functions are methods of :class:`transted.opt.parser.TermParser` (bound in its class body)
kept here so each module stays one concept: the Pratt core there, binders here. They see the
parser through :class:`BinderParser` (the part of it they use), so the import goes one way:
the parser imports its binder notations, never the reverse.

Split mode (default) gives one binder per node (``∀ x y, p`` → ``∀ x, ∀ y, p``); otherwise one
node per binder group as written. Bounded binders are expanded to their meaning, as Lean does:
``∀ x > 0, p`` → ``∀ x, x > 0 → p`` and ``∃ x > 0, p`` → ``∃ x, x > 0 ∧ p``.
"""

from __future__ import annotations

from collections.abc import Callable
from contextlib import AbstractContextManager
from dataclasses import dataclass
from typing import Protocol

from transted.errors import ParseError
from transted.opt.labels import (
    AND,
    FORALL,
    FUN,
    ITE,
    SET_BUILDER,
    SLOT,
    SUBTYPE,
    binder_label,
    bounded_binder_label,
    infix,
)
from transted.opt.lexer import KEYWORD_STOPS, Token
from transted.opt.node import Node
from transted.opt.notation import NotationTable
from transted.opt.scope import binder_node

__all__ = ["BinderGroup", "BinderParser", "binder_groups", "quantifier", "lambda_",
           "big_operator", "integral", "braces", "let_"]

BINDER_PREDICATES = (">", "<", "≥", "≤", "≠", "∈", "∉", "⊆", "⊂", "⊇", "⊃")



class BinderParser(Protocol):
    """What the binder notations use of :class:`~transted.opt.parser.TermParser`."""

    i: int
    split: bool
    table: NotationTable

    @property
    def tok(self) -> Token: ...
    def peek(self, k: int = 1) -> Token: ...
    def advance(self) -> Token: ...
    def at(self, *texts: str) -> bool: ...
    def accept(self, *texts: str) -> Token | None: ...
    def expect(self, *texts: str) -> Token: ...
    def error(self, reason: str, tok: Token | None = None) -> ParseError: ...
    @staticmethod
    def describe(tok: Token) -> str: ...
    def binding(self, names: list[str]) -> AbstractContextManager[None]: ...
    def expr(self, rbp: int = 0) -> Node: ...
    def anonymous_constructor(self) -> Node: ...
    def quantifier(self, sym: str) -> Node: ...
    def delimited(self, open_sym: str, close_sym: str, label_of: Callable[[int], str]) -> Node: ...
    def skip_tactic_block(self) -> None: ...


@dataclass
class BinderGroup:
    names: list[str]
    type: Node | None
    kind: str = "explicit"  # explicit | implicit | strict | instance | bare
    predicate: tuple[str, Node] | None = None


def _names(p: BinderParser, close: str) -> list[str]:
    names = []
    while (p.tok.kind == "ident" and p.tok.text not in KEYWORD_STOPS) or p.at("_"):
        names.append(p.advance().text)
        if p.at(close, ":"):
            break
    if not names:
        raise p.error("expected a binder name")
    return names


def binder_groups(p: BinderParser, *, allow_predicate: bool = True, type_rbp: int = 0) -> list[BinderGroup]:
    """Binders up to ``,`` / ``=>`` / ``↦`` / ``∈``-style predicates (not consumed)."""
    groups: list[BinderGroup] = []
    bare: list[str] = []
    while True:
        if p.at("(", "{", "⦃", "[") and not bare:
            groups.append(_bracketed_group(p))
        elif (p.tok.kind == "ident" and p.tok.text not in KEYWORD_STOPS) or p.at("_"):
            bare.append(p.advance().text)
        elif p.at("⟨"):
            pattern = p.anonymous_constructor()
            bare.append(str(pattern))
        else:
            break
    if bare:
        group = BinderGroup(bare, None, "bare")
        if p.accept(":"):
            group.type = p.expr(type_rbp)
        elif allow_predicate and p.tok.kind == "sym" and p.tok.text in BINDER_PREDICATES:
            op = p.advance().text
            group.predicate = (op, p.expr(51))
        groups.append(group)
    if not groups:
        raise p.error(f"expected a binder, found {p.describe(p.tok)}")
    return groups


def _bracketed_group(p: BinderParser) -> BinderGroup:
    opener = p.advance().text
    close = {"(": ")", "{": "}", "⦃": "⦄", "[": "]"}[opener]
    kind = {"(": "explicit", "{": "implicit", "⦃": "strict", "[": "instance"}[opener]
    if opener == "[":
        if p.tok.kind == "ident" and p.peek().text == ":":
            name = p.advance().text
            p.advance()
            ty = p.expr(0)
            p.expect("]")
            return BinderGroup([name], ty, kind)
        ty = p.expr(0)
        p.expect("]")
        return BinderGroup([], ty, kind)
    names = _names(p, close)
    typ = p.expr(0) if p.accept(":") else None
    if p.accept(":="):
        p.expr(0)  # default value of an optional argument: not part of the type
    p.expect(close)
    return BinderGroup(names, typ, kind)


def _flatten(groups: list[BinderGroup]) -> list[tuple[str, Node | None, tuple[str, Node] | None]]:
    out = []
    for g in groups:
        for name in g.names or ["_"]:
            out.append((name, g.type, g.predicate))
    return out


def _pred_node(name: str, predicate: tuple[str, Node]) -> Node:
    op, bound = predicate
    return Node(infix(op), (Node(name), bound))


def _bound_names(groups: list[BinderGroup]) -> list[str]:
    return [n for g in groups for n in g.names if n != "_"]


def quantifier_sym(p: BinderParser) -> Node:
    sym = p.advance().text
    return p.quantifier("∀" if sym == "Π" else sym)


def quantifier(p: BinderParser, sym: str) -> Node:
    """``∀``/``∃``/``∃!`` binders ``,`` body (body extends as far as possible)."""
    groups = binder_groups(p)
    p.expect(",")
    with p.binding(_bound_names(groups)):
        body = p.expr(0)
    return _build_quantifier(p, sym, groups, body)


def _build_quantifier(p: BinderParser, sym: str, groups: list[BinderGroup], body: Node) -> Node:
    connective = "→" if sym == "∀" else "∧"
    label = binder_label(sym)
    if p.split:
        for name, ty, pred in reversed(_flatten(groups)):
            if pred is not None:
                body = Node(infix(connective), (_pred_node(name, pred), body))
            body = Node(label, (binder_node([name], ty), body))
        return body
    for g in reversed(groups):
        if g.predicate is not None:
            for name in reversed(g.names):
                body = Node(infix(connective), (_pred_node(name, g.predicate), body))
        body = Node(label, (binder_node(g.names or ["_"], g.type), body))
    return body


def lambda_(p: BinderParser) -> Node:
    p.advance()
    groups = binder_groups(p, allow_predicate=False)
    p.expect("=>", "↦", ",")
    with p.binding(_bound_names(groups)):
        body = p.expr(0)
    label = FUN
    if p.split:
        for name, ty, _ in reversed(_flatten(groups)):
            body = Node(label, (binder_node([name], ty), body))
        return body
    for g in reversed(groups):
        body = Node(label, (binder_node(g.names or ["_"], g.type), body))
    return body


def big_operator(p: BinderParser) -> Node:
    """``∑ x ∈ s, f`` (``in`` accepted), ``∑ x, f``, ``∑ x : T, f``, ``∑ i < n, f``; body at 67."""
    sym = p.advance().text
    body_prec = p.table.binder_body_prec.get(sym, 67)
    if p.at("(") and p.peek(2).text != ",":
        group = _bracketed_group(p)
        names, ty = group.names, group.type
    elif p.at("(", "⟨"):
        pattern = p.expr(1024)
        names, ty = [str(pattern)], None
    else:
        names, ty = _names(p, ","), None
        if p.accept(":"):
            ty = p.expr(51)
    binder = binder_node(names, ty)
    domain: tuple[str, Node] | None = None
    if p.accept("in"):
        domain = ("∈", p.expr(51))
    elif p.tok.kind == "sym" and p.tok.text in BINDER_PREDICATES:
        op = p.advance().text
        domain = (op, p.expr(51))
    p.expect(",")
    with p.binding([n for n in names if n != "_"]):
        body = p.expr(body_prec)
    if domain is None:
        return Node(binder_label(sym), (binder, body))
    return Node(bounded_binder_label(sym, domain[0]), (binder, domain[1], body))


def integral(p: BinderParser) -> Node:
    """``∫ x in a..b, f``, ``∫ x in s, f``, ``∫ x, f`` with an optional ``∂μ``."""
    p.advance()
    if p.at("("):
        group = _bracketed_group(p)
        names, ty = group.names, group.type
    else:
        names = _names(p, ",")
        ty = p.expr(51) if p.accept(":") else None
    binder = binder_node(names, ty)
    parts: list[Node] = []
    label = f"∫ {SLOT}"
    if p.accept("in"):
        lower = p.expr(51)
        if p.accept(".."):
            parts += [lower, p.expr(51)]
            label += f" in {SLOT}..{SLOT}"
        else:
            parts.append(lower)
            label += f" in {SLOT}"
    p.expect(",")
    with p.binding(names):
        body = p.expr(p.table.binder_body_prec.get("∫", 60))
    label += f", {SLOT}"
    children = (binder, *parts, body)
    if p.accept("∂"):
        label += f" ∂{SLOT}"
        children += (p.expr(1024),)
    return Node(label, children)


def braces(p: BinderParser) -> Node:
    """Set-builder ``{x | p}``/``{x : T | p}``/``{x ∈ s | p}``, subtype ``{x // p}``, literals."""
    start = p.i
    p.advance()
    if p.accept("}"):
        return Node("∅")
    if p.tok.kind == "ident" and p.peek().text == ":=":
        return _structure_instance(p)
    if p.tok.kind == "ident" or p.at("("):
        node = _try_set_builder(p)
        if node is not None:
            return node
    p.i = start
    return p.delimited("{", "}", lambda n: "{" + ", ".join([SLOT] * n) + "}")


def _structure_instance(p: BinderParser) -> Node:
    """``{ re := 0, im := 1 }``: the field names stay in the label."""
    fields, values = [], []
    while True:
        name = p.advance()
        if name.kind != "ident":
            raise p.error("expected a field name", name)
        p.expect(":=")
        fields.append(name.text)
        values.append(p.expr(0))
        if not p.accept(","):
            break
    p.expect("}")
    return Node("{ " + ", ".join(f"{f} := {SLOT}" for f in fields) + " }", tuple(values))


def _try_set_builder(p: BinderParser) -> Node | None:
    save = p.i
    try:
        if p.at("("):
            pattern = p.expr(1024)
            names, ty = [str(pattern)], None
        else:
            names, ty = [p.advance().text], None
        pred = None
        if p.accept(":"):
            ty = p.expr(0)
        elif p.tok.kind == "sym" and p.tok.text in BINDER_PREDICATES:
            op = p.advance().text
            pred = (op, p.expr(51))
        sep = p.accept("|", "//")
        if sep is None:
            p.i = save
            return None
    except Exception:  # noqa: BLE001 — not a set-builder; re-parse as a set literal
        p.i = save
        return None
    with p.binding(names):
        body = p.expr(0)
    p.expect("}")
    if pred is not None:
        body = Node(AND, (_pred_node(names[0], pred), body))
    label = SET_BUILDER if sep.text == "|" else SUBTYPE
    return Node(label, (binder_node(names, ty), body))


def dependent_arrow(p: BinderParser) -> Node | None:
    """``(x : T) → B``, ``{x : T} → B``, ``[inst : C] → B``: Lean's pretty form of ∀ (same node)."""
    start = p.i
    try:
        group = _bracketed_group(p)
    except Exception:  # noqa: BLE001 — not a binder group: the caller parses a term instead
        p.i = start
        return None
    if group.type is None or not p.at("→") or not (group.names or group.kind == "instance"):
        p.i = start
        return None
    p.advance()
    with p.binding(_bound_names([group])):
        body = p.expr(25)
    names = group.names or ["_"]
    groups = [[name] for name in names] if p.split else [names]
    for group_names in reversed(groups):
        body = Node(FORALL, (binder_node(group_names, group.type), body))
    return body


def strict_implicit(p: BinderParser) -> Node:
    raise p.error("'⦃' binders are only allowed in declarations and ∀")


def let_(p: BinderParser, word: str) -> Node:
    """``let x : T := v; body`` (or a newline instead of ``;``); ``have`` likewise."""
    p.advance()
    if p.tok.kind != "ident" and not p.at("_", "⟨"):
        raise p.error(f"expected a name after {word!r}")
    name = p.advance().text if not p.at("⟨") else str(p.anonymous_constructor())
    params = binder_groups(p, allow_predicate=False) if p.at("(", "{", "[") else []
    ty = p.expr(0) if p.accept(":") else None
    if not p.accept(":="):
        if word == "let":
            raise p.error("expected ':=' in let")
        value = Node("sorry")
    else:
        if p.at("by"):
            p.skip_tactic_block()
            value = Node("by")
        else:
            value = p.expr(0)
    p.accept(";")
    if params:
        value = Node(FUN, (binder_node(_bound_names(params), None), value))
    with p.binding([name]):
        body = p.expr(0)
    return Node(f"{word} {SLOT} := {SLOT}; {SLOT}", (binder_node([name], ty), value, body))


def if_then_else(p: BinderParser) -> Node:
    p.advance()
    if p.tok.kind == "ident" and p.peek().text == ":":
        p.advance(), p.advance()
    cond = p.expr(0)
    p.expect("then")
    then = p.expr(0)
    p.expect("else")
    other = p.expr(0)
    return Node(ITE, (cond, then, other))
