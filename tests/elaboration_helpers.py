"""Reading an elaborated statement in the elaboration tests: the path of a labelled node and
the type there."""

from __future__ import annotations


def find(e, label: str, nth: int = 0) -> tuple[int, ...]:
    """Path of the ``nth`` node (preorder) with ``label``."""
    hits = [p for p, node, _ in e.walk() if node.label == label]
    assert len(hits) > nth, f"{label!r} not in {e.tree}"
    return hits[nth]


def ty(e, label: str, nth: int = 0) -> str:
    return e.type_at(find(e, label, nth))
