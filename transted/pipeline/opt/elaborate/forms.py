"""Notations that elaborate as applications of a fixed function with a fixed argument order.

Each follows the Lean/Mathlib definition behind the notation (docs/ELABORATION.md):

* ``↑e``: ``e`` is elaborated alone, then coerced to the type expected here; with none in sight
  the target is a metavariable that the enclosing ``binop%`` tree fills (Lean postpones it);
* ``if c then t else e`` is ``ite c t e`` (``Init/Notation.lean``, ``termIfThenElse``):
  ``ite {α} (c : Prop) [Decidable c] (t e : α)``, so an expected type reaches both branches
  (``propagateExpectedType``), else the first branch fixes ``α`` and the second is coerced;
* ``∑ x ∈ s, f`` is ``Finset.sum s (fun x ↦ f)`` (Mathlib ``BigOperators/Group/Finset/Defs``,
  ``macro_rules (kind := bigsum)``): ``s`` first (its element type types ``x``), then the body
  with the expected type of the whole sum, if any;
* ``a ∣ b`` is plain ``Dvd.dvd a b`` (``infix:50 " ∣ "``, not ``binrel%``): the first argument
  fixes the type, the second is coerced to it (or fails: ``(n : ℕ) ∣ (m : ℤ)``);
* ``a ∈ s`` is ``Membership.mem s a`` (``notation:50 a:50 " ∈ " b:50 => Membership.mem b a``):
  the collection fixes the element type (an outParam of ``Membership``);
* ``{x | p}`` / ``{x : T | p}`` is ``setOf fun x ↦ p`` (Mathlib ``Data/Set/Defs.lean``,
  ``elabSetBuilder``; ``setOf {α} (p : α → Prop) : Set α``): a ``Set`` of the binder's type.
"""

from __future__ import annotations

from transted.pipeline.opt.elaborate.result import Path
from transted.pipeline.opt.elaborate.state import ElaborationState, Env
from transted.pipeline.opt.elaborate.types import PROP, Ty, Type_, coe_known, show
from transted.pipeline.opt.labels import AND
from transted.pipeline.opt.node import SLOT, Node
from transted.pipeline.opt.scope import binder_names

__all__ = ["BIG", "LAMBDA", "coe", "ite", "big", "dvd", "mem", "lam", "set_builder"]

S = SLOT
BIG = {f"∑ {S} ∈ {S}, {S}": "AddCommMonoid", f"∏ {S} ∈ {S}, {S}": "CommMonoid"}
LAMBDA = f"fun {S} => {S}"


def coe(el: ElaborationState, node: Node, path: Path, env: Env, expected: Type_ | None) -> Type_:
    inner = el.elab(node.children[0], (*path, 0), env, None)
    target: Type_ = el.known(expected) or el.metas.fresh()
    el.arrows.append(((*path, 0), inner, target))
    return target


def ite(el: ElaborationState, node: Node, path: Path, env: Env, expected: Type_ | None) -> Type_:
    cond, then, other = node.children
    el.ensure((*path, 0), el.elab(cond, (*path, 0), env, PROP), PROP)
    alpha: Type_ = el.known(expected) or el.metas.fresh()
    for i, branch in ((1, then), (2, other)):
        el.ensure((*path, i), el.elab(branch, (*path, i), env, alpha), alpha)
    return alpha


def big(el: ElaborationState, node: Node, path: Path, env: Env, expected: Type_ | None) -> Type_:
    binder, collection, body = node.children
    coll = el.metas.zonk(el.elab(collection, (*path, 1), env, None))
    elem: Type_ = el.metas.fresh()
    if isinstance(coll, Ty) and coll.head == "Finset":
        elem = coll.args[0]
    else:
        el.issue("unsupported", (*path, 1), f"big operator over {show(coll)} "
                 "(only a Finset is modelled)")
    inner = el.bind(binder, (*path, 0), env)
    for name in binder_names(binder):
        el.ensure((*path, 0), inner[name], elem)
    result = el.elab(body, (*path, 2), inner, el.known(expected))
    el.ensure((*path, 2), result, el.known(expected))
    out = el.known(expected) or result
    el.require(BIG[node.label], out, path)
    return out


def dvd(el: ElaborationState, node: Node, path: Path, env: Env) -> Type_:
    alpha = el.metas.fresh()
    for i, c in enumerate(node.children):
        el.ensure((*path, i), el.elab(c, (*path, i), env, alpha), alpha)
    el.require("Dvd", alpha, path)
    return PROP


