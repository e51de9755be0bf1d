"""A discrimination tree: the lemmas whose pattern can match a term, without trying the others.

Lean's ``rw?`` (``Lean.Meta.Rewrites``, on ``Lean.Meta.LazyDiscrTree``) keys every lemma by the
preorder sequence of its left-hand side's head symbols and literals, a metavariable being a
*star* that matches any subterm; a goal's subterm is looked up by walking its own preorder
through the trie, following the symbol's branch and the star branch (which skips the whole
subterm). What comes out is every lemma whose keys are *compatible* with the term — a superset
of those that match, which unification then decides — and the walk visits only branches the
term's symbols take, so its time does not grow with the number of lemmas stored.

Keys here are operator-tree labels (a label carries its arity: ``<SLOT> + <SLOT>``,
``Nat.choose <SLOT> <SLOT>``), numerals as written, and :data:`STAR` for a pattern variable, an
application of one (``?f x``: higher-order, matched by unification), a variable bound inside the
pattern (alpha-renaming: any name) and a binder (``∑ x ∈ s``'s ``x``, typed or not).
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from typing import Generic, TypeVar

from transted.pipeline.opt.node import Node
from transted.pipeline.opt.scope import AFTER_BODY, head_name, scope_parts

__all__ = ["STAR", "pattern_keys", "DiscriminationTree"]

STAR = "*"
"""The key of a subterm the pattern leaves open (matches any subterm)."""

V = TypeVar("V")


def pattern_keys(pattern: Node, is_variable: Callable[[str], bool]) -> tuple[str, ...]:
    """The preorder keys of ``pattern``; ``is_variable`` says which names are the lemma's
    variables (leaves or application heads: a star each)."""
    out: list[str] = []
    stack: list[tuple[Node, frozenset[str], bool]] = [(pattern, frozenset(), False)]
    while stack:
        node, bound, is_binder = stack.pop()
        if is_binder or _open(node, bound, is_variable):
            out.append(STAR)
            continue
        out.append(node.label)
        parts = scope_parts(node)
        if parts is None:
            stack.extend((c, bound, False) for c in reversed(node.children))
            continue
        inner, pending = bound, []
        for child, names, binder in parts:
            if names == AFTER_BODY:  # after the body: outside the binder's scope
                pending.append((child, bound, binder))
                continue
            pending.append((child, inner, binder))
            inner = inner | frozenset(names)
        stack.extend(reversed(pending))
    return tuple(out)


def _open(node: Node, bound: frozenset[str], is_variable: Callable[[str], bool]) -> bool:
    if node.is_leaf:
        return node.label in bound or is_variable(node.label)
    head = head_name(node.label, len(node.children))
    if head is not None and (head in bound or is_variable(head)):
        return True
    # `<SLOT> <SLOT>`: an application whose head is a term (a variable, a `fun`)
    first = node.children[0]
    return node.label.startswith("<SLOT> <SLOT>") and first.is_leaf and (
        first.label in bound or is_variable(first.label))


@dataclass(slots=True)
class _Trie(Generic[V]):
    children: dict[str, _Trie[V]] = field(default_factory=dict)
    values: list[V] = field(default_factory=list)


_Todo = tuple[Node, "_Todo"] | None
"""The subterms still to walk, as a linked list (pushing children shares the tail)."""


class DiscriminationTree(Generic[V]):
    """Values stored under key sequences; :meth:`retrieve` gives those compatible with a term."""

    def __init__(self) -> None:
        self._root: _Trie[V] = _Trie()
        self.size = 0

    def insert(self, keys: tuple[str, ...], value: V) -> None:
        node = self._root
        for key in keys:
            nxt = node.children.get(key)
            if nxt is None:
                nxt = node.children[key] = _Trie()
            node = nxt
        node.values.append(value)
        self.size += 1

    def retrieve(self, term: Node) -> list[V]:
        """Every value whose keys are compatible with ``term``'s preorder, in insertion
        order per key sequence (deterministic)."""
        return list(self._walk(self._root, (term, None)))

    @staticmethod
    def _walk(start: _Trie[V], todo: _Todo) -> Iterator[V]:
        stack: list[tuple[_Trie[V], _Todo]] = [(start, todo)]
        while stack:
            node, pending = stack.pop()
            if pending is None:
                yield from node.values
                continue
            term, rest = pending
            exact = node.children.get(term.label)
            if exact is not None:
                nxt = rest
                for child in reversed(term.children):
                    nxt = (child, nxt)
                stack.append((exact, nxt))
            star = node.children.get(STAR)
            if star is not None:
                stack.append((star, rest))
