"""Definitional hypotheses substituted away: Lean's ``subst`` (and ``funext`` for functions).

``∀ (s : ℕ), s = ∑ k ∈ Icc 1 9, k → s % 7 = 3`` and ``(∑ k ∈ Icc 1 9, k) % 7 = 3`` are the same
statement: a variable defined by a hypothesis ``x = e`` (or ``e = x``) with ``x`` not free in
``e`` can be replaced by its definition and the hypothesis dropped — ``forall_eq``/``forall_eq'``
(Lean core Init/PropLemmas.lean: ``(∀ a, a = a' → p a) ↔ p a'``) once the hypothesis is moved
next to its binder (``forall_comm``/``imp`` reordering, sound when nothing between depends on
the variable — checked below). A function defined pointwise, ``∀ x, f x = e``, is replaced by
``fun x => e`` (``funext``: Lean core Init/Core.lean), its applications beta-reduced.

Refused (never substituted) when the substitution could change the statement:

* the variable occurs in a binder's type on the spine (a dependent type: ``(h : Fin x)``), or in
  its own definition;
* the definition mentions a variable bound on the spine between the two (it would leave its
  scope once the variable's binder is gone);
* the value cannot be put where the variable was with the same type: where the hypothesis
  elaborates it at the variable's type as a leaf of that type (a constant application, a ``∑``,
  a variable) it goes in as written; a coerced value goes in as ``((e : U) : T)`` and any
  other (an operator tree, a numeral: their type comes from the context) as ``(e : T)``, the
  type ascribed (Lean core ``Elab/Extra.lean``: an ascription is a ``binop%`` leaf elaborated
  at its type), so casts and truncating arithmetic stay where the hypothesis had them.
"""

from __future__ import annotations

from collections.abc import Iterator

from transted.budget import Budget
from transted.pipeline.opt.elaborate import Elaboration, NodeType
from transted.pipeline.opt.elaborate.operators import is_arithmetic_operator
from transted.pipeline.opt.elaborate.types import Ty, Type_
from transted.pipeline.opt.labels import (
    APP,
    ARROW,
    ASCRIPTION,
    COE,
    EQ,
    FORALL,
    FUN,
    NEG,
    TYPED_BINDER,
)
from transted.pipeline.opt.node import Node
from transted.pipeline.opt.scope import binder_names, binder_type, bound_name, free_names, head_name
from transted.pipeline.opt.substitution import substitute
from transted.pipeline.search.elaborated import elaborated_side
from transted.pipeline.search.pattern import Path, positions
from transted.pipeline.search.providers.base import Move
from transted.pipeline.search.scalars import is_numeral
from transted.pipeline.search.state import State

__all__ = ["subst_moves", "substituted"]


def subst_moves(state: State, budget: Budget | None = None) -> Iterator[Move]:
    """One move per definitional hypothesis of either side (see the module docstring); the walk
    over the tree's positions stops when ``budget`` (the pair's work and deadline) is spent."""
    for side in ("lhs", "rhs"):
        tree: Node = getattr(state, side)
        if not _has_candidate(tree):
            continue
        elaboration = elaborated_side(tree, state.local_types())
        for path, node in positions(tree):
            if budget is not None and budget.spent():
                return
            if node.label != FORALL or len(node.children) != 2:
                continue
            new = substituted(node, path, elaboration)
            if new is None:
                continue
            name = bound_name(node.children[0])
            yield Move("forall_eq", f"simp only [forall_eq, forall_eq'] -- subst {name}",
                       state.rewritten(side, path, new), approximate=True)


def _has_candidate(tree: Node) -> bool:
    return any(n.label == FORALL for n in tree.preorder()) and any(
        n.label == EQ for n in tree.preorder())


def substituted(node: Node, path: Path, elaboration: Elaboration) -> Node | None:
    """``∀ x, …`` at ``path`` with ``x``'s defining hypothesis substituted away, or None."""
    binder, body = node.children
    x = bound_name(binder)
    if x is None:
        return None
    spine = _spine(body, path + (1,))
    for j, (kind, item, item_path) in enumerate(spine):
        if kind != "→":
            continue
        value = _definition(x, item, item_path, binder, path, elaboration)
        if value is None or not _admissible(x, value[0], spine, j):
            continue
        return _rebuild(spine, j, x, value[1], elaboration)
    return None


_Item = tuple[str, Node, Path]
"""``("∀", binder, path)`` or ``("→", antecedent, path)``, then ``("⊢", conclusion, path)``."""


def _spine(body: Node, at: Path) -> list[_Item]:
    out: list[_Item] = []
    while len(body.children) == 2 and body.label in (FORALL, ARROW):
        kind = "∀" if body.label == FORALL else "→"
        out.append((kind, body.children[0], at + (0,)))
        body, at = body.children[1], at + (1,)
    out.append(("⊢", body, at))
    return out


