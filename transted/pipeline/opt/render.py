"""Render operator trees: an indented text outline, JSON, Graphviz DOT, or Lean text.

:func:`to_lean` prints a tree back as Lean source (the tactic arguments of a found path, the
subterms named in an edit script): every :data:`~transted.pipeline.opt.labels.SLOT` of a label is
filled with the child's text, parenthesised unless the child is a leaf or a bracketed form;
the result is verbose but parses back to the same tree.
"""

from __future__ import annotations

import json

from transted.pipeline.opt.labels import SLOT
from transted.pipeline.opt.node import Node

__all__ = ["to_text", "to_json_text", "to_dot", "to_lean", "FORMATS"]

FORMATS = ("text", "json", "dot", "bracket")


def to_text(node: Node) -> str:
    """Indented outline, one node per line (iterative: deep trees are fine)."""
    lines: list[str] = []
    stack: list[tuple[Node, int]] = [(node, 0)]
    while stack:
        n, depth = stack.pop()
        lines.append("  " * depth + n.label)
        stack.extend((c, depth + 1) for c in reversed(n.children))
    return "\n".join(lines)


def to_json_text(node: Node) -> str:
    return json.dumps(node.to_json(), ensure_ascii=False)


def to_dot(node: Node, *, name: str = "opt") -> str:
    """Graphviz DOT; node ids are preorder numbers."""
    lines = [f"digraph {name} {{", "  node [shape=box, fontname=monospace];"]
    counter = 0
    stack: list[tuple[Node, int | None]] = [(node, None)]
    while stack:
        n, parent = stack.pop()
        me = counter
        counter += 1
        lines.append(f"  n{me} [label={json.dumps(n.label, ensure_ascii=False)}];")
        if parent is not None:
            lines.append(f"  n{parent} -> n{me};")
        stack.extend((c, me) for c in reversed(n.children))
    lines.append("}")
    return "\n".join(lines)


def render(node: Node, fmt: str) -> str:
    if fmt == "text":
        return to_text(node)
    if fmt == "json":
        return to_json_text(node)
    if fmt == "dot":
        return to_dot(node)
    if fmt == "bracket":
        return str(node)
    raise ValueError(f"`fmt` must be one of {', '.join(FORMATS)}, got {fmt!r}")


_BRACKETED = ("(", "|", "‖", "⌊", "⌈", "{", "⟨", "[", "⦃")


def to_lean(node: Node) -> str:
    """Lean source text for ``node`` (iterative over children via recursion depth of the tree)."""
    if node.is_leaf:
        return node.label
    parts = node.label.split(SLOT)
    if len(parts) - 1 != len(node.children):
        return f"({node.label} {' '.join(_arg(c) for c in node.children)})"
    out = [parts[0]]
    for child, tail in zip(node.children, parts[1:], strict=False):
        out.append(_arg(child))
        out.append(tail)
    return "".join(out)


def _arg(child: Node) -> str:
    text = to_lean(child)
    if child.is_leaf or child.label.startswith(_BRACKETED) and child.label.endswith(
            (")", "|", "‖", "⌋", "⌉", "}", "⟩", "]", "⦄")):
        return text
    return f"({text})"
