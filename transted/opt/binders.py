"""Binder notations of the term parser: ∀ ∃ ∃! fun, big operators, ∫, set-builder, let/have, if.

Functions over the parser's :class:`~transted.opt.cursor.TermCursor`, kept here so each
module stays one concept: the Pratt core in :mod:`transted.opt.parser`, binders here. The
parser calls them at their keyword or symbol; they read sub-terms with the cursor's ``expr``,
so the import goes one way: the parser imports its binder notations, never the reverse.

Split mode (default) gives one binder per node (``∀ x y, p`` → ``∀ x, ∀ y, p``); otherwise one
node per binder group as written. Bounded binders are expanded to their meaning, as Lean does:
``∀ x > 0, p`` → ``∀ x, x > 0 → p`` and ``∃ x > 0, p`` → ``∃ x, x > 0 ∧ p``.
"""

from __future__ import annotations

from dataclasses import dataclass

from transted.opt.cursor import TermCursor
from transted.opt.labels import (
    FORALL,
    FUN,
    ITE,
    NOT,
    SLOT,
    TYPED_BINDER,
    application,
    binder_label,
    infix,
)
from transted.opt.lexer import KEYWORD_STOPS
from transted.opt.node import Node
from transted.opt.pattern_binders import pattern_names
from transted.opt.patterns import (
    match_alternatives,
    match_fun,
    pattern_binder,
    tuple_pattern_ahead,
)
from transted.opt.scope import binder_node, free_names

__all__ = ["BinderGroup", "binder_groups", "quantifier", "quantifier_sym", "lambda_", "let_",
           "if_then_else", "dependent_arrow", "strict_implicit", "build_quantifier",
           "predicate_node", "bracketed_group", "bound_names", "names_until", "BINDER_PREDICATES"]

BINDER_PREDICATES = (">", "<", "≥", "≤", "≠", "∈", "∉", "⊆", "⊂", "⊇", "⊃")


@dataclass
class BinderGroup:
    names: list[str]
    type: Node | None
    kind: str = "explicit"  # explicit | implicit | strict | instance | bare | pattern
    predicate: tuple[str, Node] | None = None
    pattern: Node | None = None
    """A pattern binder ``⟨a, b⟩`` (kind ``pattern``; ``names`` are its variables)."""


def names_until(p: TermCursor, close: str) -> list[str]:
    names = []
    while (p.tok.kind == "ident" and p.tok.text not in KEYWORD_STOPS) or p.at("_"):
        names.append(p.advance().text)
        if p.at(close, ":"):
            break
    if not names:
        raise p.error("expected a binder name")
    return names


def binder_groups(p: TermCursor, *, allow_predicate: bool = True, type_rbp: int = 0,
                  patterns: bool = False) -> list[BinderGroup]:
    """Binders up to ``,`` / ``=>`` / ``↦`` / ``∈``-style predicates (not consumed);
    ``patterns``: ``⟨a, b⟩``/``(a, b)`` may bind (``fun``), else they are refused."""
    groups: list[BinderGroup] = []
    bare: list[str] = []
    while True:
        if p.at("⟨") or (p.at("(") and not bare and tuple_pattern_ahead(p)):
            if not patterns:
                raise p.error("a pattern cannot be bound here (only after `fun`)")
            if bare:
                groups.append(BinderGroup(bare, None, "bare"))
                bare = []
            node = pattern_binder(p)
            groups.append(BinderGroup(pattern_names(node), None, "pattern", pattern=node))
        elif p.at("(", "{", "⦃", "[") and not bare:
            groups.append(bracketed_group(p))
        elif (p.tok.kind == "ident" and p.tok.text not in KEYWORD_STOPS) or p.at("_"):
            bare.append(p.advance().text)
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


def bracketed_group(p: TermCursor) -> BinderGroup:
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
    names = names_until(p, close)
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


def predicate_node(name: str, predicate: tuple[str, Node]) -> Node:
    op, bound = predicate
    return Node(infix(op), (Node(name), bound))


def bound_names(groups: list[BinderGroup]) -> list[str]:
    return [n for g in groups for n in g.names if n != "_"]


def quantifier_sym(p: TermCursor) -> Node:
    sym = p.advance().text
    return quantifier(p, "∀" if sym == "Π" else sym)


def quantifier(p: TermCursor, sym: str) -> Node:
    """``∀``/``∃``/``∃!`` binders ``,`` body (body extends as far as possible)."""
    groups = binder_groups(p)
    p.expect(",")
    with p.binding(bound_names(groups)):
        body = p.expr(0)
    return build_quantifier(p, sym, groups, body)


