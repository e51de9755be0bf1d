"""Patterns in binders and match alternatives: what a pattern binds.

* A pattern binder — ``fun ⟨a, b⟩ => e``, ``fun (a, b) => e``, ``{(m, n) : α × β | p}``,
  ``let ⟨x, hx⟩ := v; e``, ``∑ ⟨i, j⟩ ∈ s, f i j`` — binds the names of the pattern. Lean core
  src/Lean/Elab/Binders.lean ``expandFunBinders`` turns such a binder into
  ``fun x => match x with | ⟨a, b⟩ => e``; Mathlib/Data/Set/Defs.lean's ``binderPattern``
  set-builder is ``{x : α × β | match x with | (m, n) => p}``. The tree keeps the pattern itself
  as the binder child (:func:`transted.opt.scope.is_pattern`), its names bound in the body.
* ``fun | 0 => a | n + 1 => b`` (Lean core src/Lean/Parser/Term.lean ``fun`` with
  ``matchAlts``) is ``fun x => match x with | …`` and is built so: a :data:`FUN` over a fresh
  name ``x✝`` (no user can write it), whose body is ``match x✝ with`` one
  :data:`~transted.opt.labels.ALTERNATIVE` per alternative. A pattern-matching definition's
  value (``def f : ℕ → ℝ | 0 => … | (n + 1) => …``) is the same tree. Each alternative binds
  its pattern variables in its right-hand side (:func:`transted.opt.scope.pattern_names`).

These are functions over the parser's :class:`~transted.opt.cursor.TermCursor`, used by the
parser (``match``) and by the binder notations.
"""

from __future__ import annotations

from transted.opt.brackets import anonymous_constructor
from transted.opt.cursor import TermCursor
from transted.opt.labels import ALTERNATIVE, FUN, match_label, match_pattern
from transted.opt.node import Node
from transted.opt.pattern_binders import is_pattern, pattern_names

__all__ = ["pattern_binder", "match_alternatives", "match_fun", "match_expr", "MATCH_VARIABLE",
           "tuple_pattern_ahead"]

MATCH_VARIABLE = "x✝"
"""The discriminant of ``fun | …``: an inaccessible name, as Lean prints it."""


def tuple_pattern_ahead(p: TermCursor) -> bool:
    """``(a, …`` : a tuple pattern rather than a binder group ``(a b : T)``."""
    return p.at("(") and p.peek(2).text == ","


def pattern_binder(p: TermCursor) -> Node:
    """An anonymous-constructor or tuple pattern (at ``⟨`` or ``(``), checked to bind only
    names; anything else is refused with its position (a constructor application or a numeral
    in a binder is a match we do not model)."""
    start = p.tok
    node = anonymous_constructor(p) if p.at("⟨") else p.expr(1024)
    if not is_pattern(node):
        raise p.error("unsupported pattern in a binder: only ⟨…⟩ and (…, …) over names and _",
                      start)
    return node


def match_alternatives(p: TermCursor, arity: int | None = None) -> list[Node]:
    """``| p₁, … => e | …`` (at the first ``|``): one :data:`ALTERNATIVE` node each, every
    one with ``arity`` patterns (by default as many as the first)."""
    alternatives = []
    while p.at("|"):
        bar = p.advance()
        patterns = [p.expr(0)]
        while p.accept(","):
            patterns.append(p.expr(0))
        arity = len(patterns) if arity is None else arity
        if len(patterns) != arity:
            raise p.error(f"this alternative has {len(patterns)} pattern(s), expected {arity}",
                          bar)
        p.expect("=>")
        binder = Node(match_pattern(len(patterns)), tuple(patterns))
        with p.binding(pattern_names(binder)):
            rhs = p.expr(0)
        alternatives.append(Node(ALTERNATIVE, (binder, rhs)))
    if not alternatives:
        raise p.error(f"expected '|' to start a match alternative, found {p.describe(p.tok)}")
    return alternatives


def match_expr(p: TermCursor) -> Node:
    """``match e₁, e₂ with | p₁, p₂ => r | …`` (Lean core src/Lean/Parser/Term.lean
    ``«match»``; a discriminant's ``h :`` name is not kept)."""
    p.advance()
    discriminants = []
    while True:
        if p.tok.kind == "ident" and p.peek().text == ":":
            p.advance(), p.advance()
        discriminants.append(p.expr(0))
        if not p.accept(","):
            break
    p.expect("with")
    alternatives = match_alternatives(p, len(discriminants))
    return Node(match_label(len(discriminants), len(alternatives)),
                (*discriminants, *alternatives))


def match_fun(alternatives: list[Node]) -> Node:
    """``fun x✝ => match x✝ with alternatives`` (Lean's reading of ``fun | …``); with ``k``
    patterns per alternative, ``k`` arguments ``x✝ x✝¹ …``."""
    arity = len(alternatives[0].children[0].children)
    names = [MATCH_VARIABLE + _superscript(i) for i in range(arity)]
    body = Node(match_label(arity, len(alternatives)),
                (*(Node(n) for n in names), *alternatives))
    for name in reversed(names):
        body = Node(FUN, (Node(name), body))
    return body


def _superscript(i: int) -> str:
    return "" if i == 0 else str(i).translate(str.maketrans("0123456789", "⁰¹²³⁴⁵⁶⁷⁸⁹"))
