"""Bound variables of operator trees: which labels bind, which children are binders, renaming.

The one home of binding structure; the parser builds binder children with :func:`binder_node`,
and the canonical form (:mod:`transted.pipeline.opt.canonical`) reads trees through this module.

A binding node is recognised from its label (docs/INTERNALS.md, "Labels"): the label starts
with a binder head (``∀ ∃ ∃! fun ∑ ∏ ∑' ∏' ⋃ ⋂ ⨆ ⨅ ∫ let have``, set-builder ``{x | p}``,
subtype ``{x // p}``); its *first* child is the binder (a name leaf, ``<SLOT> : <SLOT>``[x, T],
a bracketed ``{<SLOT> : <SLOT>}``…, or a group ``<SLOT> <SLOT> : <SLOT>``[x, y, T]); the
*body* is the operand written after ``,``, ``=>``, ``|``, ``//`` or ``;`` and is the only child
in the binder's scope (a binder's type, ``∑ x ∈ s``'s ``s``, ``let``'s value and ``∫``'s
``∂μ`` are outside it). The statement form's ``theorem`` node binds each declaration binder's
names in every later child.

The canonical form built on this structure is :mod:`transted.pipeline.opt.canonical`. Every walk here is iterative and linear in the tree size: trees may be deeper than Python's
recursion limit.
"""

from __future__ import annotations

from functools import lru_cache

from transted.pipeline.opt.labels import BINDER_HEADS, SLOT, THEOREM, application
from transted.pipeline.opt.node import Node
from transted.pipeline.opt.pattern_binders import (
    is_match_pattern,
    is_pattern,
    pattern_names,
    usable_name,
)

__all__ = ["body_index", "is_binding", "binder_names", "has_pattern", "child_scopes",
           "bound_name", "binder_type", "with_bound_name", "binder_node", "head_name",
           "relabel_head", "free_names", "free_names_cached", "scope_parts", "AFTER_BODY"]

BODY_SEPARATORS = (", ", "=> ", "| ", "// ", "; ")
_BRACKETS = {"(": ")", "{": "}", "⦃": "⦄", "[": "]"}
AFTER_BODY = ["\0after"]
"""Marks the children of a binding node after its body (outside the scope): see
:func:`scope_parts`."""

@lru_cache(maxsize=4096)
def body_index(label: str) -> int | None:
    """Index of the body child of a binding label, or None when the label binds nothing."""
    if not label.startswith(BINDER_HEADS):
        return None
    slots = label.split(SLOT)
    for i in range(2, len(slots)):  # the binder is child 0: the body comes after it
        if slots[i - 1].endswith(BODY_SEPARATORS):
            return i - 1
    return None


def is_binding(node: Node) -> bool:
    """True if ``node`` binds the names of its first child in its body child."""
    idx = body_index(node.label) if len(node.children) >= 2 else None
    return idx is not None and 0 < idx < len(node.children)


@lru_cache(maxsize=4096)
def _typed_arity(label: str) -> int | None:
    """Number of names of a typed binder label (``<SLOT> <SLOT> : <SLOT>``, bracketed or not)."""
    inner = label
    if label[:1] in _BRACKETS and label.endswith(_BRACKETS[label[0]]):
        inner = label[1:-1]
    names, sep, ty = inner.rpartition(" : ")
    if not sep or ty != SLOT or not names or any(p != SLOT for p in names.split(" ")):
        return None
    return len(names.split(" "))


def binder_names(binder: Node) -> list[str]:
    """Names a binder child introduces (leaf, typed, bracketed, grouped or a pattern); none for
    ``_``."""
    if binder.is_leaf:
        return [binder.label] if usable_name(binder.label) else []
    k = _typed_arity(binder.label)
    if k is not None and k == len(binder.children) - 1:
        out: list[str] = []
        for c in binder.children[:-1]:
            if c.is_leaf:
                out += [c.label] if usable_name(c.label) else []
            elif is_pattern(c):
                out += pattern_names(c)
        return out
    if binder.label == " ".join([SLOT] * len(binder.children)) and all(
            c.is_leaf for c in binder.children):
        return [c.label for c in binder.children if usable_name(c.label)]
    if is_pattern(binder) or is_match_pattern(binder):
        return pattern_names(binder)
    return []


def has_pattern(binder: Node) -> bool:
    """The binder child binds a pattern (alone or typed), not a name."""
    if binder.is_leaf:
        return False
    return is_pattern(binder) or is_match_pattern(binder) or (
        binder_type(binder) is not None and any(not c.is_leaf and is_pattern(c)
                                                for c in binder.children[:-1]))


def bound_name(binder: Node) -> str | None:
    """The one name a single-name binder child introduces; None for ``_``, groups, patterns,
    instances."""
    names = binder_names(binder)
    if len(names) != 1 or (not binder.is_leaf and len(binder.children) > 2) or has_pattern(binder):
        return None
    return names[0]


def binder_type(binder: Node) -> Node | None:
    """The declared type of a binder child, if any (outside the binder's scope)."""
    k = _typed_arity(binder.label) if binder.children else None
    if k is not None and k == len(binder.children) - 1:
        return binder.children[-1]
    return None


def with_bound_name(binder: Node, name: str) -> Node:
    """The single-name binder child with its name replaced by ``name``."""
    if binder.is_leaf:
        return Node(name)
    return binder.with_children((Node(name),) + binder.children[1:])


def binder_node(names: list[str], ty: Node | None) -> Node:
    """The binder child the parser builds: ``x`` / ``<SLOT> : <SLOT>``[x, T] / groups."""
    if ty is None:
        if len(names) == 1:
            return Node(names[0])
        return Node(" ".join([SLOT] * len(names)), tuple(Node(n) for n in names))
    return Node(" ".join([SLOT] * len(names)) + f" : {SLOT}",
                tuple(Node(n) for n in names) + (ty,))


