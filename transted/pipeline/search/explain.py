"""Render a search result: distance, similarity, the path as a Lean script, a tree diff.

The diff shows the best goal's two sides (alpha-canonical, so renamed binders line up) side
by side, each node marked by the optimal TED alignment (edist's backtrace): unchanged,
relabelled (``a → b``), deleted from the left or inserted on the right. Two forms: a rich
renderable for the terminal and plain text (same content) for logs and tests.
"""

from __future__ import annotations

from dataclasses import dataclass

from rich.console import Group
from rich.table import Table
from rich.text import Text
from rich.tree import Tree

from transted.pipeline.opt.node import Node
from transted.pipeline.opt.render import to_lean
from transted.pipeline.search.distance import UNIT_TED
from transted.pipeline.search.engine import SearchResult
from transted.pipeline.ted.distance import TreeEditDistance, similarity_from

__all__ = ["Explanation", "explain", "tree_diff"]

_STYLE = {"=": "green", "~": "yellow", "-": "red", "+": "cyan"}


@dataclass(frozen=True)
class Explanation:
    """What ``--explain`` prints, as data."""

    distance: float
    start_distance: float
    similarity: float
    status: str
    script: tuple[str, ...]
    approximate: tuple[bool, ...]
    lhs: Node
    rhs: Node
    marks: tuple[tuple[str, ...], tuple[str, ...]]

    def summary(self) -> str:
        """Distance, similarity, status and the proof script, as plain text."""
        lines = [f"TransTED distance d* = {self.distance} (TED before search: "
                 f"{self.start_distance}), similarity {self.similarity:.4f}, "
                 f"status {self.status}", "proof script:"]
        lines += [f"  {t}{'  -- approximate' if a else ''}"
                  for t, a in zip(self.script, self.approximate + (False,), strict=False)]
        return "\n".join(lines)

    def text(self) -> str:
        """Plain-text rendering (the same content as :meth:`renderable`)."""
        lines = [self.summary()]
        lines.append("best goal, left | right (= same, ~ relabel, - delete, + insert):")
        left = _tree_lines(self.lhs, self.marks[0])
        right = _tree_lines(self.rhs, self.marks[1])
        width = max((len(s) for s in left), default=0)
        for i in range(max(len(left), len(right))):
            a = left[i] if i < len(left) else ""
            b = right[i] if i < len(right) else ""
            lines.append(f"  {a:<{width}} | {b}")
        return "\n".join(lines)

    def renderable(self) -> Group:
        head = Text.assemble(("d* = ", "bold"), str(self.distance),
                             f"  (TED before search {self.start_distance})   ",
                             ("similarity ", "bold"), f"{self.similarity:.4f}   ",
                             ("status ", "bold"), self.status)
        script = Text("\n".join(["example : lhs = rhs := by"] + [
            f"  {t}" + ("  -- approximate" if a else "")
            for t, a in zip(self.script, self.approximate + (False,), strict=False)]))
        table = Table(title="best goal (= same, ~ relabel, - delete, + insert)",
                      show_lines=False)
        table.add_column("left side")
        table.add_column("right side")
        table.add_row(_rich_tree(self.lhs, self.marks[0]), _rich_tree(self.rhs, self.marks[1]))
        goal = Text(f"{to_lean(self.lhs)}  =  {to_lean(self.rhs)}", style="dim")
        return Group(head, script, goal, table)


def tree_diff(lhs: Node, rhs: Node, ted: TreeEditDistance = UNIT_TED
              ) -> tuple[tuple[str, ...], tuple[str, ...]]:
    """Per-node marks (preorder) of an optimal TED alignment of ``lhs``, ``rhs`` under ``ted``."""
    la, lb = lhs.labels(), rhs.labels()
    left, right = ["-"] * len(la), ["+"] * len(lb)
    for i, j in ted.alignment(lhs, rhs):
        if i >= 0 and j >= 0:
            mark = "=" if la[i] == lb[j] else "~"
            left[i], right[j] = mark, mark
    return tuple(left), tuple(right)


def explain(result: SearchResult, size: float, ted: TreeEditDistance = UNIT_TED) -> Explanation:
    """Gather what to print for ``result``; ``size`` is the similarity's normaliser of the
    original trees (max(|T1|, |T2|) under unit cost)."""
    best = result.best
    lhs, rhs = (best.canonical_lhs, best.canonical_rhs) if not best.closed else (best.lhs,
                                                                                 best.rhs)
    return Explanation(distance=result.distance, start_distance=result.start_distance,
                       similarity=similarity_from(result.distance, size, size),
                       status=result.status, script=tuple(result.script),
                       approximate=tuple(s.approximate for s in result.path),
                       lhs=lhs, rhs=rhs, marks=tree_diff(lhs, rhs, ted))


def _tree_lines(tree: Node, marks: tuple[str, ...]) -> list[str]:
    out: list[str] = []
    stack: list[tuple[Node, int]] = [(tree, 0)]
    index = 0
    while stack:
        node, depth = stack.pop()
        out.append(f"{'  ' * depth}{marks[index]} {node.label}")
        index += 1
        stack.extend((c, depth + 1) for c in reversed(node.children))
    return out


def _rich_tree(tree: Node, marks: tuple[str, ...]) -> Tree:
    counter = iter(range(len(marks)))

    def label(node: Node) -> Text:
        mark = marks[next(counter)]
        return Text(f"{mark} {node.label}", style=_STYLE[mark])

    root = Tree(label(tree))
    stack: list[tuple[Node, Tree]] = [(c, root) for c in reversed(tree.children)]
    while stack:
        node, parent = stack.pop()
        branch = parent.add(label(node))
        stack.extend((c, branch) for c in reversed(node.children))
    return root
