"""Binders that are patterns, and the names they bind.

A ``fun``, set-builder, ``let`` or big-operator binder may be an anonymous-constructor or tuple
pattern (``fun ⟨a, b⟩ => e``: Lean core src/Lean/Elab/Binders.lean ``expandFunBinders`` makes it
``fun x => match x with | ⟨a, b⟩ => e``), and a match alternative binds the variables of its
patterns (:data:`~transted.pipeline.opt.labels.ALTERNATIVE`). :mod:`transted.pipeline.opt.scope` asks this module
which names such a binder introduces; the parser side is :mod:`transted.pipeline.opt.patterns`.
"""

from __future__ import annotations

from transted.pipeline.opt.labels import anonymous, match_pattern, tuple_of
from transted.pipeline.opt.node import Node

__all__ = ["is_pattern", "is_match_pattern", "pattern_names", "renamed_pattern", "usable_name",
           "CONSTRUCTOR_LEAVES", "CANON_PREFIX"]

CANON_PREFIX = "#"
"""Canonical names are ``#1``, ``#2``… (:func:`transted.pipeline.opt.canonical.canonical`)."""


def usable_name(name: str) -> bool:
    """A name that binds: not ``_``, not empty, not a metavariable ``?a``."""
    return name not in ("_", "") and not name.startswith("?")


def _pattern_label(label: str, arity: int) -> bool:
    return label == anonymous(arity) or (arity >= 2 and label == tuple_of(arity))


def is_pattern(node: Node) -> bool:
    """An anonymous-constructor or tuple pattern ``⟨a, b⟩``/``(a, ⟨b, _⟩)`` over names and
    ``_`` (no numerals): what ``fun``, set-builder, ``let`` and big-operator binders may bind
    instead of a name (Lean core src/Lean/Elab/Binders.lean ``expandFunBinders``: such a
    binder is ``fun x => match x with | pattern => body``, the pattern's names bound)."""
    stack = [node]
    while stack:
        n = stack.pop()
        if not _pattern_label(n.label, len(n.children)):
            return False
        for c in n.children:
            if c.is_leaf:
                if not c.label or c.label[0].isdigit() or c.label[0] in "\"'?":
                    return False
            else:
                stack.append(c)
    return True


def pattern_names(pattern: Node) -> list[str]:
    """The names a pattern binds, left to right (``_`` binds none)."""
    if is_match_pattern(pattern):
        return list(dict.fromkeys(n.label for n in pattern.preorder()
                                  if n.is_leaf and _is_pattern_variable(n.label)))
    return [n.label for n in pattern.preorder() if n.is_leaf and usable_name(n.label)]


CONSTRUCTOR_LEAVES = frozenset({"none", "true", "false", "zero", "nil", "unit", "rfl", "trivial",
                                "True", "False", "PUnit.unit", "Unit.unit"})
"""Constructors written without arguments in patterns (``| none => …``, ``| zero => …``
under ``open Nat``). In a pattern Lean reads an identifier as a constructor when it resolves
to one and as a new pattern variable otherwise (Lean core src/Lean/Elab/PatternVar.lean,
``collectPatternVars``); offline, an atomic name outside this list is taken as a variable."""


def _is_pattern_variable(label: str) -> bool:
    return (usable_name(label) and "." not in label and label not in CONSTRUCTOR_LEAVES
            and not label[0].isdigit() and label[0] not in "\"'")


def is_match_pattern(node: Node) -> bool:
    """The binder child of a match alternative (:data:`~transted.pipeline.opt.labels.ALTERNATIVE`):
    ``pattern(<SLOT>, …)`` over the patterns of the discriminants."""
    return bool(node.children) and node.label == match_pattern(len(node.children))


def renamed_pattern(pattern: Node, first: int) -> tuple[Node, int]:
    """``pattern`` with its names ``#first+1``, ``#first+2``… left to right, and the last
    level used (the order :func:`pattern_names` pushes them in)."""
    names = pattern_names(pattern)
    canon = {n: f"{CANON_PREFIX}{first + i + 1}" for i, n in enumerate(dict.fromkeys(names))}

    def leaf(n: Node) -> Node:
        return Node(canon[n.label]) if n.label in canon else n
    done: dict[int, Node] = {}
    stack: list[tuple[Node, bool]] = [(pattern, False)]
    while stack:
        n, expanded = stack.pop()
        if n.is_leaf:
            done[id(n)] = leaf(n)
        elif expanded:
            done[id(n)] = Node(n.label, tuple(done[id(c)] for c in n.children))
        else:
            stack.append((n, True))
            stack.extend((c, False) for c in n.children)
    return done[id(pattern)], first + len(canon)
