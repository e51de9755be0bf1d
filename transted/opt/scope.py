"""Bound variables of operator trees: which labels bind, which children are binders, renaming.

The one home of binding structure; the parser builds binder children with :func:`binder_node`,
and ``ted --canonical-names``, the search's duplicate check and its TED calls all read trees
through this module.

A binding node is recognised from its label (docs/INTERNALS.md, "Labels"): the label starts
with a binder head (``∀ ∃ ∃! fun ∑ ∏ ∑' ∏' ⋃ ⋂ ⨆ ⨅ ∫ let have``, set-builder ``{x | p}``,
subtype ``{x // p}``); its *first* child is the binder (a name leaf, ``<SLOT> : <SLOT>``[x, T],
a bracketed ``{<SLOT> : <SLOT>}``…, or a group ``<SLOT> <SLOT> : <SLOT>``[x, y, T]); the
*body* is the operand written after ``,``, ``=>``, ``|``, ``//`` or ``;`` and is the only child
in the binder's scope (a binder's type, ``∑ x ∈ s``'s ``s``, ``let``'s value and ``∫``'s
``∂μ`` are outside it). The statement form's ``theorem`` node binds each declaration binder's
names in every later child.

The canonical form renames every bound variable to its de Bruijn *level* (``#1`` for the
outermost binder, counting the goal's local context first), so alpha-equivalent trees are equal
(§3.3: renaming is a transformation both ways). With ``arrows=True`` (the search) a typed ``∀``
whose name is unused is written ``T → body``, as Lean itself prints it: both are the same term.
Every walk here is iterative and linear in the tree size: trees may be deeper than Python's
recursion limit.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from functools import lru_cache

from transted.opt.labels import ARROW, BINDER_HEADS, FORALL, SLOT, THEOREM, application
from transted.opt.node import Flat, Node, unflatten
from transted.opt.pattern_binders import (
    CANON_PREFIX,
    is_match_pattern,
    is_pattern,
    pattern_names,
    renamed_pattern,
    usable_name,
)

__all__ = ["body_index", "is_binding", "binder_names", "has_pattern", "child_scopes",
           "bound_name", "binder_type", "with_bound_name", "binder_node", "head_name",
           "relabel_head", "free_names", "canonical", "canonical_flat", "canonicalize"]

BODY_SEPARATORS = (", ", "=> ", "| ", "// ", "; ")
_BRACKETS = {"(": ")", "{": "}", "⦃": "⦄", "[": "]"}
_CANON_PREFIX = CANON_PREFIX
_AFTER = ["\0after"]  # marks children after the body (outside the scope)

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


def _scopes(node: Node) -> list[tuple[Node, list[str], bool]] | None:
    """Children of a binding node in order: ``(child, names bound after it, is_binder)``.

    ``names`` are pushed after the child is visited and popped at the end of the node; None
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
    return out + [(c, _AFTER, False) for c in node.children[idx + 1:]]


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
        parts = _scopes(n)
        if parts is None:
            stack.extend((c, bound) for c in n.children)
            continue
        inner = bound
        for child, names, is_binder in parts:
            if names == _AFTER:
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


def _free_cached(node: Node) -> frozenset[str]:
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
            parts = None if plain else _scopes(n)
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
                if names == _AFTER:
                    bound = set()
                subject = _subject(c, is_binder)
                if subject is not None:
                    out |= _FREE[id(subject)][1] - bound
                if names and names != _AFTER:
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


