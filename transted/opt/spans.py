"""Source spans of the parser's operator trees: the text each node was read from.

Tools that edit a statement in place (the sensitivity suite changes one operator and keeps
every other byte) need to know where each operand and operator of the tree is in the text.
:class:`SpanningParser` is the parser itself (:class:`~transted.opt.parser.TermParser`, so the
same precedences, binders and trees) with its two node builders wrapped: every operand and
every operator application comes out of ``nud`` (a leading form: an atom, a prefix operator, a
bracket, a binder notation) or ``led`` (one trailing construct: an infix or postfix operator, an
application, a projection), so recording the tokens each call consumed gives each node's span.
The plain parser is untouched and pays nothing.

Offsets are character offsets into the parsed text, ``[start, end)``. A node has two spans:
``span`` is its own text, ``outer`` adds what the parser read around it without making a node
(the parentheses of ``(a + b)``, ``show … from …``). Nodes that the binder notations build
from names (the ``x`` of ``∀ x : ℝ, …``, a binder predicate ``x > 0``) and the inner nodes of
generalized field notation (``h.le.trans``) have no span of their own: ``span is None``.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from dataclasses import dataclass

from transted.opt.declaration import Declaration, header_opens, read_declaration
from transted.opt.lexer import Token
from transted.opt.node import SLOT, Node
from transted.opt.notation import NotationTable
from transted.opt.parser import TermParser

__all__ = ["CharSpan", "SpannedNode", "SpanningParser", "DeclarationSpans", "BinderSpans",
           "term_spans", "declaration_spans"]

_BINARY = re.compile(rf"^{re.escape(SLOT)} (\S+) {re.escape(SLOT)}$")


@dataclass(frozen=True, slots=True)
class CharSpan:
    """Characters ``[start, end)`` of the parsed text."""

    start: int
    end: int

    def text(self, source: str) -> str:
        return source[self.start:self.end]

    def __len__(self) -> int:
        return self.end - self.start


@dataclass(frozen=True)
class SpannedNode:
    """A node of the parser's tree with the text it came from; ``children`` mirror
    ``node.children``."""

    node: Node
    span: CharSpan | None
    """The node's own text (no parentheses around it); None for a node built from names."""
    outer: CharSpan | None
    """``span`` plus the parentheses (or ``show … from``) the parser read around it."""
    children: tuple[SpannedNode, ...]

    def walk(self) -> Iterator[SpannedNode]:
        """This node and every descendant, parents before children."""
        stack = [self]
        while stack:
            item = stack.pop()
            yield item
            stack.extend(reversed(item.children))

    def at(self, span: CharSpan) -> SpannedNode | None:
        """The outermost node of this subtree read from exactly ``span`` (its own text or
        with its parentheses), or None."""
        return next((item for item in self.walk() if span in (item.span, item.outer)), None)

    def gaps(self, source: str) -> tuple[CharSpan, ...] | None:
        """The text of ``span`` outside the children's ``outer`` spans, whitespace trimmed:
        ``len(children) + 1`` spans (before the first child, between each two, after the last),
        what the literal parts of the label were written as (``a + b`` → ``""``, ``"+"``,
        ``""``; ``f x y`` → ``"f"``, ``""``, ``""``). None if this node or a child has no span,
        or a child lies outside this node's text (a binder type shared by several names)."""
        if self.span is None or any(c.outer is None for c in self.children):
            return None
        edges = [self.span.start]
        for child in self.children:
            assert child.outer is not None
            if child.outer.start < edges[-1]:
                return None
            edges += [child.outer.start, child.outer.end]
        if edges[-1] > self.span.end:
            return None
        edges.append(self.span.end)
        return tuple(_trimmed(source, edges[i], edges[i + 1]) for i in range(0, len(edges), 2))

    def infix_operator(self, source: str) -> CharSpan | None:
        """The operator token of a binary infix application ``lhs op rhs`` (label
        ``<SLOT> op <SLOT>``), as written (an alias such as ``->`` keeps its spelling); None for
        any other node."""
        if len(self.children) != 2 or not _BINARY.match(self.node.label):
            return None
        gaps = self.gaps(source)
        return gaps[1] if gaps is not None and len(gaps[1]) else None


