"""The costed edits of a statement pair: which relation, numeral, type or hypothesis differs,
and what it cost — the data behind ``--explain`` and ``disagreements.md``.

:func:`costed_edits` recomputes the optimal alignment (edist's Zhang–Shasha backtrace under the
same cost model) and, for the semantic distance, the hypothesis and binder assignment of
:mod:`transted.pipeline.ted.hypotheses`; the costs of the edits it lists add up to the distance.
"""

from __future__ import annotations

from dataclasses import asdict, dataclass

from edist.ted import ted_backtrace

from transted.pipeline.opt.labels import SLOT
from transted.pipeline.opt.node import Node
from transted.pipeline.opt.render import to_lean
from transted.pipeline.ted.backends import edist_delta, flatten
from transted.pipeline.ted.cost import CostModel
from transted.pipeline.ted.semantic import SemanticCost
from transted.pipeline.ted.statement_distance import SemanticDistance, StatementDistance

__all__ = ["CostedEdit", "costed_edits", "node_edits", "format_edits", "NodeOp", "node_alignment",
           "preorder_paths"]


@dataclass(frozen=True)
class CostedEdit:
    """One edit: ``op`` is rename / delete / insert / unmatched; ``where`` the part of the
    statement (conclusion, hypothesis 2, binder 1, whole); ``kind`` the label's cost class."""

    op: str
    where: str
    kind: str
    reference: str | None
    candidate: str | None
    cost: float

    def as_dict(self) -> dict[str, object]:
        return asdict(self)

    def __str__(self) -> str:
        if self.op == "rename":
            what = f"{self.reference} → {self.candidate}"
        elif self.op in ("delete", "unmatched") and self.reference is not None:
            what = f"{self.reference} only in the reference"
        else:
            what = f"{self.candidate} only in the candidate"
        return f"{self.where}: {self.kind} {self.op}: {what} (cost {self.cost:g})"


def _show(label: str) -> str:
    return label.replace(SLOT, "·")


def _kind(cost: CostModel, label: str) -> str:
    return cost.class_of(label) if isinstance(cost, SemanticCost) else "node"


@dataclass(frozen=True)
class NodeOp:
    """One step of an optimal node alignment: ``ref``/``cand`` are preorder indices (None for
    an inserted / deleted node), with the labels and the step's cost (0 for a match, and for a
    free rename such as ``2`` → ``2.0`` under the semantic cost)."""

    ref: int | None
    cand: int | None
    ref_label: str | None
    cand_label: str | None
    cost: float

    @property
    def changed(self) -> bool:
        """Not a match of equal labels (a free rename of different labels is a change)."""
        return self.ref_label != self.cand_label


def node_alignment(t1: Node, t2: Node, cost: CostModel) -> list[NodeOp]:
    """Every step of an optimal node alignment of ``t1`` into ``t2`` (edist's Zhang–Shasha
    backtrace under ``cost``), matches included; indices are preorder (:func:`preorder_paths`)."""
    l1, a1 = flatten(t1)
    l2, a2 = flatten(t2)
    delta = edist_delta(cost)
    out: list[NodeOp] = []
    for op in ted_backtrace(l1, a1, l2, a2, delta):
        i, j = op._left, op._right
        a = l1[i] if i >= 0 else None
        b = l2[j] if j >= 0 else None
        out.append(NodeOp(i if i >= 0 else None, j if j >= 0 else None, a, b, delta(a, b)))
    return out


def preorder_paths(tree: Node) -> list[tuple[int, ...]]:
    """The path (child indices from ``tree``) of each node, in the preorder of ``flatten``."""
    out: list[tuple[int, ...]] = []
    stack: list[tuple[Node, tuple[int, ...]]] = [(tree, ())]
    while stack:
        node, path = stack.pop()
        out.append(path)
        stack.extend((child, (*path, k)) for k, child in reversed(list(enumerate(node.children))))
    return out


def node_edits(t1: Node, t2: Node, cost: CostModel, where: str = "whole") -> list[CostedEdit]:
    """The non-free edits of an optimal node alignment of ``t1`` into ``t2`` under ``cost``."""
    out: list[CostedEdit] = []
    for op in node_alignment(t1, t2, cost):
        a, b, c = op.ref_label, op.cand_label, op.cost
        if c == 0:
            continue
        if a is not None and b is not None:
            kind = _kind(cost, a) if _kind(cost, a) == _kind(cost, b) else \
                f"{_kind(cost, a)}→{_kind(cost, b)}"
            out.append(CostedEdit("rename", where, kind, _show(a), _show(b), c))
        elif a is not None:
            out.append(CostedEdit("delete", where, _kind(cost, a), _show(a), None, c))
        else:
            assert b is not None
            out.append(CostedEdit("insert", where, _kind(cost, b), None, _show(b), c))
    return out


def costed_edits(t1: Node, t2: Node, distance: StatementDistance) -> list[CostedEdit]:
    """Costed edits turning reference tree ``t1`` into candidate ``t2`` under ``distance``
    (unit: node edits of plain TED; semantic: hypotheses/binders aligned as units)."""
    model = distance.cost
    if not isinstance(distance, SemanticDistance):
        return node_edits(t1, t2, model)
    h = distance.aligned
    d = h.details(t1, t2)
    p1, p2 = d["parts"]
    out: list[CostedEdit] = []
    for part, items1, items2, unmatched in (
            ("binder", p1.binders, p2.binders, h.units.binder),
            ("hypothesis", p1.hypotheses, p2.hypotheses, h.units.hypothesis)):
        for i, j, c in d["binders" if part == "binder" else "hypotheses"]:
            if i is not None and j is not None:
                if c:
                    out.extend(node_edits(items1[i].node, items2[j].node, model,
                                          f"{part} {i + 1}"))
            else:
                ref = to_lean(items1[i].node) if i is not None else None
                cand = to_lean(items2[j].node) if j is not None else None
                out.append(CostedEdit("unmatched", f"{part} {(i if i is not None else j) + 1}",
                                      part, ref, cand, unmatched))
    out.extend(node_edits(p1.conclusion.node, p2.conclusion.node, model, "conclusion"))
    return out


def format_edits(edits: list[CostedEdit], limit: int = 12) -> list[str]:
    """Plain-text lines, dearest first (for ``--explain`` and ``disagreements.md``)."""
    ranked = sorted(edits, key=lambda e: -e.cost)
    lines = [str(e) for e in ranked[:limit]]
    if len(ranked) > limit:
        rest = sum(e.cost for e in ranked[limit:])
        lines.append(f"… {len(ranked) - limit} more edits (cost {rest:g})")
    return lines