def mem(el: ElaborationState, node: Node, path: Path, env: Env) -> Type_:
    """``a ∈ s`` is ``Membership.mem s a`` and ``Membership``'s element type is an outParam
    (Lean core ``class Membership (α : outParam (Type u)) (γ : Type v)``): the collection's type
    fixes the element's (``Set α``/``Finset α``: ``α``; ``Subring R``: ``R`` through
    ``SetLike``, read from the index). When the tables cannot say, the element's type is left
    *uninferred* (Lean would take it from the instance), never defaulted: a numeral there is
    not ℕ."""
    elem_node, coll_node = node.children
    coll = el.metas.zonk(el.elab(coll_node, (*path, 1), env, None))
    elem: Type_ | None = None
    if isinstance(coll, Ty) and coll.head in ("Finset", "Set") and coll.args:
        elem = coll.args[0]
    elif isinstance(coll, Ty) and el.tables.classes is not None:
        elem = el.tables.classes.element_type(coll)
    if elem is None:
        closed = isinstance(coll, Ty) and coe_known(coll, coll) is False
        el.issue("missing-instance" if closed else "undecided-instance", (*path, 1),
                 f"membership in {show(coll)}")
        stuck = el.metas.fresh("stuck")
        el.binder_metas.append(((*path, 0), f"the element of {show(coll)}", stuck))
        el.ensure((*path, 0), el.elab(elem_node, (*path, 0), env, None), stuck)
        return PROP
    el.ensure((*path, 0), el.elab(elem_node, (*path, 0), env, elem), elem)
    return PROP


def lam(el: ElaborationState, node: Node, path: Path, env: Env, expected: Type_ | None) -> Type_:
    """``fun x => body``: with an expected function type its domain types ``x`` and its
    codomain is expected of the body (``elabFunBinders``); else ``x`` is a metavariable."""
    binder, body = node.children
    goal = el.known(expected)
    inner = el.bind(binder, (*path, 0), env)
    names = binder_names(binder)
    if goal is not None and goal.head == "→" and len(names) == 1:
        el.ensure((*path, 0), inner[names[0]], goal.args[0])
    codomain = goal.args[1] if goal is not None and goal.head == "→" else None
    result = el.elab(body, (*path, 1), inner, codomain)
    el.ensure((*path, 1), result, codomain)
    out: Type_ = codomain or result
    for name in reversed(names):
        out = Ty("→", (inner[name], out))
    return out


_MEMBERSHIP = (f"{S} ∈ {S}", f"{S} ∉ {S}")


def set_builder(el: ElaborationState, node: Node, path: Path, env: Env,
                expected: Type_ | None) -> Type_:
    """``{x | p}``, ``{x : T | p}``: ``setOf fun x ↦ p : Set α`` with ``α`` the binder's type,
    written or inferred from ``p`` as a ``fun`` binder's is (an untyped binder nothing settles
    is ``uninferred`` at the end). Mathlib's ``setBuilder`` syntax also has ``Finset``
    elaborators (``Data/Fintype/Defs.lean`` ``elabFinsetBuilderSetOf``, ``Data/Finset/Filter.lean``
    ``elabFinsetBuilderSep``): ``Finset.filter`` when the expected type is ``Finset _``, and
    ``{x ∈ s | p}``/``{x ∉ s | p}`` when ``s`` is a ``Finset``; the parser writes ``{x ∈ s | p}``
    as ``{x | x ∈ s ∧ p}``, so a body of that shape over a collection not known to be a ``Set``
    is not typed (an issue), nor is a ``Finset`` expected type."""
    binder, body = node.children
    goal = el.known(expected)
    names = binder_names(binder)
    if (goal is not None and goal.head == "Finset") or len(names) != 1:
        why = (f"set-builder against {show(goal)} (Finset.filter)" if goal is not None
               and goal.head == "Finset" else f"set-builder binder {binder}")
        el.issue("unsupported", path, f"{why} is not modelled")
        inner = el.bind(binder, (*path, 0), env)
        el.elab(body, (*path, 1), inner, PROP)
        return el.metas.fresh()
    inner = el.bind(binder, (*path, 0), env)
    elem = inner[names[0]]
    if goal is not None and goal.head == "Set" and not el.metas.unify(elem, goal.args[0]):
        # `propagateExpectedType` fixes `α` before the `fun` is elaborated: a written binder
        # type that differs is Lean's problem to report; the model does not say how
        el.issue("unsupported", (*path, 0), f"set-builder binder of type "
                 f"{show(el.metas.zonk(elem))} where {show(goal)} is expected")
    el.ensure((*path, 1), el.elab(body, (*path, 1), inner, PROP), PROP)
    if goal is None or goal.head != "Set":
        _finset_filter_reading(el, names[0], body, path)
    return Ty("Set", (elem,))


def _finset_filter_reading(el: ElaborationState, name: str, body: Node, path: Path) -> None:
    """``{x | x ∈ s ∧ p}`` may be the parser's form of ``{x ∈ s | p}``, which Lean elaborates
    as ``Finset.filter`` when ``s`` is a ``Finset``: typed only when ``s`` is a ``Set``."""
    if body.label != AND or body.children[0].label not in _MEMBERSHIP:
        return
    member, _coll = body.children[0].children
    if not (member.is_leaf and member.label == name):
        return
    coll = el.metas.zonk(el.types.get((*path, 1, 0, 1), el.metas.fresh()))
    if not (isinstance(coll, Ty) and coll.head == "Set"):
        el.issue("unsupported", (*path, 1, 0, 1), f"{{{name} ∈ s | …}} over {show(coll)}: "
                 "a Finset.filter when s is a Finset, a Set otherwise; not decided here")
