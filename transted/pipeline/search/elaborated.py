"""A goal side elaborated under the goal's locals, kept for the process.

Two move sources read a side's elaborated types: the offline ``subst`` moves (the type a
defining hypothesis gives its value) and the lemma provider (the types a lemma's variables
bind). A move changes one place of one side, so a side recurs in goal after goal, and at one
goal both sources ask for the same side: elaborating it once serves them all. The elaboration
is a function of the tree and the locals' declared types alone (the elaborator reads nothing
else but the bundled tables, fixed for the process), so a kept answer is the one a fresh call
gives, and no move changes; the memo is bounded and cleared when full (only speed changes).
Callers only read an elaboration, never change it.
"""

from __future__ import annotations

from collections.abc import Mapping

from transted.pipeline.opt.elaborate import Elaboration, Scope, elaborate
from transted.pipeline.opt.elaborate.type_nodes import type_of_node
from transted.pipeline.opt.elaborate.types import Type_
from transted.pipeline.opt.node import Node
from transted.pipeline.search.memo import Memo, NodeKey

__all__ = ["elaborated_side", "local_env"]

_SIDES_MAX = 4096
_SIDES: Memo[tuple[NodeKey, tuple[tuple[str, Node | None], ...]], Elaboration] = Memo(_SIDES_MAX)


def local_env(outer: Mapping[str, Node | None]) -> dict[str, Type_]:
    """The locals' declared types as types (type variables first typed as sorts, so ``Set X``
    after ``X : Type*`` is known); a local without a type the model reads is left out."""
    env: dict[str, Type_] = {}
    for name, declared in outer.items():
        typ = type_of_node(declared, env) if declared is not None else None
        if typ is not None:
            env[name] = typ
    return env


def elaborated_side(tree: Node, outer: Mapping[str, Node | None],
                    hashed: int | None = None) -> Elaboration:
    """``tree`` (a goal side, a proposition) elaborated under the locals ``outer`` (name →
    declared type); ``hashed`` is ``hash(tree)`` when the caller has it."""
    key = (NodeKey(tree, hash(tree) if hashed is None else hashed), tuple(outer.items()))
    return _SIDES.get(key, lambda: elaborate(tree, Scope(), locals=local_env(outer)))
