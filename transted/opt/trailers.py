"""Trailing constructs of the term parser: indexing ``R[X]``/``a[i]``, ``f^[n]``, ``e |>.f``,
``a ≡ b [MOD n]``, ``f =ᶠ[l] g``-style relations (projections ``x.f`` stay in the parser).

Functions over the parser's :class:`~transted.opt.cursor.TermCursor`, called by
:meth:`transted.opt.parser.TermParser.led` at their token, as the bracket and binder notations
are.
"""

from __future__ import annotations

from transted.opt.cursor import TermCursor
from transted.opt.labels import SLOT, application, field_label
from transted.opt.node import Node

__all__ = ["index_trailer", "iterate", "pipeline_field", "modeq", "filter_relation",
           "FILTER_RELATIONS", "PIPE_PREC"]

FILTER_RELATIONS = {"=ᶠ[": ("=ᶠ", 50), "≤ᶠ[": ("≤ᶠ", 50), "=O[": ("=O", 100),
                    "=o[": ("=o", 100), "=Θ[": ("=Θ", 100)}
"""Token → (relation, precedence) of the relations that take a filter in brackets."""
PIPE_PREC = 10
"""``e |>.f``: the pipeline's precedence (``min``, as ``|>``)."""


def filter_relation(p: TermCursor, left: Node, rbp: int) -> Node | None:
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

def modeq(p: TermCursor, left: Node, right: Node) -> Node:
    p.expect("[")
    kind = p.advance()
    if kind.kind != "ident":
        raise p.error("expected MOD, ZMOD or PMOD after '['", kind)
    modulus = p.expr(0)
    p.expect("]")
    return Node(f"{SLOT} ≡ {SLOT} [{kind.text} {SLOT}]", (left, right, modulus))

def index_trailer(p: TermCursor, left: Node) -> Node:
    start = p.advance()
    if p.tok.kind == "ident" and p.tok.text == "X" and p.peek().text == "]":
        p.advance(), p.advance()
        return Node(application("Polynomial", 1), (left,))
    if p.tok.kind == "sym" and p.peek().text == "]" and left.is_leaf:
        sym = p.advance().text
        p.advance()
        return Node(f"{left.label}[{sym}]")
    inner = p.expr(0)
    p.expect("]")
    del start
    return Node(f"{SLOT}[{SLOT}]", (left, inner))

def pipeline_field(p: TermCursor, left: Node) -> Node:
    """``e |>.f a`` is ``(e).f a`` (Lean core Init/Prelude.lean, ``|>.``)."""
    p.advance()
    field = p.advance()
    if field.kind != "ident":
        raise p.error("expected a field name after '|>.'", field)
    node = left
    for name in field.text.split("."):
        node = Node(field_label(name, 0), (node,))  # as the parser reads `(e).f`
    return node


def iterate(p: TermCursor, left: Node) -> Node:
    """``f^[n]`` (Mathlib/Logic/Function/Iterate.lean: ``notation:max f "^["n"]" =>
    Nat.iterate f n``)."""
    p.advance()
    with p.nested():
        n = p.expr(0)
    p.expect("]")
    return Node(application("Nat.iterate", 2), (left, n))
