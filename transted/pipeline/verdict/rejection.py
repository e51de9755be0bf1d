"""A candidate Lean rejects is not equivalent: which elaboration issues say so with certainty.

The offline elaboration records why a statement may not be what its tree says
(:mod:`transted.pipeline.opt.elaborate`); some issues say Lean rejects the text, but the model is sure of
only a few of them. A candidate that does not elaborate is no statement at all, so it is not
equivalent to the reference (issue 31: ``n * 0.25`` with ``n : ℕ`` needs ``OfScientific ℕ``,
which Lean core and Mathlib do not provide). :func:`rejection` returns such an issue only where
the model cannot be wrong about it:

* a **missing instance at a number type** (ℕ ℤ ℚ ℝ ℂ, whose instances the bundled table lists
  completely, docs/NAMES.md) on a literal, an operator notation (``-x``, ``x⁻¹``, ``|x|``) or a
  constant written in full (``Finset.Icc``): not on a short name, which the header's ``open``s
  may make another constant (``abs`` vs ``Complex.abs``), and never ``Neg``: ``-x`` over a
  variable whose type Lean settles by its default instances (``instNegInt`` makes ``-x = 3``
  an integer statement) is not modelled yet, so a ``Neg ℕ`` the model reports may be its own;
* a **type mismatch between two number types** with no coercion between them (``ℤ`` where
  ``ℕ`` is expected: Lean has no ``ℤ → ℕ`` coercion).

When the reference itself is rejected the same way, the model is more likely wrong than the data
set: no decision is made from it.
"""

from __future__ import annotations

import re

from transted.pipeline.opt.elaborate import Elaboration, Issue
from transted.pipeline.opt.labels import SLOT

__all__ = ["rejection"]

_NUMBER_TYPES = ("ℕ", "ℤ", "ℚ", "ℝ", "ℂ")
_MISSING = re.compile(r"^no (\S+) instance at (\S+)$")
_MISMATCH = re.compile(r"^has type (\S+), expected (\S+) \(no coercion\)$")
_IDENTIFIER = re.compile(r"^[^\W\d]\w*$")
_LITERAL = re.compile(r"^\d+(\.\d+)?([eE][+-]?\d+)?$")


def rejection(elaboration: Elaboration | None) -> Issue | None:
    """An issue that certainly makes Lean reject the statement, or None."""
    if elaboration is None:
        return None
    for issue in elaboration.issues:
        if issue.kind == "missing-instance" and _sure_missing(elaboration, issue):
            return issue
        if issue.kind == "type-mismatch" and _sure_mismatch(issue):
            return issue
    return None


def _sure_missing(el: Elaboration, issue: Issue) -> bool:
    found = _MISSING.match(issue.message)
    if found is None or found.group(2) not in _NUMBER_TYPES or found.group(1) == "Neg":
        return False
    if _short_constant_under(el, issue.path):
        return False
    label = el.node_at(issue.path).label
    if _LITERAL.match(label):
        return True
    head = label.split(" ", 1)[0]
    return label.startswith(SLOT) or head.startswith(("-", "|", "⌊", "⌈")) or "." in head


def _sure_mismatch(issue: Issue) -> bool:
    found = _MISMATCH.match(issue.message)
    return found is not None and found.group(1) in _NUMBER_TYPES and \
        found.group(2) in _NUMBER_TYPES


def _short_constant_under(el: Elaboration, path: tuple[int, ...]) -> bool:
    """A constant written as a short name at or under ``path``: the type the issue is about may
    come from it, and the header's ``open``s may make it another constant (``abs`` under
    ``open Complex``: Lean tries ``Complex.abs`` too and keeps the reading that elaborates)."""
    for at, node_type in el.nodes.items():
        if node_type.constant is None or at[:len(path)] != path:
            continue
        head = el.node_at(at).label.split(" ", 1)[0]
        if _IDENTIFIER.match(head) and "." not in head:  # notation (`|x|`) is no name
            return True
    return False
