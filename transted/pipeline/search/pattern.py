"""First-order patterns over operator trees: leaves ``?a`` are metavariables.

Rewrite rules (:mod:`transted.pipeline.search.ruleset`) are written in Lean syntax with ``?a``
metavariables and parsed by ``transted.pipeline.opt.parse_term`` into such patterns. Matching is
syntactic (labels must be equal, a repeated metavariable must match equal subtrees); this is
the offline stand-in for Lean's ``kabstract`` up to instances, which is all ``rw`` needs for
the notation-level lemmas of the offline rule set.
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping

from transted.pipeline.opt.labels import SLOT
from transted.pipeline.opt.node import Node

__all__ = ["is_meta", "metavariables", "match", "instantiate", "positions", "subtree_hashes",
           "replace_at",
           "apply_node", "Path"]

Path = tuple[int, ...]
"""Child indices from a root to a node."""


def is_meta(node: Node) -> bool:
    """True for a metavariable leaf ``?name``."""
    return node.is_leaf and node.label.startswith("?") and len(node.label) > 1


def metavariables(pattern: Node) -> set[str]:
    """Metavariables of ``pattern``, including heads of applications ``?f x``."""
    out = {n.label for n in pattern.preorder() if is_meta(n)}
    return out | {h for n in pattern.preorder() if (h := _meta_head(n)) is not None}


def match(pattern: Node, term: Node, subst: Mapping[str, Node] | None = None
          ) -> dict[str, Node] | None:
    """A substitution σ with ``instantiate(pattern, σ) == term``, extending ``subst``; or None."""
    out = dict(subst or {})
    stack = [(pattern, term)]
    while stack:
        p, t = stack.pop()
        if is_meta(p):
            bound = out.get(p.label)
            if bound is None:
                out[p.label] = t
            elif bound != t:
                return None
            continue
        head = _meta_head(p)
        if head is not None:
            split = _split_application(t, len(p.children))
            if split is None:
                return None
            fn, args = split
            bound = out.get(head)
            if bound is None:
                out[head] = fn
            elif bound != fn:
                return None
            stack.extend(zip(p.children, args, strict=False))
            continue
        if p.label != t.label or len(p.children) != len(t.children):
            return None
        stack.extend(zip(p.children, t.children, strict=False))
    return out


def _meta_head(p: Node) -> str | None:
    """``?f`` for a pattern application ``?f x y`` (label ``?f <SLOT> <SLOT>``)."""
    if not p.label.startswith("?") or not p.children:
        return None
    head, _, rest = p.label.partition(" ")
    return head if rest == " ".join([SLOT] * len(p.children)) else None


def _split_application(t: Node, arity: int) -> tuple[Node, tuple[Node, ...]] | None:
    """``(function, args)`` of an application with ``arity`` arguments, either label style."""
    slots = " ".join([SLOT] * arity)
    if t.label == f"{SLOT} {slots}" and len(t.children) == arity + 1:
        return t.children[0], t.children[1:]
    head, _, rest = t.label.partition(" ")
    if rest == slots and head and SLOT not in head and len(t.children) == arity:
        return Node(head), t.children
    return None


def apply_node(fn: Node, args: tuple[Node, ...]) -> Node:
    """The application ``fn args`` in the label convention (name head or ``<SLOT>`` head)."""
    slots = " ".join([SLOT] * len(args))
    if fn.is_leaf and " " not in fn.label and SLOT not in fn.label:
        return Node(f"{fn.label} {slots}", args)
    return Node(f"{SLOT} {slots}", (fn,) + args)


def instantiate(pattern: Node, subst: Mapping[str, Node]) -> Node:
    """Replace every metavariable of ``pattern`` by its value (KeyError if unbound)."""
    if is_meta(pattern):
        return subst[pattern.label]
    if pattern.is_leaf:
        return pattern
    kids = tuple(instantiate(c, subst) for c in pattern.children)
    head = _meta_head(pattern)
    if head is not None:
        return apply_node(subst[head], kids)
    return pattern.with_children(kids)


def positions(tree: Node) -> Iterator[tuple[Path, Node]]:
    """All ``(path, subtree)`` in preorder (the order ``rw``'s ``kabstract`` visits)."""
    stack: list[tuple[Path, Node]] = [((), tree)]
    while stack:
        path, node = stack.pop()
        yield path, node
        stack.extend((path + (i,), c) for i, c in reversed(list(enumerate(node.children))))


def subtree_hashes(tree: Node, by_hash: dict[int, list[Node]] | None = None) -> dict[int, int]:
    """``hash(node)`` of every subtree of ``tree``, by the subtree's ``id``, in one bottom-up
    pass: ``Node.__hash__`` walks the whole subtree at each call, so asking it of every
    position of a tree costs its size times its depth. ``by_hash``, when given, receives each
    subtree object once under its hash, in the same pass."""
    out: dict[int, int] = {}
    stack: list[tuple[Node, bool]] = [(tree, False)]
    while stack:
        node, ready = stack.pop()
        if id(node) in out:
            continue
        if not ready and node.children:
            stack.append((node, True))
            stack.extend((c, False) for c in node.children)
            continue
        hashed = out[id(node)] = hash((node.label, tuple(out[id(c)] for c in node.children)))
        if by_hash is not None:
            by_hash.setdefault(hashed, []).append(node)
    return out


def replace_at(tree: Node, path: Path, new: Node) -> Node:
    """``tree`` with the subtree at ``path`` replaced by ``new``."""
    if not path:
        return new
    i = path[0]
    kids = list(tree.children)
    kids[i] = replace_at(kids[i], path[1:], new)
    return tree.with_children(tuple(kids))
