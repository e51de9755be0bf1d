"""Definitional reductions the search may apply for free: zeta (``let``), beta, tuple projection.

These are equalities by ``rfl``: Lean's ``dsimp only`` performs all three (its default
``zeta``, ``beta`` and ``proj`` settings), which is how a path prints them. ASSESS's example
``mathd_algebra_142`` (Appendix C.2) compares a statement written with ``let B := (7, -1)``
and ``B.2``; after these reductions it reads ``-1``.
"""

from __future__ import annotations

from transted.pipeline.opt.labels import APP, FUN, LET, TUPLE, postfix
from transted.pipeline.opt.node import Node
from transted.pipeline.opt.scope import bound_name, has_pattern
from transted.pipeline.opt.substitution import substitute

__all__ = ["reduce_definitional", "beta_reduce"]

_PROJ = {postfix(".1"): 0, postfix(".2"): 1, postfix(".fst"): 0, postfix(".snd"): 1}
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


def _step(node: Node, beta_only: bool = False) -> Node:
    if node.is_leaf:
        return node
    kids = tuple(_step(c, beta_only) for c in node.children)
    node = node if kids == node.children else node.with_children(kids)
    if node.label == LET and len(kids) == 3 and not beta_only and not has_pattern(kids[0]):
        name = bound_name(kids[0])
        return kids[2] if name is None else substitute(kids[2], name, kids[1])
    if _is_beta_redex(node):  # a pattern lambda is a match: kept
        binder, body = kids[0].children
        name = bound_name(binder)
        return body if name is None else substitute(body, name, kids[1])
    index = None if beta_only else _PROJ.get(node.label)
    if index is not None and kids[0].label == TUPLE:
        return kids[0].children[index]
    return node
