"""Trailing constructs of the term parser: field projection ``x.f``/``x.1``, indexing
``R[X]``/``a[i]``, ``f^[n]``, ``e |>.f``, ``a ≡ b [MOD n]``, ``f =ᶠ[l] g``-style relations; and
:func:`app_node`, the application node every construct builds with.

Methods of :class:`transted.opt.parser.TermParser` (bound in its class body), as the bracket
and binder notations are.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from transted.opt.labels import NAMED_APPLICATION, SLOT
from transted.opt.node import Node

if TYPE_CHECKING:
    from transted.opt.parser import TermParser

__all__ = ["app_node", "projection", "index_trailer", "iterate", "pipeline_field", "modeq",
           "filter_relation", "FILTER_RELATIONS", "PIPE_PREC"]

FILTER_RELATIONS = {"=ᶠ[": ("=ᶠ", 50), "≤ᶠ[": ("≤ᶠ", 50), "=O[": ("=O", 100),
                    "=o[": ("=o", 100), "=Θ[": ("=Θ", 100)}
"""Token → (relation, precedence) of the relations that take a filter in brackets."""
PIPE_PREC = 10
"""``e |>.f``: the pipeline's precedence (``min``, as ``|>``)."""


def app_node(head: Node, args: list[Node]) -> Node:
    """Application node; a named head (or named application) absorbs the arguments."""
    if not args:
        return head
    if head.is_leaf and not head.label.startswith("<"):
        return Node(head.label + f" {SLOT}" * len(args), tuple(args))
    m = NAMED_APPLICATION.match(head.label)
    if m and len(m.group(2)) // len(f" {SLOT}") == len(head.children):
        return Node(head.label + f" {SLOT}" * len(args), head.children + tuple(args))
    return Node(SLOT + f" {SLOT}" * len(args), (head, *args))


def filter_relation(p: TermParser, left: Node, rbp: int) -> Node | None:
    """``f =ᶠ[l] g``, ``f ≤ᶠ[l] g`` (Mathlib/Order/Filter/Basic.lean, notation:50),
    ``f =O[l] g``, ``f =o[l] g``, ``f =Θ[l] g`` (Mathlib/Analysis/Asymptotics,
    notation:100): relation, filter, right operand."""
    relation, prec = FILTER_RELATIONS[p.tok.text]
    if prec < rbp:
        return None
    p.advance()
    filter_ = p.expr(0)
    p.expect("]")
    right = p.expr(prec + 1)
    return Node(f"{SLOT} {relation}[{SLOT}] {SLOT}", (left, filter_, right))

def modeq(p: TermParser, left: Node, right: Node) -> Node:
    p.expect("[")
    kind = p.advance()
    if kind.kind != "ident":
        raise p.error("expected MOD, ZMOD or PMOD after '['", kind)
    modulus = p.expr(0)
    p.expect("]")
    return Node(f"{SLOT} ≡ {SLOT} [{kind.text} {SLOT}]", (left, right, modulus))

def projection(p: TermParser, left: Node) -> Node:
    p.advance()
    t = p.advance()
    if t.kind == "num":
        return Node(f"{SLOT}.{t.text}", (left,))
    if t.kind == "ident":
        node = left
        for field in t.text.split("."):
            node = app_node(Node(field), [node])
        return node
    raise p.error("expected a field name or index after '.'", t)

def index_trailer(p: TermParser, left: Node) -> Node:
    start = p.advance()
    if p.tok.kind == "ident" and p.tok.text == "X" and p.peek().text == "]":
        p.advance(), p.advance()
        return app_node(Node("Polynomial"), [left])
    if p.tok.kind == "sym" and p.peek().text == "]" and left.is_leaf:
        sym = p.advance().text
        p.advance()
        return Node(f"{left.label}[{sym}]")
    inner = p.expr(0)
    p.expect("]")
    del start
    return Node(f"{SLOT}[{SLOT}]", (left, inner))

def pipeline_field(p: TermParser, left: Node) -> Node:
    """``e |>.f a`` is ``(e).f a`` (Lean core Init/Prelude.lean, ``|>.``)."""
    p.advance()
    field = p.advance()
    if field.kind != "ident":
        raise p.error("expected a field name after '|>.'", field)
    node = left
    for name in field.text.split("."):
        node = app_node(Node(name), [node])
    return node


def iterate(p: TermParser, left: Node) -> Node:
    """``f^[n]`` (Mathlib/Logic/Function/Iterate.lean: ``notation:max f "^["n"]" =>
    Nat.iterate f n``)."""
    p.advance()
    with p.nested():
        n = p.expr(0)
    p.expect("]")
    return app_node(Node("Nat.iterate"), [left, n])
