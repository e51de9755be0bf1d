"""Bounded answer memos for the search's per-process answers, and a subtree as a dict key.

A search meets the same subterm and the same goal side in state after state; the answers kept
by these memos are functions of their keys alone, so a kept answer is the one a fresh
computation gives and a full memo is simply cleared (only speed changes).
"""

from __future__ import annotations

from collections.abc import Callable, Hashable
from typing import Generic, TypeVar, cast

from transted.pipeline.opt.node import Node

__all__ = ["Memo", "NodeKey"]

K = TypeVar("K", bound=Hashable)
V = TypeVar("V")
_MISSING = object()


class Memo(Generic[K, V]):
    """Answers by key, at most ``limit`` of them (cleared when full)."""

    def __init__(self, limit: int) -> None:
        self.limit = limit
        self._answers: dict[K, V] = {}

    def get(self, key: K, compute: Callable[[], V]) -> V:
        value = self._answers.get(key, _MISSING)  # one dict operation: safe beside a clear
        if value is _MISSING:
            value = compute()
            self.put(key, value)
        return cast(V, value)

    def lookup(self, key: K) -> tuple[bool, V | None]:
        """``(True, answer)`` when kept, else ``(False, None)``."""
        value = self._answers.get(key, _MISSING)
        return (False, None) if value is _MISSING else (True, cast(V, value))

    def put(self, key: K, value: V) -> None:
        if len(self._answers) >= self.limit:
            self._answers.clear()
        self._answers[key] = value


class NodeKey:
    """A subtree as a dict key, with its hash given (:func:`~transted.pipeline.search.pattern.
    subtree_hashes` hashes a whole tree's subtrees in one pass; ``Node.__hash__`` walks the
    subtree at every call). Equal keys are equal subtrees."""

    __slots__ = ("node", "_hash")

    def __init__(self, node: Node, hashed: int) -> None:
        self.node = node
        self._hash = hashed

    def __hash__(self) -> int:
        return self._hash

    def __eq__(self, other: object) -> bool:
        return isinstance(other, NodeKey) and self.node == other.node
