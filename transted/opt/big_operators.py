"""Big operators and filter quantifiers: Mathlib's binder notations over extended binders.

* ``∑ ∏`` (Mathlib/Algebra/BigOperators/Group/Finset/Defs.lean, ``bigOpBinders``: one binder
  ``x``, ``x : T``, ``x ∈ s``, ``x < n``, a pattern ``⟨i, j⟩ ∈ s``, or parenthesized ones
  ``(i ∈ s) (j ∈ t)``; ``x ∈ s with p x`` ranges over ``s.filter p``; body ``r:67``).
* ``⋃ ⋂ ⨆ ⨅ ∑' ∏'`` (Mathlib/Order/SetNotation.lean, Mathlib/Topology/Algebra/InfiniteSum/
  Defs.lean: ``notation3 "⋃ "(...)", "r:60:(scoped f => iUnion f) => r``; ``(...)`` is Batteries'
  ``extBinders``: one ``extBinder`` or several parenthesized ones, ``(i : ℕ) (j : ℕ)``,
  ``(_ : a < b)``).
* ``∀ᶠ x in l, p`` / ``∃ᶠ x in l, p`` (Mathlib/Order/Filter/Defs.lean: ``notation3 "∀ᶠ "(...)"
  in "f", "r:(scoped p => Filter.Eventually p f) => r``, likewise ``Filter.Frequently``).
* ``∫ x in a..b, f ∂μ`` (Mathlib/MeasureTheory/Integral/Bochner.lean, intervalIntegral).

Several binders give one node per binder, nested left to right (``notation3``'s ``scoped``
folds per binder; a Finset sum over several binders is the sum over their product, equal to
the nested sums by ``Finset.sum_product``), each binding its names in what follows. In the
grouped shape (``split_binders`` off) a parenthesized group stays one node, as for ``∀``.
"""

from __future__ import annotations

from dataclasses import dataclass

from transted.opt.binders import (
    BINDER_PREDICATES,
    bracketed_group,
    names_until,
)
from transted.opt.cursor import TermCursor
from transted.opt.labels import FUN, SLOT, application, binder_label, bounded_binder_label
from transted.opt.node import Node
from transted.opt.pattern_binders import pattern_names
from transted.opt.patterns import pattern_binder, tuple_pattern_ahead
from transted.opt.scope import binder_node

__all__ = ["big_operator", "filter_quantifier", "integral"]


@dataclass(frozen=True)
class _Bound:
    binder: Node
    names: tuple[str, ...]
    domain: tuple[str, Node] | None = None


def _domain(p: TermCursor) -> tuple[str, Node] | None:
    """``in s`` (Lean 3 style, still accepted), ``∈ s``, ``< n``… after a binder."""
    if p.accept("in"):
        return "∈", p.expr(51)
    if p.tok.kind == "sym" and p.tok.text in BINDER_PREDICATES:
        op = p.advance().text
        return op, p.expr(51)
    return None


@dataclass(frozen=True)
class _Group:
    names: list[str]
    type: Node | None
    domain: tuple[str, Node] | None
    pattern: Node | None = None

    def bound(self, split: bool) -> list[_Bound]:
        if self.pattern is not None:
            return [_Bound(self.pattern, tuple(pattern_names(self.pattern)), self.domain)]
        if not split or len(self.names) == 1:
            named = tuple(n for n in self.names if n != "_")
            return [_Bound(binder_node(self.names, self.type), named, self.domain)]
        return [_Bound(binder_node([n], self.type), (n,) if n != "_" else (), self.domain)
                for n in self.names]


def _parenthesized(p: TermCursor) -> _Group:
    """One ``(x y : T)`` / ``(x ∈ s)`` / ``(_ : a < b)`` / ``((a, b) ∈ s)`` group."""
    if tuple_pattern_ahead(p):
        pattern = pattern_binder(p)
        return _Group([], None, None, pattern)
    p.expect("(")
    if p.at("(", "⟨"):
        pattern = pattern_binder(p)
        group = _Group([], None, _domain(p), pattern)
    else:
        names = names_until(p, ")")
        ty = p.expr(0) if p.accept(":") else None
        group = _Group(names, ty, _domain(p) if ty is None else None)
    p.expect(")")
    return group


