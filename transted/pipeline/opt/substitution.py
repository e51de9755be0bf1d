"""Capture-avoiding substitution on operator trees (δ-unfolding of context definitions, the
search's beta/let reduction and rule instantiation).

Which labels bind, which children are binders and the alpha-canonical form live in
:mod:`transted.pipeline.opt.scope`; this module only substitutes, renaming a binder when a free name of
the value would be captured (Lean's ``x'`` priming).
"""

from __future__ import annotations

from collections.abc import Iterable

from transted.pipeline.opt.labels import SLOT
from transted.pipeline.opt.node import Node
from transted.pipeline.opt.scope import (
    binder_names,
    binder_type,
    body_index,
    bound_name,
    free_names,
    has_pattern,
    head_name,
    is_binding,
    relabel_head,
    with_bound_name,
)

__all__ = ["rename_free", "substitute", "fresh_name"]


def rename_free(node: Node, old: str, new: str) -> Node:
    """Replace free occurrences of the name ``old`` by ``new`` (``new`` must be fresh)."""
    return substitute(node, old, Node(new))


def substitute(node: Node, name: str, value: Node) -> Node:
    """Capture-avoiding substitution ``node[name := value]``."""
    value_free = free_names(value)
    return _subst(node, name, value, value_free)


def _subst(node: Node, name: str, value: Node, value_free: frozenset[str]) -> Node:
    if node.is_leaf:
        return value if node.label == name else node
    if not is_binding(node):
        kids = tuple(_subst(c, name, value, value_free) for c in node.children)
        if head_name(node.label, len(kids)) == name:
            if value.is_leaf:
                return relabel_head(Node(node.label, kids), value.label)
            return Node(" ".join([SLOT] * (len(kids) + 1)), (value,) + kids)
        return node if kids == node.children else node.with_children(kids)
    idx = body_index(node.label)
    assert idx is not None
    binder, scope = node.children[0], node.children[idx]
    typ = binder_type(binder)
    if typ is not None:
        binder = binder.with_children((binder.children[0], _subst(typ, name, value, value_free)))
    middle = tuple(_subst(c, name, value, value_free) for c in node.children[1:idx])
    after = tuple(_subst(c, name, value, value_free) for c in node.children[idx + 1:])
    bname = bound_name(binder)
    if name in binder_names(binder):
        return node.with_children((binder,) + middle + (scope,) + after)
    if bname is not None and bname in value_free and name in free_names(scope):
        fresh = fresh_name(bname, free_names(scope) | value_free | {name})
        binder = with_bound_name(binder, fresh)
        scope = rename_free(scope, bname, fresh)
    elif has_pattern(binder) and name in free_names(scope):
        for var in set(binder_names(binder)) & value_free:  # a pattern's names are primed too
            fresh = fresh_name(var, free_names(scope) | value_free | {name} | set(binder_names(binder)))
            binder = rename_leaves(binder, var, fresh)
            scope = rename_free(scope, var, fresh)
    scope = _subst(scope, name, value, value_free)
    return node.with_children((binder,) + middle + (scope,) + after)


def rename_leaves(node: Node, old: str, new: str) -> Node:
    """``node`` with every leaf ``old`` relabelled ``new`` (a pattern's variable renamed)."""
    if node.is_leaf:
        return Node(new) if node.label == old else node
    return node.with_children(tuple(rename_leaves(c, old, new) for c in node.children))


def fresh_name(base: str, avoid: Iterable[str]) -> str:
    """``base`` itself if not in ``avoid``, else ``base'``, ``base''``, … (Lean's style)."""
    taken = set(avoid)
    name = base
    while name in taken:
        name += "'"
    return name
