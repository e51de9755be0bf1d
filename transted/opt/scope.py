"""Bound variables of operator trees: which labels bind, which children are binders, renaming.

The one home of binding structure; the parser builds binder children with :func:`binder_node`,
and ``ted --canonical-names``, the search's duplicate check and its TED calls all read trees
through this module.

A binding node is recognised from its label (docs/ARCHITECTURE.md, "Labels"): the label starts
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

from transted.opt.node import SLOT, Flat, Node, unflatten

__all__ = ["BINDER_HEADS", "ARROW", "FORALL", "body_index", "is_binding", "binder_names",
           "bound_name", "binder_type", "with_bound_name", "binder_node", "head_name",
           "relabel_head", "free_names", "canonical", "canonical_flat", "canonicalize"]

BINDER_HEADS = ("∀ ", "∃ ", "∃! ", "fun ", "∑ ", "∏ ", "∑' ", "∏' ", "⋃ ", "⋂ ", "⨆ ", "⨅ ",
                "∫ ", "let ", "have ", f"{{{SLOT} | ", f"{{{SLOT} // ")
"""Label prefixes of binding notations (the parser's binder notations, ``transted.opt.binders``)."""
BODY_SEPARATORS = (", ", "=> ", "| ", "// ", "; ")
ARROW = f"{SLOT} → {SLOT}"
FORALL = f"∀ {SLOT}, {SLOT}"
THEOREM = "theorem"
_BRACKETS = {"(": ")", "{": "}", "⦃": "⦄", "[": "]"}
_CANON_PREFIX = "#"
_AFTER = ["\0after"]  # marks children after the body (outside the scope)

@lru_cache(maxsize=4096)
def body_index(label: str) -> int | None:
    """Index of the body child of a binding label, or None when the label binds nothing."""
    if not label.startswith(BINDER_HEADS):
        return None
    slots = label.split(SLOT)
    for i in range(1, len(slots)):
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


def _usable(name: str) -> bool:
    return name not in ("_", "") and not name.startswith("?")


def binder_names(binder: Node) -> list[str]:
    """Names a binder child introduces (leaf, typed, bracketed or grouped); none for ``_``."""
    if binder.is_leaf:
        return [binder.label] if _usable(binder.label) else []
    k = _typed_arity(binder.label)
    if k is not None and k == len(binder.children) - 1:
        return [c.label for c in binder.children[:-1] if c.is_leaf and _usable(c.label)]
    if binder.label == " ".join([SLOT] * len(binder.children)) and all(
            c.is_leaf for c in binder.children):
        return [c.label for c in binder.children if _usable(c.label)]
    return []


def bound_name(binder: Node) -> str | None:
    """The one name a single-name binder child introduces; None for ``_``, groups, instances."""
    names = binder_names(binder)
    if len(names) != 1 or (not binder.is_leaf and len(binder.children) > 2):
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
    return Node(_head_label(new, len(node.children)), node.children)


def _head_label(head: str, arity: int) -> str:
    return f"{head} {' '.join([SLOT] * arity)}"


def _scopes(node: Node) -> list[tuple[Node, list[str], bool]] | None:
    """Children of a binding node in order: ``(child, names bound after it, is_binder)``.

    ``names`` are pushed after the child is visited and popped at the end of the node; None
    when ``node`` binds nothing.
    """
    if node.label == THEOREM and len(node.children) >= 2:
        out = [(c, binder_names(c), True) for c in node.children[:-1]]
        return out + [(node.children[-1], [], False)]
    if not is_binding(node):
        return None
    idx = body_index(node.label)
    binder = node.children[0]
    out = [(binder, [], True)]
    out += [(c, [], False) for c in node.children[1:idx]]
    names = binder_names(binder)
    out[-1] = (out[-1][0], names, out[-1][2])  # names open just before the body
    out.append((node.children[idx], [], False))
    return out + [(c, _AFTER, False) for c in node.children[idx + 1:]]


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


def _binders_used(node: Node) -> list[bool]:
    """For each binding node in preorder: is the name of its binder used in its scope?"""
    used: list[bool] = []
    env: dict[str, list[int]] = {}
    # tasks: ("n", node) visit; ("p", names, serial) push; ("q", names) pop
    stack: list[tuple] = [("n", node)]
    while stack:
        task = stack.pop()
        if task[0] == "p":
            for name in task[1]:
                env.setdefault(name, []).append(task[2])
            continue
        if task[0] == "q":
            for name in task[1]:
                env[name].pop()
            continue
        n = task[1]
        if n.is_leaf:
            hit = env.get(n.label)
            if hit:
                used[hit[-1]] = True
            continue
        head = head_name(n.label, len(n.children)) if n.label[-1] == ">" else None
        if head is not None and env.get(head):
            used[env[head][-1]] = True
        parts = _scopes(n)
        if parts is None:
            stack.extend(("n", c) for c in reversed(n.children))
            continue
        serial = len(used)
        used.append(False)
        todo: list[tuple] = []
        opened: list[str] = []
        for child, names, is_binder in parts:
            if names == _AFTER:
                todo.append(("q", opened))
                opened = []
                todo.append(("n", child))
                continue
            if is_binder:
                typ = binder_type(child)
                if typ is not None:
                    todo.append(("n", typ))
                elif not binder_names(child) and not child.is_leaf:
                    todo.append(("n", child))
            else:
                todo.append(("n", child))
            if names:
                todo.append(("p", names, serial))
                opened = opened + names
        if opened:
            todo.append(("q", opened))
        stack.extend(reversed(todo))
    return used


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
    used = _binders_used(node) if arrows else None
    names: dict[str, list[str]] = {k: [v] for k, v in (env or {}).items()}
    labels: list[str] = []
    adj: list[list[int]] = []
    depth = [level]
    serial = 0

    def emit(label: str, parent: list[int] | None) -> list[int]:
        if parent is not None:
            parent.append(len(labels))
        labels.append(label)
        kids: list[int] = []
        adj.append(kids)
        return kids

    # tasks: ("n", node, parent) | ("b", binder, parent, first_level) | ("p", names) | ("q", k)
    stack: list[tuple] = [("n", node, None)]
    while stack:
        task = stack.pop()
        kind = task[0]
        if kind == "p":
            for name in task[1]:
                depth[0] += 1
                names.setdefault(name, []).append(f"{_CANON_PREFIX}{depth[0]}")
            continue
        if kind == "q":
            for name in task[1]:
                names[name].pop()
                depth[0] -= 1
            continue
        if kind == "l":
            emit(task[1], task[2])
            continue
        if kind == "b":
            _emit_binder(task[1], task[2], task[3], emit, stack)
            continue
        n, parent = task[1], task[2]
        if n.is_leaf:
            hit = names.get(n.label)
            emit(hit[-1] if hit else n.label, parent)
            continue
        head = head_name(n.label, len(n.children)) if n.label[-1] == ">" else None
        hit = names.get(head) if head is not None else None
        parts = _scopes(n)
        if parts is None:
            kids = emit(_head_label(hit[-1], len(n.children)) if hit else n.label, parent)
            stack.extend(("n", c, kids) for c in reversed(n.children))
            continue
        mine = serial
        serial += 1
        if (used is not None and n.label == FORALL and not used[mine]
                and bound_name(n.children[0]) is not None
                and binder_type(n.children[0]) is not None):
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
                 emit: Callable[[str, list[int] | None], list[int]], stack: list[tuple]) -> None:
    """A binder child: its names become ``#first+1``, ``#first+2``…; its type stays outside."""
    if not binder_names(binder):
        stack.append(("n", binder, parent))
        return
    if binder.is_leaf:
        emit(f"{_CANON_PREFIX}{first + 1}", parent)
        return
    kids = emit(binder.label, parent)
    todo: list[tuple] = []
    k = first
    typed = binder_type(binder) is not None
    for c in binder.children[:-1] if typed else binder.children:
        if c.is_leaf and _usable(c.label):
            k += 1
            todo.append(("l", f"{_CANON_PREFIX}{k}", kids))
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