@lru_cache(maxsize=65536)
def head_name(label: str, arity: int) -> str | None:
    """The function name of an application label ``f <SLOT> … <SLOT>`` (``arity`` slots).

    The operator-tree convention puts a named head *in the label*; a bound function variable
    occurs there, so free names and renaming must look at it.
    """
    if arity == 0 or not label.endswith(SLOT):
        return None
    head, _, rest = label.partition(" ")
    if rest != " ".join([SLOT] * arity) or not head or SLOT in head:
        return None
    return head


def relabel_head(node: Node, new: str) -> Node:
    """``node`` (an application ``f <SLOT>…``) with its head name replaced by ``new``."""
    return Node(application(new, len(node.children)), node.children)


def scope_parts(node: Node) -> list[tuple[Node, list[str], bool]] | None:
    """Children of a binding node in order: ``(child, names bound after it, is_binder)``.

    ``names`` are pushed after the child is visited and popped at the end of the node
    (:data:`AFTER_BODY` for a child after the body: the names are popped before it); None
    when ``node`` binds nothing.
    """
    if node.label == THEOREM and len(node.children) >= 2:
        out = [(c, binder_names(c), True) for c in node.children[:-1]]
        return out + [(node.children[-1], [], False)]
    idx = body_index(node.label) if is_binding(node) else None
    if idx is None:
        return None
    binder = node.children[0]
    out = [(binder, [], True)]
    out += [(c, [], False) for c in node.children[1:idx]]
    names = binder_names(binder)
    out[-1] = (out[-1][0], names, out[-1][2])  # names open just before the body
    out.append((node.children[idx], [], False))
    return out + [(c, AFTER_BODY, False) for c in node.children[idx + 1:]]


def child_scopes(node: Node) -> list[tuple[tuple[Node, ...], bool]]:
    """For each child of ``node``: the binder children of ``node`` whose names are in scope in
    it, and whether the child is itself a binder (only its type is a term there)."""
    n = len(node.children)
    if node.label == THEOREM and n >= 2:
        kids = node.children
        return [(kids[:i], True) for i in range(n - 1)] + [(kids[:-1], False)]
    idx = body_index(node.label) if is_binding(node) else None
    if idx is None:
        return [((), False)] * n
    none: tuple[Node, ...] = ()
    opened: tuple[Node, ...] = (node.children[0],)
    return ([(none, True)] + [(none, False)] * (idx - 1) + [(opened, False)]
            + [(none, False)] * (n - idx - 1))


def free_names(node: Node) -> frozenset[str]:
    """Names occurring free in ``node`` (leaves and named application heads; iterative)."""
    out: set[str] = set()
    stack: list[tuple[Node, frozenset[str]]] = [(node, frozenset())]
    while stack:
        n, bound = stack.pop()
        if n.is_leaf:
            if n.label not in bound:
                out.add(n.label)
            continue
        head = head_name(n.label, len(n.children))
        if head is not None and head not in bound:
            out.add(head)
        parts = scope_parts(n)
        if parts is None:
            stack.extend((c, bound) for c in n.children)
            continue
        inner = bound
        for child, names, is_binder in parts:
            if names == AFTER_BODY:
                stack.append((child, bound))
                continue
            if is_binder:
                typ = binder_type(child)
                if typ is not None:  # the binder's type is outside its scope
                    stack.append((typ, inner))
                elif not binder_names(child) and not child.is_leaf:
                    stack.append((child, inner))
            else:
                stack.append((child, inner))
            if names:
                inner = inner | set(names)
    return frozenset(out)


_FREE: dict[int, tuple[Node, frozenset[str]]] = {}
_FREE_MAX = 200_000  # entries; the search's states share most subtrees, so hits are common


def free_names_cached(node: Node) -> frozenset[str]:
    """:func:`free_names` memoised per node object, computed bottom-up (each node once)."""
    hit = _FREE.get(id(node))
    if hit is not None and hit[0] is node:
        return hit[1]
    if len(_FREE) > _FREE_MAX:
        _FREE.clear()
    stack: list[tuple[Node, list | None, bool]] = [(node, None, False)]
    while stack:
        n, parts, ready = stack.pop()
        hit = _FREE.get(id(n))
        if hit is not None and hit[0] is n:
            continue
        children = n.children
        if not children:
            _FREE[id(n)] = (n, frozenset((n.label,)))
            continue
        plain = body_index(n.label) is None and n.label != THEOREM
        if not ready:
            parts = None if plain else scope_parts(n)
            stack.append((n, parts, True))
            if parts is None:
                stack.extend((c, None, False) for c in children)
            else:
                stack.extend((sub, None, False) for c, _n, b in parts
                             if (sub := _subject(c, b)) is not None)
            continue
        head = head_name(n.label, len(children)) if n.label[-1] == ">" else None
        out: set[str] = set() if head is None else {head}
        if parts is None:
            for c in children:
                out |= _FREE[id(c)][1]
        else:
            bound: set[str] = set()
            for c, names, is_binder in parts:
                if names == AFTER_BODY:
                    bound = set()
                subject = _subject(c, is_binder)
                if subject is not None:
                    out |= _FREE[id(subject)][1] - bound
                if names and names != AFTER_BODY:
                    bound |= set(names)
        _FREE[id(n)] = (n, frozenset(out))
    return _FREE[id(node)][1]


def _subject(child: Node, is_binder: bool) -> Node | None:
    """The part of a scope child whose names are looked up (a binder: its type only)."""
    if not is_binder:
        return child
    typ = binder_type(child)
    if typ is not None:
        return typ
    return child if not binder_names(child) and not child.is_leaf else None
