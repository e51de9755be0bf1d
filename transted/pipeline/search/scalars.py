"""Which number type an arithmetic subterm has, when that is certain from the binders.

Type-guarded rules (``add_comm`` needs a commutative type, ``sub_eq_add_neg`` a ring,
``div_eq_mul_inv`` a field) must not fire on a matrix or a group element. Offline we know
types only from binder annotations (``∀ (x : ℝ)``, ``fun (n : ℕ) => …``, the goal's locals).
We mirror Lean's ``binop%``/``binrel%`` elaborator: the operands of a tree of ``+ - * / %``,
unary ``-``, ``⁻¹``, ``^`` (base) and of the relations ``= ≠ < ≤ > ≥`` are elaborated at one
common type, the largest of the leaves' types (coercions are inserted at the leaves). So the
*region* around a subterm has type T ∈ {ℕ, ℤ, ℚ, ℝ, ℂ} when every leaf is a numeral, a
coercion ``↑x``, or has a declared type among those, and at least one has one; any other
leaf (an opaque function, an untyped variable) makes the type unknown and the rule is not
applied. Unknown is always the safe answer.
"""

from __future__ import annotations

import re
from collections.abc import Iterator, Mapping

from transted.pipeline.opt.labels import (
    ADD,
    ARROW,
    ASCRIPTION,
    COE,
    DIV,
    EQ,
    GE,
    GT,
    INV,
    LE,
    LT,
    MOD,
    MUL,
    NE,
    NEG,
    POW,
    SUB,
    application,
    prefix,
)
from transted.pipeline.opt.node import Node
from transted.pipeline.opt.scope import (
    binder_names,
    binder_type,
    body_index,
    bound_name,
    has_pattern,
)
from transted.pipeline.search.pattern import Path

__all__ = ["SCALARS", "region_type", "instance_type", "env_at", "ScopeAt", "is_numeral",
           "term_type"]

SCALARS = ("ℕ", "ℤ", "ℚ", "ℝ", "ℂ")
"""Number types in coercion order (each coerces into the later ones)."""

_OPS = {ADD, SUB, MUL, DIV, MOD, NEG, INV}
_RELS = {EQ, NE, LT, LE, GT, GE}
_NUMERAL = re.compile(r"^[0-9]+(\.[0-9]+)?$")
_REAL_CONSTANTS = {"π", "Real.pi"}
_REAL_FUNCTIONS = {prefix("√")} | {application(f, 1) for f in ("Real.sqrt", "Real.exp",
                                                                 "Real.log", "Real.sin",
                                                                 "Real.cos")}

Env = Mapping[str, Node | None]


def is_numeral(node: Node) -> bool:
    return node.is_leaf and bool(_NUMERAL.match(node.label))


def env_at(tree: Node, path: Path, outer: Env) -> dict[str, Node | None]:
    """Name → declared type of every variable in scope at ``path`` (binders + ``outer``)."""
    env = dict(outer)
    node = tree
    for i in path:
        if i == body_index(node.label) and len(node.children) >= 2:
            name = bound_name(node.children[0])
            if name is not None:
                env[name] = binder_type(node.children[0])
            elif has_pattern(node.children[0]):  # a pattern's names: bound, type not read
                env.update(dict.fromkeys(binder_names(node.children[0])))
        node = node.children[i]
    return env


class ScopeAt(Mapping[str, "Node | None"]):
    """:func:`env_at` computed at first look: most positions a rule is tried at do not match,
    and only a match reads the scope (measured: a tenth of a search's time went to scopes
    nobody read)."""

    __slots__ = ("_where", "_env")

    def __init__(self, tree: Node, path: Path, outer: Env):
        self._where = (tree, path, outer)
        self._env: dict[str, Node | None] | None = None

    def _scope(self) -> dict[str, Node | None]:
        if self._env is None:
            self._env = env_at(*self._where)
        return self._env

    def __getitem__(self, name: str) -> Node | None:
        return self._scope()[name]

    def get(self, name: str, default: object = None) -> object:  # type: ignore[override]
        return self._scope().get(name, default)

    def __contains__(self, name: object) -> bool:
        return name in self._scope()

    def __iter__(self) -> Iterator[str]:
        return iter(self._scope())

    def __len__(self) -> int:
        return len(self._scope())


def region_type(tree: Node, path: Path, env: Env) -> str | None:
    """The number type of the arithmetic region containing the node at ``path``, or None."""
    root = path
    while root:
        parent = _node_at(tree, root[:-1])
        if not _in_region(parent, root[-1]):
            break
        root = root[:-1]
    leaf_types: list[str] = []
    stack = [_node_at(tree, root)]
    while stack:
        node = stack.pop()
        if node.label in _OPS or node.label in _RELS:
            stack.extend(node.children)
        elif node.label == POW:
            stack.append(node.children[0])
        elif is_numeral(node) or node.label == COE:
            continue
        else:
            typ = _leaf_type(node, env)
            if typ is None:
                return None
            leaf_types.append(typ)
    if not leaf_types:
        return None
    return max(leaf_types, key=SCALARS.index)


def instance_type(tree: Node, path: Path, env: Env) -> str | None:
    """:func:`region_type` at ``path``, or at its first arithmetic/relation descendant."""
    node = _node_at(tree, path)
    stack: list[tuple[Path, Node]] = [(path, node)]
    while stack:
        p, n = stack.pop()
        if n.label in _OPS or n.label in _RELS or n.label == POW:
            return region_type(tree, p, env)
        stack.extend((p + (i,), c) for i, c in reversed(list(enumerate(n.children))))
    return None


def term_type(node: Node, env: Env) -> str | None:
    """The number type of ``node`` itself when its binder or an ascription declares it
    (a variable, ``(e : T)``, a known function of the reals, a local function applied);
    None when that is not certain."""
    return _leaf_type(node, env)


def _in_region(parent: Node, index: int) -> bool:
    if parent.label in _OPS or parent.label in _RELS:
        return True
    return parent.label == POW and index == 0


def _node_at(tree: Node, path: Path) -> Node:
    for i in path:
        tree = tree.children[i]
    return tree


def _leaf_type(node: Node, env: Env) -> str | None:
    if node.is_leaf:
        if node.label in _REAL_CONSTANTS and node.label not in env:
            return "ℝ"
        typ = env.get(node.label)
        return typ.label if typ is not None and typ.is_leaf and typ.label in SCALARS else None
    if node.label == ASCRIPTION:
        typ = node.children[1]
        return typ.label if typ.is_leaf and typ.label in SCALARS else None
    if node.label in _REAL_FUNCTIONS:
        return "ℝ"
    head = node.label.split(" ", 1)[0]
    if node.label == application(head, len(node.children)) and head in env:
        return _codomain(env[head], len(node.children))
    return None


def _codomain(typ: Node | None, arity: int) -> str | None:
    """``T`` for a function type ``A₁ → … → Aₙ → T`` applied to ``arity`` arguments."""
    for _ in range(arity):
        if typ is None or typ.label != ARROW:
            return None
        typ = typ.children[1]
    return typ.label if typ is not None and typ.is_leaf and typ.label in SCALARS else None