def _definition(x: str, hypothesis: Node, at: Path, binder: Node, binder_path: Path,
                elaboration: Elaboration) -> tuple[Node, Node] | None:
    """``(e, value)`` when ``hypothesis`` defines ``x`` as ``e`` (``value``: ``e`` as it goes in
    for ``x``), for a variable or (``∀ y, x y = e``) a function."""
    if hypothesis.label == EQ and len(hypothesis.children) == 2:
        for side in (0, 1):
            lhs, e = hypothesis.children[side], hypothesis.children[1 - side]
            if lhs.is_leaf and lhs.label == x and x not in free_names(e):
                value = _value(e, elaboration.nodes.get(at + (1 - side,)),
                               _declared(binder, binder_path, elaboration))
                return (e, value) if value is not None else None
        return None
    return _function_definition(x, hypothesis, at, elaboration)


def _function_definition(f: str, hypothesis: Node, at: Path, elaboration: Elaboration
                         ) -> tuple[Node, Node] | None:
    """``∀ y, f y = e`` (one parameter, its type known): ``fun (y : A) => e``."""
    if hypothesis.label != FORALL or len(hypothesis.children) != 2:
        return None
    param, node = hypothesis.children
    y = bound_name(param)
    typ = _declared(param, at, elaboration)
    if y is None or not _simple(typ) or node.label != EQ or len(node.children) != 2:
        return None
    assert isinstance(typ, Ty)
    applied, e = node.children
    if (head_name(applied.label, 1) != f or len(applied.children) != 1
            or applied.children[0] != Node(y) or f in free_names(e)):
        return None
    return e, Node(FUN, (Node(TYPED_BINDER, (Node(y), Node(typ.head))), e))


def _declared(binder: Node, at: Path, elaboration: Elaboration) -> Type_ | None:
    info = elaboration.nodes.get(at + ((0,) if binder.is_leaf else (0, 0)))
    return info.type if info is not None else None


def _value(e: Node, info: NodeType | None, declared: Type_ | None) -> Node | None:
    if info is None or not _simple(info.type) or not _simple(declared):
        return None
    assert isinstance(info.type, Ty) and isinstance(declared, Ty)
    if info.coerced_to is not None:
        if info.coerced_to != declared:
            return None
        return Node(ASCRIPTION, (Node(ASCRIPTION, (e, Node(info.type.head))),
                                 Node(declared.head)))
    if info.type != declared:
        return None
    if is_arithmetic_operator(e.label) or is_numeral(e) or e.label in (COE, NEG):
        return Node(ASCRIPTION, (e, Node(declared.head)))
    return e


def _simple(t: Type_ | None) -> bool:
    return isinstance(t, Ty) and not t.args and t.head not in ("Prop", "Sort")


def _admissible(x: str, e: Node, spine: list[_Item], j: int) -> bool:
    between = set()
    for kind, item, _ in spine[:j]:
        if kind == "∀":
            between.update(binder_names(item))
    if free_names(e) & between:
        return False
    for kind, item, _ in spine:
        if kind == "∀" and x in binder_names(item):
            return False  # shadowed: a later binder of the same name
        typ = binder_type(item) if kind == "∀" else None
        if typ is not None and x in free_names(typ):
            return False
    return True


def _rebuild(spine: list[_Item], j: int, x: str, value: Node, elaboration: Elaboration
             ) -> Node:
    """The spine without the hypothesis, then ``x := value`` in one capture-avoiding
    substitution (a binder after the hypothesis that would capture a name of ``value`` is
    renamed), and a function's applications beta-reduced with their arguments ascribed."""
    out = spine[-1][1]
    for i in range(len(spine) - 2, -1, -1):
        if i != j:
            kind, item, _ = spine[i]
            out = Node(FORALL if kind == "∀" else ARROW, (item, out))
    out = substitute(out, x, value)
    return _beta_ascribed(out) if value.label == FUN else out


def _beta_ascribed(node: Node) -> Node:
    """``(fun (y : A) => e) a`` → ``e[y := (a : A)]`` (``a`` as is when it is a variable):
    the argument keeps the parameter's type wherever ``e`` puts it."""
    if node.is_leaf:
        return node
    kids = tuple(_beta_ascribed(c) for c in node.children)
    if node.label == APP and len(kids) == 2 and kids[0].label == FUN:
        binder, body = kids[0].children
        name, typ, arg = bound_name(binder), binder_type(binder), kids[1]
        if name is not None:
            if typ is not None and not (arg.is_leaf and not is_numeral(arg)):
                arg = Node(ASCRIPTION, (arg, typ))
            return _beta_ascribed(substitute(body, name, arg))
    return node if kids == node.children else node.with_children(kids)