def _trimmed(source: str, start: int, end: int) -> CharSpan:
    while start < end and source[start].isspace():
        start += 1
    while end > start and source[end - 1].isspace():
        end -= 1
    return CharSpan(start, end)


@dataclass(slots=True)
class _Read:
    """Tokens ``[first, end)`` a node was first read from, and ``[outer_first, outer_end)``
    the last (widest) time; ``node`` is kept so its ``id`` is not reused during the parse."""

    node: Node
    first: int
    end: int
    outer_first: int
    outer_end: int


class SpanningParser(TermParser):
    """:class:`TermParser` that records the tokens each node was built from."""

    def __init__(self, text: str, *, opens: tuple[str, ...] = (), split_binders: bool = True,
                 table: NotationTable | None = None):
        super().__init__(text, opens=opens, split_binders=split_binders, table=table)
        self._read: dict[int, _Read] = {}

    def nud(self) -> Node:
        first = self.i
        node = super().nud()
        self._record(node, first)
        return node

    def led(self, left: Node, rbp: int) -> Node | None:
        node = super().led(left, rbp)
        if node is not None:
            self._record(node, self._read[id(left)].outer_first)
        return node

    def _record(self, node: Node, first: int) -> None:
        seen = self._read.get(id(node))
        if seen is None:
            self._read[id(node)] = _Read(node, first, self.i, first, self.i)
        else:  # the same node read again with what surrounds it: `(a + b)` after `a + b`
            seen.outer_first, seen.outer_end = first, self.i

    def _chars(self, first: int, end: int) -> CharSpan:
        return CharSpan(self.tokens[first].start, self.tokens[end - 1].end)

    def spanned(self, node: Node) -> SpannedNode:
        """``node`` (from this parser) with the spans of it and its descendants."""
        seen = self._read.get(id(node))
        children = tuple(self.spanned(c) for c in node.children)
        if seen is None or seen.node is not node:
            return SpannedNode(node, None, None, children)
        return SpannedNode(node, self._chars(seen.first, seen.end),
                           self._chars(seen.outer_first, seen.outer_end), children)


def term_spans(text: str, *, opens: tuple[str, ...] = (), split_binders: bool = True) -> SpannedNode:
    """:func:`transted.opt.parse_term` with spans: ``.node`` is the same tree."""
    parser = SpanningParser(text, opens=opens, split_binders=split_binders)
    return parser.spanned(parser.parse())


@dataclass(frozen=True)
class BinderSpans:
    """One bracketed binder group of a declaration, ``(x y : T)``."""

    span: CharSpan
    """The group with its brackets."""
    bracket: str
    names: tuple[str, ...]
    type: SpannedNode | None
    """None when the group has no type (``{x}``)."""


@dataclass(frozen=True)
class DeclarationSpans:
    """A declaration (:func:`~transted.opt.declaration.parse_declaration`) and the text of its
    parts."""

    text: str
    declaration: Declaration
    tokens: tuple[Token, ...]
    """The lexer's tokens of ``text`` (the parser's own), to map offsets to tokens."""
    binders: tuple[BinderSpans, ...]
    colon: CharSpan
    """The ``:`` between the binders and the conclusion."""
    conclusion: SpannedNode


def declaration_spans(text: str, *, header: str | None = None,
                      split_binders: bool = True) -> DeclarationSpans:
    """Parse one declaration as :func:`~transted.opt.declaration.parse_declaration` does, with
    the spans of its binder groups, their types and its conclusion.

    Raises the same :class:`~transted.errors.ParseError` as the plain parse.
    """
    parser = SpanningParser(text, opens=header_opens(header), split_binders=split_binders)
    decl = read_declaration(parser)
    binders = []
    for group, (start, end) in zip(decl.binders, decl.binder_spans, strict=True):
        typed = parser.spanned(group.type) if group.type is not None else None
        binders.append(BinderSpans(CharSpan(start, end), text[start], tuple(group.names),
                                   typed if typed is not None and typed.span is not None else None))
    conclusion = parser.spanned(decl.conclusion)
    assert conclusion.outer is not None  # read by `expr`, so recorded
    first = next(k for k, t in enumerate(parser.tokens) if t.start == conclusion.outer.start)
    colon = parser.tokens[first - 1]
    return DeclarationSpans(text, decl, tuple(parser.tokens), tuple(binders),
                            CharSpan(colon.start, colon.end), conclusion)
