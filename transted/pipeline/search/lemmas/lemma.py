"""A stored lemma made ready to rewrite: its parts, its variables and its elaboration.

Built from a :class:`~transted.pipeline.search.lemmas.table.LemmaRow` on first use and kept for the
process. The elaboration is that of the normalised statement with no header (its names are in
full); a lemma whose elaboration has an issue other than an undecided instance at its sides or
side conditions is not used (the model would be reading something else than Mathlib wrote).
When the table was judged by the running elaboration, a usable lemma's row holds the types of
its sides (:mod:`~transted.pipeline.search.lemmas.side_types`), which are read instead of
elaborating it.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from functools import cached_property

from transted.pipeline.opt.elaborate import Elaboration, NodeType, Scope, elaborate
from transted.pipeline.opt.elaborate.type_nodes import type_of_node
from transted.pipeline.opt.elaborate.types import SORT, Ty
from transted.pipeline.opt.node import Node
from transted.pipeline.opt.scope import head_name
from transted.pipeline.search.lemmas.compile import LemmaParts, peel
from transted.pipeline.search.lemmas.instances import substitute_type
from transted.pipeline.search.lemmas.table import LemmaRow
from transted.pipeline.search.lemmas.typing import lemma_issue_free
from transted.pipeline.search.pattern import Path

__all__ = ["Lemma", "Direction", "InstanceNeed"]

InstanceNeed = tuple[str, tuple[Node, ...]]
"""A class the lemma assumes and its arguments as written (over the lemma's variables)."""


@dataclass(frozen=True)
class Direction:
    """One way of using a lemma: rewrite ``source`` into ``target``."""

    backward: bool
    source: Node
    target: Node
    source_path: Path
    target_path: Path


class Lemma:
    """A lemma of the table, ready to match (see the module docstring)."""

    def __init__(self, row: LemmaRow, parts: LemmaParts, judged: bool = False) -> None:
        self.row = row
        self.parts = parts
        self.stored = row.types is not None and judged
        """The row's types and usability were judged by the running elaboration."""
        self.variables = frozenset(n for n, _ in parts.variables)
        self.numerals = parts.numerals
        self.type_variables = frozenset(
            n for n, ty in parts.variables
            if ty is not None and type_of_node(ty, {}) == SORT)
        self.directions = {d: Direction(d == "backward", *(
            (parts.lhs, parts.rhs, parts.lhs_path, parts.rhs_path) if d == "forward" else
            (parts.rhs, parts.lhs, parts.rhs_path, parts.lhs_path))) for d in row.directions}

    @classmethod
    def from_row(cls, row: LemmaRow, judged: bool = False) -> Lemma | None:
        """``judged``: the table's judgements were made by the running elaboration
        (:meth:`~transted.pipeline.search.lemmas.table.LemmaTable.judged_by`)."""
        parts = peel(row.statement, row.instance_arrows, row.numerals)
        return cls(row, parts, judged) if parts is not None else None

    @property
    def name(self) -> str:
        return self.row.name

    @cached_property
    def elaboration(self) -> Elaboration:
        return elaborate(self.row.statement, Scope())

    @cached_property
    def node_types(self) -> Mapping[Path, NodeType]:
        """The types of the nodes of the sides, by the statement's paths (the stored ones, or
        the elaboration's)."""
        if self.stored and self.row.types is not None:
            return self.row.types.nodes(self.row.statement, self.parts.lhs_path,
                                        self.parts.rhs_path)
        return self.elaboration.nodes

    @cached_property
    def usable(self) -> bool:
        """The sides and side conditions are read by the elaborator with no issue but
        undecided instances (the lemma's own binders assume those). A row with stored types
        was judged usable by the running elaboration."""
        if self.stored:
            return True
        e = self.elaboration
        paths = [self.parts.lhs_path, self.parts.rhs_path, *self._hypothesis_paths()]
        return all(lemma_issue_free(e, p) for p in paths)

    def _hypothesis_paths(self) -> list[Path]:
        out: list[Path] = []
        node: Node = self.row.statement
        here: Path = ()
        arrows = iter(self.row.instance_arrows)
        while len(node.children) == 2 and node.label in ("∀ <SLOT>, <SLOT>",
                                                         "<SLOT> → <SLOT>"):
            if node.label == "<SLOT> → <SLOT>" and not next(arrows, True):
                out.append(here + (0,))
            node, here = node.children[1], here + (1,)
        return out

    @cached_property
    def instance_needs(self) -> tuple[InstanceNeed, ...] | None:
        """The classes assumed, or None when one is not a class application (``[Fact p]`` of
        a proposition, an instance the model cannot state)."""
        out: list[InstanceNeed] = []
        for inst in self.parts.instances:
            cls = head_name(inst.label, len(inst.children)) if inst.children else None
            if inst.label == "<SLOT>.AtLeastTwo":
                cls = "Nat.AtLeastTwo"
            if cls is None:
                return None
            out.append((cls, inst.children))
        return tuple(out)

    def instance_types(self, need: InstanceNeed, theta: dict[str, Ty]) -> tuple[Ty, ...] | None:
        """The argument types of an assumed class under ``theta`` (None: not a type)."""
        sorts = dict.fromkeys(self.type_variables, SORT)
        out: list[Ty] = []
        for arg in need[1]:
            ty = type_of_node(arg, sorts)
            if ty is None:
                return None
            out.append(substitute_type(ty, theta))
        return tuple(out)
