"""Definitional reductions the search may apply for free: zeta (``let``), beta, tuple projection.

These are equalities by ``rfl``: Lean's ``dsimp only`` performs all three (its default
``zeta``, ``beta`` and ``proj`` settings), which is how a path prints them. ASSESS's example
``mathd_algebra_142`` (Appendix C.2) compares a statement written with
``let B : ℝ × ℝ := (7, -1)`` and ``B.2``; after these reductions it reads ``(-1 : ℝ)``.

A ``let`` is reduced as the normaliser reduces it (:func:`~transted.pipeline.opt.zeta.zeta_reduct`:
the value ascribed its written type, never an untyped one, whose value's type the tree alone
cannot settle); the normaliser has already reduced those it could, with the elaboration.
``((a, b) : α × β).2`` is ``(b : β)``: the ascription elaborates the pair's components at
``α`` and ``β`` (``Prod.mk``), and the projection reduces (``Prod.snd``, proj).
"""

from __future__ import annotations

from transted.pipeline.opt.labels import APP, ASCRIPTION, FUN, TUPLE, infix, postfix
from transted.pipeline.opt.node import Node
from transted.pipeline.opt.scope import (
    binder_names,
    binder_type,
    bound_name,
    child_scopes,
    has_pattern,
)
from transted.pipeline.opt.substitution import substitute
from transted.pipeline.opt.zeta import is_let, zeta_reduct

__all__ = ["reduce_definitional", "beta_reduce"]

_PROJ = {postfix(".1"): 0, postfix(".2"): 1, postfix(".fst"): 0, postfix(".snd"): 1}
_PRODUCT = infix("×")
_MAX_ROUNDS = 32  # a beta redex can create another; statements need a handful at most


def reduce_definitional(tree: Node) -> Node:
    """``tree`` with every ``let``, beta redex and ``(a, b).1``-style projection reduced."""
    for _ in range(_MAX_ROUNDS):
        new = _step(tree)
        if new == tree:
            return tree
        tree = new
    return tree


def beta_reduce(tree: Node) -> Node:
    """``tree`` with its beta redexes ``(fun x => b) a`` reduced (Mathlib's ``beta_reduce``)."""
    if not _has_beta_redex(tree):  # the common case: a look without rebuilding the tree
        return tree
    for _ in range(_MAX_ROUNDS):
        new = _step(tree, beta_only=True)
        if new == tree:
            return tree
        tree = new
    return tree


def _is_beta_redex(node: Node) -> bool:
    head = node.children[0] if node.label == APP and node.children else None
    return (head is not None and head.label == FUN and len(head.children) == 2
            and not has_pattern(head.children[0]))


def _has_beta_redex(tree: Node) -> bool:
    stack = [tree]
    while stack:
        node = stack.pop()
        if node.children:
            if _is_beta_redex(node):
                return True
            stack.extend(node.children)
    return False


def _step(node: Node, beta_only: bool = False, unfixed: frozenset[str] = frozenset()) -> Node:
    """One bottom-up pass; ``unfixed``: the names in scope bound without a written type."""
    if node.is_leaf:
        return node
    kids = tuple(_step(c, beta_only, _inner(unfixed, binders))
                 for c, (binders, _) in zip(node.children, child_scopes(node), strict=True))
    node = node if kids == node.children else node.with_children(kids)
    if is_let(node) and not beta_only:
        reduct = zeta_reduct(node, unfixed=unfixed)
        return node if reduct is None else reduct
    if _is_beta_redex(node):  # a pattern lambda is a match: kept
        binder, body = kids[0].children
        name = bound_name(binder)
        return body if name is None else substitute(body, name, kids[1])
    index = None if beta_only else _PROJ.get(node.label)
    if index is not None:
        return _projection(kids[0], index) or node
    return node


def _inner(unfixed: frozenset[str], binders: tuple[Node, ...]) -> frozenset[str]:
    """``unfixed`` inside ``binders``: an untyped (or ``_``-typed) name joins, a typed one
    leaves."""
    if not binders:
        return unfixed
    out = set(unfixed)
    for b in binders:
        typ = binder_type(b)
        for name in binder_names(b):
            if typ is None or typ.label == "_":
                out.add(name)
            else:
                out.discard(name)
    return frozenset(out)


def _projection(pair: Node, index: int) -> Node | None:
    """``(a, b).2`` is ``b``; ``((a, b) : α × β).2`` is ``(b : β)``."""
    if pair.label == TUPLE:
        return pair.children[index]
    if pair.label == ASCRIPTION and pair.children[0].label == TUPLE and \
            pair.children[1].label == _PRODUCT:
        return Node(ASCRIPTION, (pair.children[0].children[index],
                                 pair.children[1].children[index]))
    return None
