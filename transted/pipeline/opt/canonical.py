"""The alpha-canonical form of operator trees, built on their binding structure (:mod:`.scope`).

The canonical form renames every bound variable to its de Bruijn *level* (``#1`` for the
outermost binder, counting the goal's local context first), so alpha-equivalent trees are equal
(§3.3: renaming is a transformation both ways). With ``arrows=True`` (the search) a typed ``∀``
whose name is unused is written ``T → body``, as Lean itself prints it: both are the same term.

The search gives every state it visits a canonical form, and most states differ from the one
they came from in one small subtree: :func:`spliced_flat` computes the new form from the old
one and the rewritten subtree alone, and says None whenever it cannot show that the result is
exactly what :func:`canonical_flat` would give (the caller then computes it in full).
Every walk here is iterative and linear in the tree size.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping

from transted.pipeline.opt.labels import ARROW, FORALL, THEOREM, application
from transted.pipeline.opt.node import Flat, Node, unflatten
from transted.pipeline.opt.pattern_binders import (
    CANON_PREFIX,
    is_match_pattern,
    is_pattern,
    renamed_pattern,
    usable_name,
)
from transted.pipeline.opt.scope import (
    AFTER_BODY,
    binder_names,
    binder_type,
    body_index,
    bound_name,
    free_names_cached,
    head_name,
    scope_parts,
)

__all__ = ["canonical", "canonical_flat", "canonicalize", "spliced_flat"]

_CANON_PREFIX = CANON_PREFIX


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
        parts = scope_parts(n)
        assert parts is not None
        if (arrows and n.label == FORALL and binder_type(n.children[0]) is not None
                and (name := bound_name(n.children[0])) is not None
                and name not in free_names_cached(n.children[1])):
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
            if bound == AFTER_BODY:
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


def spliced_flat(tree: Node, flat: Flat, path: tuple[int, ...], new: Node,
                 env: Mapping[str, str] | None = None, level: int = 0) -> Flat | None:
    """``canonical_flat(replace_at(tree, path, new), env, level)`` from ``flat``, which is
    ``canonical_flat(tree, env, level)``: only ``new`` is canonicalised, under the names in
    scope at ``path``, and spliced in.

    None (compute it in full) when the splice might differ: ``path`` ends at or runs through
    a binder's names or a pattern, or ``new`` uses a name bound above it that the subtree it
    replaces does not, or the reverse (a ``∀`` above could then turn into ``→`` or back).
    """
    labels, adj = flat
    names: dict[str, list[str]] = {k: [v] for k, v in (env or {}).items()}
    bound_above: set[str] = set()
    depth = level
    node, at, step = tree, 0, 0
    ancestors: list[int] = []  # flat indices of the nodes above the subtree
    while step < len(path):
        i = path[step]
        children, label = node.children, node.label
        if i >= len(children):
            return None
        # which names open before child i, mirroring scope_parts without building it
        if label == THEOREM:
            if len(children) < 2:
                return None
            opening = [name for c in children[:i] for name in binder_names(c)]
            is_binder = i < len(children) - 1
        else:
            idx = body_index(label)
            if idx is None:
                ancestors.append(at)
                node, at, step = children[i], adj[at][i], step + 1
                continue
            if not 0 < idx < len(children):
                return None
            if (label == FORALL and binder_type(children[0]) is not None
                    and (name := bound_name(children[0])) is not None
                    and name not in free_names_cached(children[1])):
                if i != 1:  # the arrow's type is the binder's: a binder is not spliced into
                    return None
                bound_above.add(name)
                ancestors.append(at)
                node, at, step = children[1], adj[at][1], step + 1  # `T → body`: nothing bound
                continue
            opening = binder_names(children[0]) if i == idx else []  # the body only
            is_binder = i == 0
        bound_above.update(opening)
        for name in opening:
            depth += 1
            names.setdefault(name, []).append(f"{_CANON_PREFIX}{depth}")
        child = children[i]
        ancestors.append(at)
        at = adj[at][i]
        if is_binder and binder_names(child):
            # into a declared binder's type only: `(x y : T)`'s `T` is read before x, y open
            typ = binder_type(child)
            if (typ is None or step + 1 >= len(path) or path[step + 1] != len(child.children) - 1
                    or is_pattern(child) or is_match_pattern(child)
                    or any(not c.is_leaf for c in child.children[:-1])):
                return None
            ancestors.append(at)
            node, at, step = typ, adj[at][-1], step + 2
            continue
        node, step = child, step + 1
    if free_names_cached(node) & bound_above != free_names_cached(new) & bound_above:
        return None
    end, stack = at + 1, list(adj[at])
    while stack:  # the old subtree is the preorder range [at, end)
        k = stack.pop()
        end = max(end, k + 1)
        stack.extend(adj[k])
    scope = {k: v[-1] for k, v in names.items() if v}
    new_labels, new_adj = canonical_flat(new, scope, depth)
    shift = len(new_labels) - (end - at)
    # flats are read-only: lists that keep their indices are shared with ``flat``
    out_adj = adj[:at]
    for a in ancestors:  # before the subtree, only its ancestors point past it
        out_adj[a] = [k + shift if k >= end else k for k in adj[a]]
    if at:
        new_adj = [[k + at for k in kids] if kids else kids for kids in new_adj]
    out_adj += new_adj
    out_adj += (adj[end:] if not shift else
                [[k + shift for k in kids] if kids else kids for kids in adj[end:]])
    return labels[:at] + new_labels + labels[end:], out_adj
