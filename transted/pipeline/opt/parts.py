"""The parts of a proposition-form statement: binders, hypotheses, conclusion, with their paths.

A statement ``∀ x, … , h₁ → … → conclusion`` is read as Lean's ``intro`` would: the spine of
leading ``∀`` and ``→`` nodes is peeled, each ``∀`` giving a binder and each ``→`` a hypothesis;
whatever follows is the conclusion (a conclusion that is itself an implication is read as
hypotheses, on both sides alike). The distance (:mod:`transted.pipeline.ted.hypotheses`) aligns the parts
as units; the residual (:mod:`transted.pipeline.verdict.parts`) judges the edits part by part.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal

from transted.pipeline.opt.labels import ARROW, FORALL
from transted.pipeline.opt.node import Node

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
    while len(node.children) == 2 and node.label in (FORALL, ARROW):
        if node.label == FORALL:
            binders.append(Part("binder", len(binders), node.children[0], (*path, 0)))
        else:
            hypotheses.append(Part("hypothesis", len(hypotheses), node.children[0], (*path, 0)))
        node, path = node.children[1], (*path, 1)
    return StatementParts(tuple(binders), tuple(hypotheses), Part("conclusion", 0, node, path))
