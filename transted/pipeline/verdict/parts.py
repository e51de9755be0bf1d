"""The shape of a statement for the residual: parts, universes, one renaming of its variables.

A proposition-form statement ``∀ binders, hypotheses → conclusion`` splits into its parts
(:func:`transted.pipeline.opt.parts.statement_parts`, with each part's path in the tree). Before two
statements are compared:

* ``Type u``/``Sort u`` with a universe name used once, and ``Type _``, become ``Type*``/``Sort*``
  (:func:`normalise_universes`): each is one fresh universe variable;
* the candidate's variables are renamed by **one bijection** onto the reference's
  (:func:`bijection`): the same name first, then among binders of the same type by where the
  variables are used;
* every part is written with the statement's variables as ``#name`` and every inner bound
  variable as its de Bruijn level ``#k`` (:func:`canonical_parts`), so alpha-equivalent parts are
  equal and every bound variable is recognisable as one (``#``).
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Mapping
from dataclasses import replace

from transted.assignment import min_cost_assignment
from transted.pipeline.opt.canonical import canonical
from transted.pipeline.opt.labels import SLOT
from transted.pipeline.opt.node import Node
from transted.pipeline.opt.parts import Part, StatementParts, statement_parts
from transted.pipeline.opt.scope import binder_names, binder_type
from transted.pipeline.verdict.edit_kinds import UNIVERSE

__all__ = ["normalise_universes", "bijection", "canonical_parts", "binder_name"]


# -- trees -------------------------------------------------------------------------------------
def normalise_universes(tree: Node) -> Node:
    """``Type u``/``Sort u`` with a universe name used once in ``tree``, and ``Type _``, become
    ``Type*``/``Sort*`` (each is one fresh universe variable)."""
    uses: dict[str, int] = {}
    for node in tree.preorder():
        if node.label in (f"Type {SLOT}", f"Sort {SLOT}") and node.children[0].is_leaf:
            name = node.children[0].label
            uses[name] = uses.get(name, 0) + 1

    def fresh(node: Node) -> Node:
        if node.label in (f"Type {SLOT}", f"Sort {SLOT}") and node.children[0].is_leaf:
            name = node.children[0].label
            if name == "_" or (not name[0].isdigit() and uses.get(name) == 1):
                return Node(UNIVERSE if node.label.startswith("Type") else "Sort*")
        return node
    return _map(tree, fresh)


def _map(tree: Node, f: Callable[[Node], Node]) -> Node:
    """``f`` applied bottom-up (iterative: trees may be deep)."""
    done: dict[int, Node] = {}
    stack: list[tuple[Node, bool]] = [(tree, False)]
    while stack:
        node, expanded = stack.pop()
        if expanded:
            kids = tuple(done[id(c)] for c in node.children)
            done[id(node)] = f(Node(node.label, kids) if kids != node.children else node)
        else:
            stack.append((node, True))
            stack.extend((c, False) for c in node.children)
    return done[id(tree)]


def binder_name(part: Part) -> str | None:
    names = binder_names(part.node)
    return names[0] if len(names) == 1 else None


def _type_shape(part: Part, names: set[str]) -> str:
    """The binder's type with the statement's own variables blanked (for matching)."""
    ty = binder_type(part.node)
    if ty is None:
        return ""
    return str(canonical(ty, {n: "·" for n in names}, arrows=False))


def _uses(parts: list[Part] | tuple[Part, ...], names: set[str]) -> dict[str, Counter[tuple[str, int]]]:
    """Per variable, where it occurs: the multiset of (parent label, position) pairs."""
    out: dict[str, Counter[tuple[str, int]]] = {n: Counter() for n in names}
    stack: list[tuple[Node, str, int]] = [(p.node, p.kind, 0) for p in parts]
    while stack:
        node, parent, k = stack.pop()
        head = node.label.split(" ", 1)[0] if node.children else node.label
        if head in out:
            out[head][(parent, k)] += 1
        stack.extend((c, node.label, i) for i, c in enumerate(node.children))
    return out


def _difference(a: Counter[tuple[str, int]], b: Counter[tuple[str, int]]) -> int:
    return sum((a - b).values()) + sum((b - a).values())


_MISMATCH = 1e9
"""The cost of pairing two binders of different declared types: never, by structure."""
_NAME_TIE = 0.25
"""A pairing of two binders of different names costs this much more than one of the same name:
less than one differing use, so names only break ties of type and use."""
_ORDER_TIE = 1e-4
"""The last tie-break: binder order."""


def bijection(ref: StatementParts, cand: StatementParts) -> dict[str, str]:
    """Candidate variable → reference variable, one bijection, by structure first: among
    binders of the same declared type (the statement's own variables blanked out), a
    minimum-cost assignment over the differences of where the variables occur; the same name
    breaks ties of type and use, binder order the last ones. A candidate binder no binder of
    its type is left for keeps a reference binder of its own name if one is free (a changed
    type then shows as a type edit), else a fresh name (``x✝``). Any bijection is sound:
    renaming and reordering independent binders (``forall_swap``) give the same proposition,
    so the two sides coincide after it only if they are equivalent; matching by use finds the
    renaming when names changed roles (``{A : Type*} {B : Subring A}`` vs
    ``{B : Type*} (C : Subring B)``)."""
    rn = [binder_name(p) for p in ref.binders]
    cn = [binder_name(p) for p in cand.binders]
    free = [i for i, n in enumerate(rn) if n is not None]
    rest = [j for j, n in enumerate(cn) if n is not None]
    out: dict[str, str] = {}
    if free and rest:
        blank = {n for n in rn + cn if n is not None}
        rt = [_type_shape(p, blank) for p in ref.binders]
        ct = [_type_shape(p, blank) for p in cand.binders]
        ru = _uses([*ref.hypotheses, ref.conclusion, *ref.binders], {rn[i] for i in free})  # type: ignore[misc]
        cu = _uses([*cand.hypotheses, cand.conclusion, *cand.binders], {cn[j] for j in rest})  # type: ignore[misc]
        cost = [[_MISMATCH if rt[i] != ct[j] else
                 _difference(ru[rn[i]], cu[cn[j]]) + (0 if rn[i] == cn[j] else _NAME_TIE)  # type: ignore[index]
                 + abs(i - j) * _ORDER_TIE for j in rest] for i in free]
        for a, b in zip(*min_cost_assignment(cost), strict=True):
            if cost[a][b] < _MISMATCH:
                out[cn[rest[b]]] = rn[free[a]]  # type: ignore[index,assignment]
    taken = set(out.values())
    for name in cn:  # left over: the same name if free (its type edit shows), else fresh
        if name is not None and name not in out:
            out[name] = name if name in rn and name not in taken else f"{name}✝"
            taken.add(out[name])
    return out


def canonical_parts(tree: Node, env: Mapping[str, str]) -> StatementParts:
    """The parts with the statement's variables renamed by ``env`` (to ``#name``) and every
    inner bound variable by its de Bruijn level (``#k``): alpha-equivalent parts become equal,
    and every bound variable is marked ``#`` for :func:`~transted.pipeline.verdict.edit_kinds.label_kind`."""
    parts = statement_parts(tree)

    def canon(p: Part) -> Part:
        return replace(p, node=canonical(p.node, env, arrows=False))
    return StatementParts(tuple(canon(p) for p in parts.binders),
                          tuple(canon(p) for p in parts.hypotheses), canon(parts.conclusion))