def _binders(p: TermCursor, *, domains: bool = True) -> list[_Bound]:
    """The binders before ``,`` (or ``in`` for a filter quantifier, ``domains`` off)."""
    if p.at("("):
        groups = [_parenthesized(p)]
        while p.at("("):
            groups.append(_parenthesized(p))
        if len(groups) == 1 and groups[0].domain is None and domains:
            # one group, then its domain (`∑ (i : Fin n) in s, …`), read as one binder node
            # as written, whatever `split_binders` says (the trees of this form are unchanged)
            g = groups[0]
            return _Group(g.names, g.type, _domain(p), g.pattern).bound(split=False)
        return [b for g in groups for b in g.bound(p.split)]
    if p.at("⟨"):
        pattern = pattern_binder(p)
        return [_Bound(pattern, tuple(pattern_names(pattern)), _domain(p) if domains else None)]
    names = names_until(p, ",")
    ty = p.expr(51) if p.accept(":") else None
    return [_Bound(binder_node(names, ty), tuple(n for n in names if n != "_"),
                   _domain(p) if domains else None)]


def _filtered(p: TermCursor, bound: list[_Bound]) -> list[_Bound]:
    """``∑ x ∈ s with p x, f x`` is ``∑ x ∈ s.filter (fun x ↦ p x), f x``
    (Mathlib/Algebra/BigOperators/Group/Finset/Defs.lean, ``bigOpBinder``'s ``with``)."""
    if not p.at("with"):
        return bound
    if len(bound) != 1 or bound[0].domain is None or bound[0].domain[0] != "∈":
        raise p.error("`with` filters one binder ranging over a finset (`x ∈ s with p x`)")
    p.advance()
    b = bound[0]
    with p.binding(list(b.names)):
        predicate = p.expr(0)
    assert b.domain is not None
    kept = Node(application("Finset.filter", 2), (Node(FUN, (b.binder, predicate)), b.domain[1]))
    return [_Bound(b.binder, b.names, ("∈", kept))]


def big_operator(p: TermCursor) -> Node:
    """``∑ x ∈ s, f`` (``in`` accepted), ``∑ x, f``, ``∑ x : T, f``, ``∑ i < n, f``,
    ``∑ x ∈ s with p x, f``, ``⋃ (i : ℕ) (j : ℕ), A i j``; the body at the notation's
    precedence (67 or 60)."""
    sym = p.advance().text
    body_prec = p.table.binder_body_prec.get(sym, 67)
    bound = _filtered(p, _binders(p))
    p.expect(",")
    with p.binding([n for b in bound for n in b.names]):
        body = p.expr(body_prec)
    for b in reversed(bound):
        if b.domain is None:
            body = Node(binder_label(sym), (b.binder, body))
        else:
            body = Node(bounded_binder_label(sym, b.domain[0]), (b.binder, b.domain[1], body))
    return body


def filter_quantifier(p: TermCursor) -> Node:
    """``∀ᶠ x in l, p`` / ``∃ᶠ x in l, p`` (binder, filter, body; the body extends as far as
    possible, as ``∀``'s does)."""
    sym = p.advance().text
    bound = _binders(p, domains=False)
    p.expect("in")
    filter_ = p.expr(0)
    p.expect(",")
    with p.binding([n for b in bound for n in b.names]):
        body = p.expr(0)
    for b in reversed(bound):
        body = Node(f"{sym} {SLOT} in {SLOT}, {SLOT}", (b.binder, filter_, body))
    return body


def integral(p: TermCursor) -> Node:
    """``∫ x in a..b, f``, ``∫ x in s, f``, ``∫ x, f`` with an optional ``∂μ``."""
    p.advance()
    if p.at("("):
        group = bracketed_group(p)
        names, ty = group.names, group.type
    else:
        names = names_until(p, ",")
        ty = p.expr(51) if p.accept(":") else None
    binder = binder_node(names, ty)
    parts: list[Node] = []
    label = f"∫ {SLOT}"
    if p.accept("in"):
        lower = p.expr(51)
        if p.accept(".."):
            parts += [lower, p.expr(51)]
            label += f" in {SLOT}..{SLOT}"
        else:
            parts.append(lower)
            label += f" in {SLOT}"
    p.expect(",")
    with p.binding(names):
        body = p.expr(p.table.binder_body_prec.get("∫", 60))
    label += f", {SLOT}"
    children = (binder, *parts, body)
    if p.accept("∂"):
        label += f" ∂{SLOT}"
        children += (p.expr(1024),)
    return Node(label, children)
