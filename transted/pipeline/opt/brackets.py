"""Bracket notations of the term parser: parentheses (ascriptions, tuples, ``(↑)``),
anonymous constructors, list/vector/matrix literals, ``|x|``, ``‖x‖``/``‖x‖₊``, ``⌊x⌋``,
``⌈x⌉``, ``⟪x, y⟫_𝕜``, ``⁅x, y⁆``.

Functions over the parser's :class:`~transted.pipeline.opt.cursor.TermCursor`, called by
:class:`transted.pipeline.opt.parser.TermParser` at their opening symbol, as the binder notations of
:mod:`transted.pipeline.opt.binders` are. Inside brackets Lean's column rule is off
(``withoutPosition``): each saves and clears the cursor's ``position``.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator

from transted.pipeline.opt.cursor import TermCursor
from transted.pipeline.opt.labels import ASCRIPTION, FUN, SLOT
from transted.pipeline.opt.node import Node

__all__ = ["paren", "delimited", "inner_product", "lie_bracket", "anonymous_constructor",
           "list_literal", "vector_literal", "matrix_literal", "bracket", "abs_", "norm",
           "floor", "ceil"]


def paren(p: TermCursor) -> Node:
    open_tok = p.advance()
    if p.accept(")"):
        return Node("()")
    if p.at("↑", "⇑", "↥") and p.peek().text == ")":
        # `(↑)`: the coercion as a function (Lean core Init/Coe.lean, `coeNotation`)
        arrow = p.advance().text
        p.advance()
        return Node(f"({arrow})")
    saved, saved_position = p.closers, p.position
    p.closers, p.position = [], None  # Lean's withoutPosition inside brackets
    try:
        first = p.expr(0)
        if p.accept(":"):
            ty = p.expr(0)
            p.expect(")")
            return cdot_function(Node(ASCRIPTION, (first, ty)))
        items = [first]
        while p.accept(","):
            items.append(p.expr(0))
        if not p.at(")"):
            raise p.error(f"expected ')' to close '(' at column {open_tok.start + 1}, found {p.describe(p.tok)}")
        p.advance()
    finally:
        p.closers, p.position = saved, saved_position
    if len(items) == 1:
        return cdot_function(first)
    return cdot_function(Node("(" + ", ".join([SLOT] * len(items)) + ")", tuple(items)))


CDOT = "·"


def cdot_function(term: Node) -> Node:
    """``(· + 1)`` is ``fun x => x + 1``, ``(f · · b)`` is ``fun x1 x2 => f x1 x2 b`` (Lean core
    ``expandCDot?``, src/Lean/Elab/BuiltinNotation.lean: the ``·`` of a parenthesis, an
    ascription or a tuple, up to the inner ones, which a nested call has already expanded). The
    binders get hygienic names (``x✝``, ``x✝1``, …) no written name can capture."""
    count = _count_cdots(term)
    if not count:
        return term
    names = ["x✝"] if count == 1 else [f"x✝{i}" for i in range(1, count + 1)]
    fresh = iter(names)
    body = _replace_cdots(term, fresh)
    for name in reversed(names):
        body = Node(FUN, (Node(name), body))
    return body


def _count_cdots(node: Node) -> int:
    if node.is_leaf:
        return node.label == CDOT
    return sum(_count_cdots(c) for c in node.children)


def _replace_cdots(node: Node, fresh: Iterator[str]) -> Node:
    if node.is_leaf:
        return Node(next(fresh)) if node.label == CDOT else node
    return node.with_children(tuple(_replace_cdots(c, fresh) for c in node.children))

def delimited(p: TermCursor, open_sym: str, close_sym: str,
              label_of: Callable[[int], str]) -> Node:
    p.expect(open_sym)
    saved, saved_position = p.closers, p.position
    p.closers, p.position = [], None
    try:
        items = []
        if not p.at(close_sym):
            items.append(p.expr(0))
            while p.accept(","):
                items.append(p.expr(0))
        p.expect(close_sym)
    finally:
        p.closers, p.position = saved, saved_position
    return Node(label_of(len(items)), tuple(items)) if items else Node(open_sym + close_sym)

def inner_product(p: TermCursor) -> Node:
    """``⟪x, y⟫_𝕜`` (Mathlib inner product notation)."""
    node = delimited(p, "⟪", "⟫", lambda n: "⟪" + ", ".join([SLOT] * n) + "⟫")
    if p.tok.kind == "ident" and p.tok.text.startswith("_") and not p.tok.space_before:
        node = Node(node.label + p.advance().text, node.children)
    return node

def lie_bracket(p: TermCursor) -> Node:
    return delimited(p, "⁅", "⁆", lambda n: "⁅" + ", ".join([SLOT] * n) + "⁆")

def anonymous_constructor(p: TermCursor) -> Node:
    return delimited(p, "⟨", "⟩", lambda n: "⟨" + ", ".join([SLOT] * n) + "⟩")

def list_literal(p: TermCursor) -> Node:
    return delimited(p, "[", "]", lambda n: "[" + ", ".join([SLOT] * n) + "]")

def vector_literal(p: TermCursor) -> Node:
    """``![a, b, c]`` (Mathlib/Data/Fin/VecNotation.lean: ``Matrix.vecCons`` notation)."""
    return delimited(p, "![", "]", lambda n: "![" + ", ".join([SLOT] * n) + "]")

def matrix_literal(p: TermCursor) -> Node:
    """``!![a, b; c, d]`` (Mathlib/Data/Matrix/Notation.lean: ``Matrix.of`` of its rows)."""
    p.expect("!![")
    saved, saved_position = p.closers, p.position
    p.closers, p.position = [], None
    rows: list[list[Node]] = [[]]
    try:
        while not p.at("]"):
            rows[-1].append(p.expr(0))
            if p.accept(";"):
                rows.append([])
            elif not p.at("]"):
                p.expect(",")
        p.expect("]")
    finally:
        p.closers, p.position = saved, saved_position
    label = "!![" + "; ".join(", ".join([SLOT] * len(r)) for r in rows) + "]"
    return Node(label, tuple(c for r in rows for c in r))

def bracket(p: TermCursor, open_sym: str, close_syms: tuple[str, ...]) -> Node:
    p.advance()
    p.closers.append(open_sym if open_sym in ("|", "‖") else "")
    saved_position, p.position = p.position, None
    try:
        inner = p.expr(0)
    finally:
        p.closers.pop()
        p.position = saved_position
    close = p.expect(*close_syms)
    return Node(f"{open_sym}{SLOT}{close.text}", (inner,))

def abs_(p: TermCursor) -> Node:
    return bracket(p, "|", ("|",))

def norm(p: TermCursor) -> Node:
    """``‖x‖`` and ``‖x‖₊`` (Mathlib/Analysis/Normed/Group/Basic.lean: ``NNNorm.nnnorm``)."""
    return bracket(p, "‖", ("‖", "‖₊"))

def floor(p: TermCursor) -> Node:
    return bracket(p, "⌊", ("⌋", "⌋₊"))

def ceil(p: TermCursor) -> Node:
    return bracket(p, "⌈", ("⌉", "⌉₊"))
