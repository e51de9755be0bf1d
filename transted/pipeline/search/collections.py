"""Which collection type (``Set α``, ``Finset α``) a term has, when that is certain.

``Set.nonempty_iff_ne_empty : s.Nonempty ↔ s ≠ ∅`` is about the empty *set*: the same
``∅``/``≠`` on a ``Multiset`` (``∅ = 0``), on a ``Finset`` or a ``Set`` coerced from one, is
another term, and ``⊥`` of a ``Submodule`` is no ``∅`` at all. A rule guarded by
``type_head_in: [?s, Set]`` fires only when ``?s`` is certainly typed ``Set _`` on its own —
as ``binrel%`` elaborates ``s ≠ ∅`` (a leaf without an expected type, Lean core
``Lean/Elab/Extra.lean``) and dot notation elaborates the receiver of ``s.Nonempty``:

* a variable whose binder declares ``Set α`` (the search's scope), an ascription ``(e : Set α)``;
* ``a ∩ b``, ``a ∪ b``, ``a \\ b`` whose two operands have the same known type, ``aᶜ`` of a
  known one: ``Inter.inter``, ``Union.union``, ``SDiff.sdiff`` are ``α → α → α`` and
  ``HasCompl.compl`` is ``α → α`` (Mathlib/Order/Notation.lean, core Init/Core.lean), so the
  result has the operands' type whichever operand Lean elaborates first;
* any other term (``frontier A``, ``Finset.range n``, ``{x | p x}``): its type from the offline
  elaboration (:mod:`transted.pipeline.opt.elaborate`) under the scope's locals, only when that
  elaboration reports no issue but an undecided instance and leaves no metavariable in it.

Anything else is unknown, and unknown never satisfies the guard.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import TypeGuard

from transted.pipeline.opt.elaborate import Scope, Ty, elaborate
from transted.pipeline.opt.elaborate.type_nodes import type_of_node
from transted.pipeline.opt.elaborate.types import Type_
from transted.pipeline.opt.labels import ASCRIPTION
from transted.pipeline.opt.node import SLOT, Node
from transted.pipeline.search.elaborated import local_env

__all__ = ["collection_type", "COLLECTIONS"]

COLLECTIONS = frozenset({"Set", "Finset"})
_HOMOGENEOUS = frozenset({f"{SLOT} ∩ {SLOT}", f"{SLOT} ∪ {SLOT}", f"{SLOT} \\ {SLOT}"})
_COMPL = f"{SLOT}ᶜ"
_INSTANCE_ISSUES = frozenset({"undecided-instance", "missing-instance"})
"""An instance argument the model cannot settle (``[TopologicalSpace X]`` is not a local here)
leaves the application's type as its signature gives it, once no metavariable is left in it (an
``outParam`` that fixes a type would leave one); whether the instance exists is the statement's
own elaboration issue, which the verdict reads."""


def collection_type(node: Node, env: Mapping[str, Node | None]) -> Ty | None:
    """``Set α`` / ``Finset α`` of ``node`` under ``env`` (name → declared type), or None."""
    locals_ = local_env(env)
    typ = _type(node, env, locals_)
    return typ if typ is not None and typ.head in COLLECTIONS else None


def _type(node: Node, env: Mapping[str, Node | None], locals_: dict[str, Type_]) -> Ty | None:
    """The operation rules above, else the elaboration's type of ``node``."""
    if node.label in _HOMOGENEOUS and len(node.children) == 2:
        left, right = (_type(c, env, locals_) for c in node.children)
        return left if left is not None and left == right else None
    if node.label == _COMPL and len(node.children) == 1:
        return _type(node.children[0], env, locals_)
    if node.is_leaf and node.label in env:  # a local: its binder says, or nothing does
        local = locals_.get(node.label)
        return local if isinstance(local, Ty) else None
    if node.label == ASCRIPTION:
        return type_of_node(node.children[1], locals_)
    elaboration = elaborate(node, Scope(), locals=locals_, proposition=False)
    typ = elaboration.nodes[()].type
    typed = all(i.kind in _INSTANCE_ISSUES for i in elaboration.issues)
    return typ if typed and _known(typ) else None


def _known(typ: Type_) -> TypeGuard[Ty]:
    """No metavariable left anywhere in ``typ`` (``Set ?α`` is no type Lean would accept)."""
    return isinstance(typ, Ty) and all(_known(a) for a in typ.args)
