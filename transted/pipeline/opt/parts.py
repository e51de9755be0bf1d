"""The parts of a proposition-form statement: binders, hypotheses, conclusion, with their paths.

A statement ``∀ x, … , h₁ → … → conclusion`` is read as Lean's ``intro`` would: the spine of
leading ``∀`` and ``→`` nodes is peeled, each ``∀`` giving a binder and each ``→`` a hypothesis;
whatever follows is the conclusion (a conclusion that is itself an implication is read as
hypotheses, on both sides alike). An ``→`` whose domain is a *type* (``ℕ → P``: a variable
nothing mentions, which Lean prints as an arrow since ``∀ n : ℕ, P`` does not depend on ``n``)
is a binder, not a hypothesis: its part is the anonymous binder ``_ : ℕ`` (its path is the
type's). Only types the tree itself shows are read so (number types, ``Set``/``Finset``/…,
``Prop``, arrows between them, a variable an earlier binder declares a sort, via
:func:`~transted.pipeline.opt.elaborate.type_nodes.type_of_node`); a domain the tree alone cannot
classify (``Subgroup G → P``: a structure, or a ``Prop``-valued class) stays a hypothesis. The distance (:mod:`transted.pipeline.ted.hypotheses`) aligns the parts
as units; the residual (:mod:`transted.pipeline.verdict.parts`) judges the edits part by part.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal

from transted.pipeline.opt.elaborate.type_nodes import type_of_node
from transted.pipeline.opt.elaborate.types import SORT, Type_
from transted.pipeline.opt.labels import ARROW, FORALL, TYPED_BINDER
from transted.pipeline.opt.node import Node
from transted.pipeline.opt.scope import binder_names, binder_type

__all__ = ["Part", "PartPath", "StatementParts", "statement_parts"]

PartPath = tuple[int, ...]
"""Child indices from the statement's root to a part."""


@dataclass(frozen=True)
class Part:
    """One part: its kind, its index among the parts of that kind, its tree and its path."""

    kind: Literal["binder", "hypothesis", "conclusion"]
    index: int
    node: Node
    path: PartPath


@dataclass(frozen=True)
class StatementParts:
    binders: tuple[Part, ...]
    hypotheses: tuple[Part, ...]
    conclusion: Part


def statement_parts(tree: Node) -> StatementParts:
    """Binders, hypotheses and conclusion of ``tree`` (see the module docstring)."""
    binders: list[Part] = []
    hypotheses: list[Part] = []
    node: Node = tree
    path: PartPath = ()
    sorts: dict[str, Type_] = {}  # variables declared types (`α : Type*`): types themselves
    while len(node.children) == 2 and node.label in (FORALL, ARROW):
        left = node.children[0]
        if node.label == FORALL:
            binders.append(Part("binder", len(binders), left, (*path, 0)))
            if type_of_node(binder_type(left), sorts) == SORT:
                sorts.update(dict.fromkeys(binder_names(left), SORT))
        elif type_of_node(left, sorts) is not None:
            anonymous = Node(TYPED_BINDER, (Node("_"), left))
            binders.append(Part("binder", len(binders), anonymous, (*path, 0)))
        else:
            hypotheses.append(Part("hypothesis", len(hypotheses), left, (*path, 0)))
        node, path = node.children[1], (*path, 1)
    return StatementParts(tuple(binders), tuple(hypotheses), Part("conclusion", 0, node, path))