def build_quantifier(p: TermCursor, sym: str, groups: list[BinderGroup], body: Node) -> Node:
    connective = "→" if sym == "∀" else "∧"
    label = binder_label(sym)
    if p.split:
        for name, ty, pred in reversed(_flatten(groups)):
            if pred is not None:
                body = Node(infix(connective), (predicate_node(name, pred), body))
            body = Node(label, (binder_node([name], ty), body))
        return body
    for g in reversed(groups):
        if g.predicate is not None:
            for name in reversed(g.names):
                body = Node(infix(connective), (predicate_node(name, g.predicate), body))
        body = Node(label, (binder_node(g.names or ["_"], g.type), body))
    return body


def lambda_(p: TermCursor) -> Node:
    """``fun x (y : T) ⟨a, b⟩ => e`` and ``fun | p => e | …`` (:mod:`transted.opt.patterns`)."""
    p.advance()
    if p.at("|"):
        return match_fun(match_alternatives(p))
    groups = binder_groups(p, allow_predicate=False, patterns=True)
    p.expect("=>", "↦", ",")
    with p.binding(bound_names(groups)):
        body = p.expr(0)
    for g in reversed(groups):
        if g.pattern is not None:
            body = Node(FUN, (g.pattern, body))
        elif p.split:
            for name in reversed(g.names or ["_"]):
                body = Node(FUN, (binder_node([name], g.type), body))
        else:
            body = Node(FUN, (binder_node(g.names or ["_"], g.type), body))
    return body


def dependent_arrow(p: TermCursor) -> Node | None:
    """``(x : T) → B``, ``{x : T} → B``, ``[inst : C] → B``: Lean's pretty form of ∀ (same node)."""
    start = p.i
    try:
        group = bracketed_group(p)
    except Exception:  # noqa: BLE001 — not a binder group: the caller parses a term instead
        p.i = start
        return None
    if group.type is None or not p.at("→") or not (group.names or group.kind == "instance"):
        p.i = start
        return None
    p.advance()
    with p.binding(bound_names([group])):
        body = p.expr(25)
    names = group.names or ["_"]
    groups = [[name] for name in names] if p.split else [names]
    for group_names in reversed(groups):
        body = Node(FORALL, (binder_node(group_names, group.type), body))
    return body


def strict_implicit(p: TermCursor) -> Node:
    raise p.error("'⦃' binders are only allowed in declarations and ∀")


def let_(p: TermCursor, word: str) -> Node:
    """``let x : T := v; body`` (or a newline instead of ``;``); ``have`` likewise."""
    keyword = p.advance()
    if p.tok.kind != "ident" and not p.at("_", "⟨"):
        raise p.error(f"expected a name after {word!r}")
    pattern = pattern_binder(p) if p.at("⟨") else None
    name = p.advance().text if pattern is None else ""
    with p.positioned(keyword):  # `withPosition ("let " letDecl)`: see TermCursor.positioned
        params = binder_groups(p, allow_predicate=False) if p.at("(", "{", "[") else []
        ty = p.expr(0) if p.accept(":") else None
        if not p.accept(":="):
            if word == "let":
                raise p.error("expected ':=' in let")
            value = Node("sorry")
        elif p.at("by"):
            p.skip_tactic_block()
            value = Node("by")
        else:
            value = p.expr(0)
    p.accept(";")
    if params:
        value = Node(FUN, (binder_node(bound_names(params), None), value))
    names = [name] if pattern is None else pattern_names(pattern)
    with p.binding(names):
        body = p.expr(0)
    binder = binder_node([name], ty) if pattern is None else (
        pattern if ty is None else Node(TYPED_BINDER, (pattern, ty)))
    return Node(f"{word} {SLOT} := {SLOT}; {SLOT}", (binder, value, body))


def if_then_else(p: TermCursor) -> Node:
    """``if c then t else e``; ``if h : c then t else e`` whose branches use ``h`` is Lean's
    ``dite c (fun h : c => t) (fun h : ¬c => e)`` (Lean core Init/Core.lean, ``dite``), so
    ``h`` is bound in each branch; an unused ``h`` reads as ``if c then t else e``."""
    p.advance()
    proof = None
    if p.tok.kind == "ident" and p.peek().text == ":":
        proof = p.advance().text
        p.advance()
    cond = p.expr(0)
    p.expect("then")
    with p.binding([proof] if proof else []):
        then = p.expr(0)
        p.expect("else")
        other = p.expr(0)
    if proof is None or proof not in free_names(then) | free_names(other):
        return Node(ITE, (cond, then, other))
    return Node(application("dite", 3), (
        cond, Node(FUN, (binder_node([proof], cond), then)),
        Node(FUN, (binder_node([proof], Node(NOT, (cond,))), other))))
