"""Where a Lean statement can be perturbed: hypotheses, relations, arithmetic operators.

A :class:`Statement` wraps the :class:`~transted.sensitivity.lean.spans.Skeleton` of one
declaration with what the generators ask about it: which binder groups are variables and
which are hypotheses, each variable's declared type, the relation sites ``lhs R rhs`` of the
propositions (hypothesis types and the conclusion, descending through ``∧ ∨ → ↔ ¬`` and
quantifier bodies), and the arithmetic sites inside relation operands.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import cached_property

from transted.opt.notation import NotationTable, load_notation
from transted.sensitivity.lean.spans import (
    BINDER_TOKENS,
    Group,
    Skeleton,
    Span,
    root_split,
    strip_parens,
    text_of,
)

__all__ = ["Statement", "RelationSite", "ArithSite", "RELATIONS", "LOGIC", "NUMERIC_TYPES",
           "splice"]

RELATIONS = ("=", "<", "≤", ">", "≥", "≠", "∣", "∈", "∉", "⊆", "≡")
LOGIC = ("∧", "∨", "→", "↔")
ARITH = ("+", "-", "*", "/", "^", "%")
NUMERIC_TYPES = ("ℕ", "ℤ", "ℚ", "ℝ", "ℂ")


@dataclass(frozen=True)
class RelationSite:
    """``lhs op rhs`` at token ``op``; ``negation`` is the index of a ``¬`` whose whole
    operand is this relation (``outer`` then spans ``¬ … rhs``), else None."""

    op: int
    lhs: Span
    rhs: Span
    part: int
    """Binder-group index of the hypothesis it is in, or -1 for the conclusion."""
    negation: int | None = None
    outer: Span | None = None


@dataclass(frozen=True)
class ArithSite:
    op: int
    lhs: Span
    rhs: Span


def splice(sk: Skeleton, edits: list[tuple[int, int, str]]) -> str:
    """The statement text with character ranges ``[start, end)`` replaced (non-overlapping)."""
    text = sk.text
    for start, end, new in sorted(edits, key=lambda e: e[0], reverse=True):
        text = text[:start] + new + text[end:]
    return text


class Statement:
    """One declaration's skeleton plus the facts the generators need."""

    def __init__(self, sk: Skeleton, header: str | None, table: NotationTable | None = None):
        self.sk = sk
        self.header = header or ""
        self.table = table or load_notation()

    # -- text helpers ---------------------------------------------------------------------
    def text(self, span: Span) -> str:
        return text_of(self.sk, span)

    def chars(self, span: Span) -> tuple[int, int]:
        return self.sk.tokens[span.start].start, self.sk.tokens[span.end - 1].end

    def tok(self, k: int) -> str:
        return self.sk.tokens[k].text

    @cached_property
    def opens(self) -> tuple[str, ...]:
        from transted.opt import header_opens

        return header_opens(self.header)

    # -- binders --------------------------------------------------------------------------
    def used_after(self, name: str, k: int) -> bool:
        """Does identifier ``name`` (or ``name.field``) occur at token index >= ``k``?"""
        return any(t.kind == "ident" and (t.text == name or t.text.startswith(name + "."))
                   for t in self.sk.tokens[k:self.sk.conclusion.end])

    @cached_property
    def hypotheses(self) -> list[int]:
        """Indices of binder groups that are hypotheses: explicit ``( … )`` groups whose
        names are not used later and whose type is a proposition (it has a relation, a
        connective, ``¬`` or a quantifier at its top level, or the name starts with ``h``)."""
        out = []
        for i, g in enumerate(self.sk.groups):
            if g.bracket != "(" or g.type is None or not g.names:
                continue
            if any(self.used_after(n, g.span.end) for n in g.names):
                continue
            top = [self.tok(k) for k in range(g.type.start, g.type.end)
                   if self.sk.depth[k] == self.sk.depth[g.type.start]]
            if (any(t in RELATIONS + LOGIC + ("¬",) + BINDER_TOKENS for t in top)
                    or all(n.startswith("h") for n in g.names)):
                out.append(i)
        return out

    @cached_property
    def variables(self) -> dict[str, tuple[int, str]]:
        """Name → (group index, declared type text) for binder names used later."""
        out: dict[str, tuple[int, str]] = {}
        for i, g in enumerate(self.sk.groups):
            if g.type is None or i in self.hypotheses:
                continue
            for n in g.names:
                if n != "_" and self.used_after(n, g.span.end):
                    out[n] = (i, self.text(g.type))
        return out

    def group(self, i: int) -> Group:
        return self.sk.groups[i]

    @cached_property
    def parts(self) -> list[tuple[int, Span]]:
        """Proposition spans: each hypothesis type, then the conclusion (part -1)."""
        out = [(i, self.sk.groups[i].type) for i in self.hypotheses]
        return [(i, s) for i, s in out if s is not None] + [(-1, self.sk.conclusion)]

    # -- sites ------------------------------------------------------------------------------
    @cached_property
    def relation_sites(self) -> list[RelationSite]:
        out: list[RelationSite] = []
        for part, span in self.parts:
            self._relations(span, part, out, None)
        return out

    @cached_property
    def logic_sites(self) -> list[RelationSite]:
        """Connective sites ``lhs ∧ rhs`` etc. (the same walk, keeping the connectives)."""
        out: list[RelationSite] = []
        for part, span in self.parts:
            self._relations(span, part, out, None, logic=True)
        return out

    def _relations(self, span: Span, part: int, out: list[RelationSite],
                   negation: tuple[int, Span] | None, *, logic: bool = False) -> None:
        if len(span) == 0:
            return
        inner = strip_parens(self.sk, span)
        first = self.tok(inner.start)
        if first in BINDER_TOKENS:
            base = self.sk.depth[inner.start]
            comma = next((k for k in range(inner.start, inner.end)
                          if self.sk.depth[k] == base and self.tok(k) == ","), None)
            if comma is not None:
                self._relations(Span(comma + 1, inner.end), part, out, None, logic=logic)
            return
        k = root_split(self.sk, inner, self.table)
        if k is None:
            if first == "¬":
                self._relations(Span(inner.start + 1, inner.end), part, out,
                                (inner.start, inner), logic=logic)
            return
        op = self.tok(k)
        lhs, rhs = Span(inner.start, k), Span(k + 1, inner.end)
        if op in LOGIC:
            if logic:
                out.append(RelationSite(k, lhs, rhs, part))
            self._relations(lhs, part, out, None, logic=logic)
            self._relations(rhs, part, out, None, logic=logic)
        elif op in RELATIONS and not logic:
            neg, outer = (negation if negation is not None else (None, None))
            out.append(RelationSite(k, lhs, rhs, part, neg, outer))

    def arith_sites(self, span: Span) -> list[ArithSite]:
        """Binary arithmetic operators inside ``span`` (an operand of a relation)."""
        out: list[ArithSite] = []
        stack = [span]
        while stack:
            s = stack.pop()
            if len(s) == 0:
                continue
            inner = strip_parens(self.sk, s)
            k = root_split(self.sk, inner, self.table)
            if k is None:
                if self.tok(inner.start) == "-":
                    stack.append(Span(inner.start + 1, inner.end))
                continue
            if self.tok(k) in ARITH:
                out.append(ArithSite(k, Span(inner.start, k), Span(k + 1, inner.end)))
                stack += [Span(inner.start, k), Span(k + 1, inner.end)]
        return sorted(out, key=lambda a: a.op)

    @cached_property
    def all_arith_sites(self) -> list[ArithSite]:
        out: list[ArithSite] = []
        for site in self.relation_sites:
            out += self.arith_sites(site.lhs) + self.arith_sites(site.rhs)
        return out

    # -- facts ------------------------------------------------------------------------------
    def idents(self, span: Span) -> set[str]:
        return {t.text.split(".")[0] for t in self.sk.tokens[span.start:span.end]
                if t.kind == "ident"}

    def numeric_type(self, span: Span) -> str | None:
        """The one numeric type every variable of ``span`` has, if the span is plain
        arithmetic (variables of one type in ℕ ℤ ℚ ℝ ℂ, numerals, ``+ - * / ^ %``,
        parentheses); else None."""
        types = set()
        for t in self.sk.tokens[span.start:span.end]:
            if t.kind == "num" and t.text.isdigit():
                continue
            if t.kind == "ident" and t.text in self.variables:
                types.add(self.variables[t.text][1])
                continue
            if t.kind == "sym" and t.text in ARITH + ("(", ")"):
                continue
            return None
        if len(types) != 1:
            return None
        (ty,) = types
        return ty if ty in NUMERIC_TYPES else None

    def top_tokens(self, span: Span) -> list[str]:
        base = self.sk.depth[span.start] if len(span) else 0
        return [self.tok(k) for k in range(span.start, span.end) if self.sk.depth[k] == base]

    def needs_parens(self, span: Span) -> bool:
        """Whether the text of ``span`` must be parenthesised to stay one operand."""
        inner = strip_parens(self.sk, span)
        if len(inner) != len(span):
            return False
        return len(span) > 1 and (root_split(self.sk, span, self.table) is not None
                                  or self.tok(span.start) in BINDER_TOKENS + ("¬", "-"))

    def operand(self, span: Span) -> str:
        text = self.text(span)
        return f"({text})" if self.needs_parens(span) else text