def canonical_flat(node: Node, env: Mapping[str, str] | None = None, level: int = 0, *,
                   arrows: bool = True) -> Flat:
    """The alpha-canonical form of ``node`` as preorder labels + adjacency lists.

    Parameters
    ----------
    node : tree to canonicalise
    env : names already bound outside ``node`` (the goal's local context) → canonical name
    level : number of binders already open outside ``node``
    arrows : write a typed ``∀`` whose name is unused as ``T → body`` (Lean's reading)

    Linear in the size of ``node`` and iterative (no recursion on the tree).
    """
    names: dict[str, list[str]] = {k: [v] for k, v in (env or {}).items()}
    labels: list[str] = []
    adj: list[list[int]] = []
    depth = [level]

    def emit(label: str, parent: list[int]) -> list[int]:
        parent.append(len(labels))
        labels.append(label)
        kids: list[int] = []
        adj.append(kids)
        return kids

    # tasks: ("n", node, parent) | ("b", binder, parent, first_level) | ("p", names) | ("q", k)
    root_kids: list[int] = []
    stack: list[tuple] = [("n", node, root_kids)]
    while stack:
        task = stack.pop()
        kind = task[0]
        if kind == "n":
            # hot path, inlined: a leaf or a node that binds nothing
            n, parent = task[1], task[2]
            children = n.children
            label = n.label
            parent.append(len(labels))
            if not children:
                hit = names.get(label)
                labels.append(hit[-1] if hit else label)
                adj.append([])
                continue
            if body_index(label) is None and label != THEOREM:
                head = head_name(label, len(children)) if label[-1] == ">" else None
                hit = names.get(head) if head is not None else None
                labels.append(application(hit[-1], len(children)) if hit else label)
                kids: list[int] = []
                adj.append(kids)
                for c in children:
                    if c.children:
                        stack.extend([("n", c, kids) for c in reversed(children)])
                        break
                else:  # only leaves below (`a + 1`): emitted here, in order, without tasks
                    for c in children:
                        kids.append(len(labels))
                        hit = names.get(c.label)
                        labels.append(hit[-1] if hit else c.label)
                        adj.append([])
                continue
            parent.pop()
        elif kind == "p":
            for name in task[1]:
                depth[0] += 1
                names.setdefault(name, []).append(f"{_CANON_PREFIX}{depth[0]}")
            continue
        elif kind == "q":
            for name in task[1]:
                names[name].pop()
                depth[0] -= 1
            continue
        elif kind == "l":
            emit(task[1], task[2])
            continue
        elif kind == "b":
            _emit_binder(task[1], task[2], task[3], emit, stack)
            continue
        n, parent = task[1], task[2]
        parts = _scopes(n)
        assert parts is not None
        if (arrows and n.label == FORALL and binder_type(n.children[0]) is not None
                and (name := bound_name(n.children[0])) is not None
                and name not in _free_cached(n.children[1])):
            # Lean's `T → body`: the binder is dropped, the body keeps the outer levels
            kids = emit(ARROW, parent)
            typ = binder_type(n.children[0])
            stack.extend([("n", n.children[1], kids), ("n", typ, kids)])
            continue
        kids = emit(n.label, parent)
        todo: list[tuple] = []
        opened: list[str] = []
        next_level = depth[0]
        for child, bound, is_binder in parts:
            if bound == _AFTER:
                todo += [("q", opened), ("n", child, kids)]
                opened = []
                continue
            if is_binder:
                todo.append(("b", child, kids, next_level))
            else:
                todo.append(("n", child, kids))
            if bound:
                todo.append(("p", bound))
                opened = opened + bound
                next_level += len(bound)
        if opened:
            todo.append(("q", opened))
        stack.extend(reversed(todo))
    return labels, adj


def _emit_binder(binder: Node, parent: list[int], first: int,
                 emit: Callable[[str, list[int]], list[int]], stack: list[tuple]) -> None:
    """A binder child: its names become ``#first+1``, ``#first+2``…; its type stays outside."""
    if not binder_names(binder):
        stack.append(("n", binder, parent))
        return
    if binder.is_leaf:
        emit(f"{_CANON_PREFIX}{first + 1}", parent)
        return
    if is_pattern(binder) or is_match_pattern(binder):
        stack.append(("n", renamed_pattern(binder, first)[0], parent))
        return
    kids = emit(binder.label, parent)
    todo: list[tuple] = []
    k = first
    typed = binder_type(binder) is not None
    for c in binder.children[:-1] if typed else binder.children:
        if c.is_leaf and usable_name(c.label):
            k += 1
            todo.append(("l", f"{_CANON_PREFIX}{k}", kids))
        elif typed and not c.is_leaf and is_pattern(c):
            renamed, k = renamed_pattern(c, k)
            todo.append(("n", renamed, kids))
        else:
            todo.append(("n", c, kids))
    if typed:
        todo.append(("n", binder.children[-1], kids))
    stack.extend(reversed(todo))


def canonical(node: Node, env: Mapping[str, str] | None = None, level: int = 0, *,
              arrows: bool = True) -> Node:
    """Alpha-canonical form: bound names → ``#level``; see :func:`canonical_flat`."""
    return unflatten(canonical_flat(node, env, level, arrows=arrows))


def canonicalize(node: Node) -> Node:
    """Bound variables renamed ``#1, #2, …`` by level, so alpha-equivalent trees are equal.

    The tree's shape is kept (no ``∀`` → ``→`` rewriting): this is ``ted --canonical-names``.
    """
    return canonical(node, arrows=False)
