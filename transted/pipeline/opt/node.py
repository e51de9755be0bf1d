"""Operator-tree nodes: a frozen label with ordered children.

Bracket notation as in apted's ``helpers.Tree``: ``{label{child}{child}}``; ``{``, ``}`` and
``\\`` inside labels are backslash-escaped, so ``Node.from_text(str(n)) == n`` always holds.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from dataclasses import dataclass
from typing import Any

from transted.errors import ParseError
from transted.pipeline.opt.labels import SLOT

_BRACES = re.compile(r"([{}])")

__all__ = ["Node", "SLOT", "Flat", "flatten", "unflatten"]


@dataclass(frozen=True, slots=True, eq=False)
class Node:
    """One node of an operator tree: ``label`` and an ordered tuple of ``children``."""

    label: str
    children: tuple[Node, ...] = ()

    def __eq__(self, other: object) -> bool:
        # iterative: trees may be deeper than Python's recursion limit
        if self is other:
            return True
        if not isinstance(other, Node):
            return NotImplemented
        if self.label != other.label or len(self.children) != len(other.children):
            return False
        if not self.children:
            return True
        stack: list[tuple[Node, Node]] = list(zip(self.children, other.children, strict=True))
        while stack:
            a, b = stack.pop()
            if a is b:
                continue
            if a.label != b.label or len(a.children) != len(b.children):
                return False
            stack.extend(zip(a.children, b.children, strict=True))
        return True

    def __hash__(self) -> int:
        if not self.children:
            return hash((self.label, ()))
        done: list[int] = []
        stack: list[tuple[Node, bool]] = [(self, False)]
        while stack:
            node, ready = stack.pop()
            if not ready:
                stack.append((node, True))
                stack.extend((c, False) for c in reversed(node.children))
                continue
            k = len(node.children)
            kids = tuple(done[len(done) - k:]) if k else ()
            if k:
                del done[len(done) - k:]
            done.append(hash((node.label, kids)))
        return done[0]

    @property
    def is_leaf(self) -> bool:
        return not self.children

    def size(self) -> int:
        """Number of nodes (iterative: trees may be deeper than Python's recursion limit)."""
        count, stack = 0, [self]
        while stack:
            node = stack.pop()
            count += 1
            stack.extend(node.children)
        return count

    def depth(self) -> int:
        best, stack = 0, [(self, 1)]
        while stack:
            node, d = stack.pop()
            best = max(best, d)
            stack.extend((c, d + 1) for c in node.children)
        return best

    def preorder(self) -> Iterator[Node]:
        stack = [self]
        while stack:
            node = stack.pop()
            yield node
            stack.extend(reversed(node.children))

    def labels(self) -> list[str]:
        return [n.label for n in self.preorder()]

    def with_children(self, children: tuple[Node, ...]) -> Node:
        return Node(self.label, tuple(children))

    # -- bracket notation ---------------------------------------------------------------
    def __str__(self) -> str:
        parts: list[str] = []
        stack: list[Node | str] = [self]
        while stack:
            item = stack.pop()
            if isinstance(item, str):
                parts.append(item)
                continue
            parts.append("{" + _escape(item.label))
            stack.append("}")
            stack.extend(reversed(item.children))
        return "".join(parts)

    @classmethod
    def from_text(cls, text: str) -> Node:
        """Parse bracket notation ``{label{child}...}``; errors carry the position."""
        if "\\" not in text:
            fast = cls._from_plain_text(text)
            if fast is not None:
                return fast
        return cls._from_text_by_char(text)

    @classmethod
    def _from_plain_text(cls, text: str) -> Node | None:
        """:meth:`from_text` of a text without escapes, split at the braces (the stored lemma
        and index trees are parsed by the thousand: a character loop took 0.3 ms a tree); None
        on any malformed text, which the character parser then reports with its position."""
        stack: list[tuple[str, list[Node]]] = []
        root: Node | None = None
        for piece in _BRACES.split(text):
            if piece == "{":
                if root is not None:
                    return None
                stack.append(("", []))
            elif piece == "}":
                if not stack:
                    return None
                label, kids = stack.pop()
                node = cls(label, tuple(kids))
                if stack:
                    stack[-1][1].append(node)
                else:
                    root = node
            elif piece:
                if not stack:
                    if piece.isspace():
                        continue
                    return None
                if stack[-1][1]:
                    return None
                stack[-1] = (stack[-1][0] + piece, stack[-1][1])
        if stack:
            return None
        return root

    @classmethod
    def _from_text_by_char(cls, text: str) -> Node:
        stack: list[tuple[list[str], list[Node]]] = []
        root: Node | None = None
        i, n = 0, len(text)
        while i < n:
            ch = text[i]
            if ch == "{":
                if root is not None:
                    raise ParseError("text after the end of the tree", text, i)
                stack.append(([], []))
                i += 1
            elif ch == "}":
                if not stack:
                    raise ParseError("unbalanced '}'", text, i)
                label, kids = stack.pop()
                node = cls("".join(label), tuple(kids))
                if stack:
                    stack[-1][1].append(node)
                else:
                    root = node
                i += 1
            else:
                if not stack:
                    if ch.isspace():
                        i += 1
                        continue
                    raise ParseError("expected '{'", text, i)
                if stack[-1][1]:
                    raise ParseError("label text after a child", text, i)
                if ch == "\\" and i + 1 < n:
                    stack[-1][0].append(text[i + 1])
                    i += 2
                    continue
                stack[-1][0].append(ch)
                i += 1
        if stack or root is None:
            raise ParseError("unterminated tree (missing '}')", text, n)
        return root

    # -- JSON ---------------------------------------------------------------------------
    def to_json(self) -> dict[str, Any]:
        return {"label": self.label, "children": [c.to_json() for c in self.children]}

    @classmethod
    def from_json(cls, obj: dict[str, Any]) -> Node:
        return cls(obj["label"], tuple(cls.from_json(c) for c in obj.get("children", ())))


def _escape(label: str) -> str:
    return label.replace("\\", "\\\\").replace("{", "\\{").replace("}", "\\}")


Flat = tuple[list[str], list[list[int]]]
"""A tree as preorder labels and child-index adjacency lists (the TED backends' input)."""


def flatten(tree: Node) -> Flat:
    """Preorder labels and child-index adjacency lists of ``tree`` (iterative).

    This is edist's input format: ``adj[i]`` lists the preorder indices of node ``i``'s
    children, left to right.
    """
    labels: list[str] = []
    adj: list[list[int]] = []
    stack: list[tuple[Node, int]] = [(tree, -1)]
    while stack:
        node, parent = stack.pop()
        index = len(labels)
        labels.append(node.label)
        adj.append([])
        if parent >= 0:
            adj[parent].append(index)
        stack.extend((child, index) for child in reversed(node.children))
    return labels, adj


def unflatten(flat: Flat) -> Node:
    """The tree of a :data:`Flat` form (inverse of :func:`flatten`; iterative)."""
    labels, adj = flat
    if not labels:
        raise ValueError("`flat` must hold at least one node")
    built: list[Node] = [Node("")] * len(labels)
    for i in range(len(labels) - 1, -1, -1):  # children have larger preorder indices
        built[i] = Node(labels[i], tuple(built[j] for j in adj[i]))
    return built[0]
