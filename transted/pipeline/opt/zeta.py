"""Zeta reduction of ``let``/``have`` in a statement: the body with the value put for the name.

Justification (Lean core):

* ``let x : T := v; b`` elaborates to ``Expr.letE x T v b`` (``Lean/Expr.lean``), and the
  kernel's definitional equality unfolds it to ``b[v/x]`` (zeta: ``whnfCore`` and
  ``isDefEq`` reduce ``letE`` by instantiating the body with the value);
* ``have x : T := v; b`` elaborates through the same ``elabLetDeclAux``
  (``Lean/Elab/Binders.lean``: ``elabHaveDecl`` is ``elabLetDeclCore … { nondep := true }``) to
  a non-dependent ``letE``; before that, to ``letFun v (fun x => b)`` (``Init/Prelude.lean``,
  ``letFun v f := f v``), beta-equal to the same ``b[v/x]``.

So the statement and its reduct are one proposition up to definitional equality (``Iff.rfl``).

What keeps the *text* faithful: Lean elaborates ``v`` at the written type
(``elabTermEnsuringType valStx type``) and the body sees ``x : T``; the raw ``v`` in the body
could elaborate otherwise (``let x : ℝ := 2; x / 3`` is not ``2 / 3`` over ℕ). So the value is
put as ``(v : T)`` — the ascription elaborates ``v`` against ``T`` exactly as the ``let`` does
(``elabTypeAscription``: ``elabTerm v T`` then ``ensureHasType``); a value of type ``Prop`` (a
proposition: its elaboration does not depend on where it stands), a value already ascribed
``T`` and a local declared of type ``T`` go in as written. Without a
written type, ``T`` is the elaboration's type of ``v`` when it is *settled*: no issue inside
``v``, no metavariable left, and nothing chosen by a default instance — otherwise (an untyped
numeral, whose type the body may still fix while ``x``'s type is a metavariable) abstain.

Abstained (kept as written): pattern lets (``let ⟨a, b⟩ := …``, a ``match``), values that are
``fun`` (the parser reads ``let f (n : ℕ) : T := e`` as ``fun n => e`` without the parameter's
type, and ``T`` is then the result type, not ``f``'s), values without a term (``by …``,
``sorry``: a ``have`` proved by tactics), written types with a hole ``_`` and inferred types
the tree cannot spell (only number types, ``Prop``, ``Set``/``Finset``/``List``/``Multiset``,
``×``, ``→`` and type variables in scope are written back). The substitution is
capture-avoiding (:func:`~transted.pipeline.opt.substitution.substitute`: a binder of the body
that would capture a free name of the value is renamed, and a binder that shadows ``x`` stops
it).
"""

from __future__ import annotations

from collections.abc import Mapping

from transted.pipeline.opt.elaborate.result import Elaboration, Path
from transted.pipeline.opt.elaborate.types import NUMBER_TYPES, Meta, Type_
from transted.pipeline.opt.labels import ARROW, ASCRIPTION, FUN, HAVE, LET, SLOT, infix
from transted.pipeline.opt.node import Node
from transted.pipeline.opt.scope import binder_type, bound_name, free_names, has_pattern
from transted.pipeline.opt.substitution import substitute

__all__ = ["zeta_reduct", "settled_type", "is_let"]

_NO_TERM = frozenset({"by", "sorry"})
_SCALARS = frozenset((*NUMBER_TYPES, "Prop", "Bool"))
_CONTAINERS = frozenset({"Set", "Finset", "List", "Multiset"})
_PRODUCT = infix("×")


def is_let(node: Node) -> bool:
    """A ``let``/``have`` term node with its three children (binder, value, body)."""
    return node.label in (LET, HAVE) and len(node.children) == 3


def zeta_reduct(node: Node, inferred: Node | None = None,
                unfixed: frozenset[str] = frozenset(),
                declared_types: Mapping[str, Node] | None = None) -> Node | None:
    """The body of the ``let``/``have`` ``node`` with its value put for its name, or None
    when that is not sound (see the module docstring). ``inferred``: the value's settled type
    (:func:`settled_type`), used when the binder has no written type; ``unfixed``: the names
    in scope whose type is not declared (an untyped binder, an auto-bound name): a value or
    type mentioning one is kept, since the ``let`` may be what fixes that type (the reduct
    moves the value, or drops it when the name is unused); ``declared_types``: the written
    types of the locals in scope (a local of type ``T`` needs no ``(· : T)``)."""
    if not is_let(node):
        return None
    binder, value, body = node.children
    if has_pattern(binder) or value.label == FUN or (value.is_leaf and value.label in _NO_TERM):
        return None
    declared = binder_type(binder)
    if declared is not None and any(n.label == "_" for n in declared.preorder()):
        return None
    name = bound_name(binder)
    if declared is None and name is not None and name in free_names(value):
        return None  # `let x := x - 1`: the value's `x` is an outer one the elaboration
        # typed as the let's own (its value and binder are elaborated in one scope)
    typ = declared if declared is not None else inferred
    if typ is None or (free_names(value) | free_names(typ)) & unfixed:
        return None
    if name is None:  # `let _ := v; b`: the body does not see the value
        return body
    return substitute(body, name, _ascribed(value, typ, declared_types or {}))


def _ascribed(value: Node, typ: Node, declared_types: Mapping[str, Node]) -> Node:
    """``(value : typ)``, or ``value`` where the ascription changes nothing: a proposition, a
    value already ascribed ``typ``, a local declared of type ``typ`` (it elaborates to that
    local wherever it stands, as the let's name did)."""
    if typ.label == "Prop" or (value.label == ASCRIPTION and value.children[1] == typ) or \
            (value.is_leaf and declared_types.get(value.label) == typ):
        return value
    return Node(ASCRIPTION, (value, typ))


def settled_type(elaboration: Elaboration, path: Path, in_scope: frozenset[str]) -> Node | None:
    """The type the elaboration gives the node at ``path`` written as a type tree, when it is
    settled: no issue at or inside the node, no metavariable, nothing a default instance chose
    (:attr:`Elaboration.defaulted`), and a type the tree can spell (``in_scope``: the bound
    names, so a type variable is written as its name)."""
    info = elaboration.nodes.get(path)
    if info is None or path in elaboration.defaulted or elaboration.issues_under(path):
        return None
    return _type_node(info.type, in_scope)


def _type_node(t: Type_, in_scope: frozenset[str]) -> Node | None:
    if isinstance(t, Meta):
        return None
    args = [_type_node(a, in_scope) for a in t.args]
    if any(a is None for a in args):
        return None
    kids = tuple(a for a in args if a is not None)
    if not kids and (t.head in _SCALARS or t.head in in_scope):
        return Node(t.head)
    if t.head in _CONTAINERS and len(kids) == 1:
        return Node(f"{t.head} {SLOT}", kids)
    if t.head in ("→", "×") and len(kids) == 2:
        return Node(ARROW if t.head == "→" else _PRODUCT, kids)
    return None

