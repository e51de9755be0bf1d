"""Where a Lean statement can be perturbed: hypotheses, relations, arithmetic operators.

The generators (:mod:`transted.sensitivity.lean.perturb`) change one thing in a statement and
keep the rest of the text byte for byte, so a string metric (BLEU) sees only the perturbation.
Our trees print back without opened namespaces (``Nat.Prime p`` → ``Prime p``, another Lean
constant), so the generators edit the text itself, at the source spans the parser read each
node from (:func:`transted.opt.spans.declaration_spans`): precedence, binders and parentheses
are the parser's own, never re-derived here.

A :class:`SpannedStatement` holds those spans with what the generators ask about them: which binder
groups are variables and which are hypotheses, each variable's declared type, the relation
sites ``lhs R rhs`` of the propositions (hypothesis types and the conclusion, descending
through ``∧ ∨ → ↔ ¬`` and quantifier bodies), and the arithmetic operators inside them.
"""

from __future__ import annotations

from bisect import bisect_left, bisect_right
from collections.abc import Iterator
from dataclasses import dataclass
from functools import cached_property

from transted.errors import TranstedError
from transted.opt import header_opens
from transted.opt.declaration import Declaration
from transted.opt.labels import BINDER_HEADS, NEG, NOT, SLOT
from transted.opt.lexer import Token
from transted.opt.node import Node
from transted.opt.scope import binder_names, body_index, is_binding
from transted.opt.spans import (
    BinderSpans,
    CharSpan,
    DeclarationSpans,
    SpannedNode,
    declaration_spans,
)

__all__ = ["SpannedStatement", "RelationSite", "ArithSite", "RELATIONS", "LOGIC", "NUMERIC_TYPES",
           "infix_symbol", "is_quantifier", "written_body", "top_level"]

RELATIONS = ("=", "<", "≤", ">", "≥", "≠", "∣", "∈", "∉", "⊆", "≡")
LOGIC = ("∧", "∨", "→", "↔")
ARITH = ("+", "-", "*", "/", "^", "%")
NUMERIC_TYPES = ("ℕ", "ℤ", "ℚ", "ℝ", "ℂ")
_BRACKET_LABELS = tuple("([{⟨⦃⌊⌈|‖")
"""First characters of a bracket notation's label (``(<SLOT> : <SLOT>)``, ``|<SLOT>|``,
``{<SLOT> | <SLOT>}`` …): its operands are written inside the brackets."""
_MODULAR = tuple(f"{SLOT} ≡ {SLOT} [{m} {SLOT}]" for m in ("MOD", "ZMOD", "PMOD"))
"""``a ≡ b [MOD n]`` and its ℤ and additive-group forms (Mathlib ``Nat.ModEq``,
``Int.ModEq``, ``AddCommGroup.ModEq``): the parser reads the bracket as a trailer."""
_QUANTIFIER_HEADS = tuple(h for h in BINDER_HEADS
                          if not h.startswith(_BRACKET_LABELS + ("let ", "have ")))


def infix_symbol(item: SpannedNode) -> str | None:
    """The operator of a binary infix node as the parser names it (``>=`` is ``≥``), the
    ``≡`` of ``a ≡ b [MOD n]``, else None."""
    label = item.node.label
    if label in _MODULAR:
        return "≡"
    prefix, suffix = f"{SLOT} ", f" {SLOT}"
    if len(item.children) != 2 or not (label.startswith(prefix) and label.endswith(suffix)):
        return None
    op = label[len(prefix):-len(suffix)]
    return op if op and " " not in op and SLOT not in op else None


def is_quantifier(item: SpannedNode) -> bool:
    """A binder notation whose body runs to the end (``∀ ∃ ∑ ∫ fun`` …, not a set-builder)."""
    return is_binding(item.node) and item.node.label.startswith(_QUANTIFIER_HEADS)


def written_body(item: SpannedNode) -> tuple[list[str], SpannedNode]:
    """Bound names and written body of a binder notation: ``∀ x y : ℕ, P`` is read as nested
    ``∀ x, ∀ y, P`` and ``∀ x > 0, P`` as ``∀ x, x > 0 → P``, nodes not written (no span)."""
    names: list[str] = []
    body = item
    while True:
        if is_binding(body.node):
            idx = body_index(body.node.label)
            assert idx is not None
            names += binder_names(body.children[0].node)
            body = body.children[idx]
        elif body.span is None and body.children:
            body = body.children[-1]
        else:
            return names, body
        if body.span is not None:
            return names, body


def top_level(item: SpannedNode) -> Iterator[SpannedNode]:
    """The nodes written outside every bracket of ``item``'s text (its operators at depth 0):
    not inside parentheses the parser read, nor inside a bracket notation's brackets."""
    stack = [item]
    while stack:
        node = stack.pop()
        if node.span is not None and node.outer != node.span:
            continue
        yield node
        if not node.node.label.startswith(_BRACKET_LABELS):
            stack.extend(reversed(node.children))


@dataclass(frozen=True)
class RelationSite:
    """``lhs op rhs`` at the operator ``op`` (as written); ``symbol`` is the parser's name of
    the operator. ``negation`` is the span of a ``¬`` whose whole operand is this relation."""

    node: SpannedNode
    symbol: str
    op: CharSpan
    lhs: CharSpan
    rhs: CharSpan
    """For ``a ≡ b [MOD n]``, ``b [MOD n]``."""
    part: int
    """Binder-group index of the hypothesis it is in, or -1 for the conclusion."""
    negation: CharSpan | None = None


@dataclass(frozen=True)
class ArithSite:
    node: SpannedNode
    symbol: str
    op: CharSpan
    lhs: SpannedNode
    rhs: SpannedNode
    parent: SpannedNode
    """The node it is an operand of (an arithmetic operator, a unary minus, the relation)."""

    @property
    def span(self) -> CharSpan:
        assert self.node.span is not None
        return self.node.span


def _site_spans(item: SpannedNode, source: str) -> tuple[CharSpan, CharSpan, CharSpan] | None:
    """(operator, lhs, rhs) spans of an infix node, or None if it was not all written."""
    gaps = item.gaps(source)
    if gaps is None or item.span is None or not len(gaps[1]):
        return None
    lhs, rhs = item.children[0].outer, item.children[1].outer
    assert lhs is not None and rhs is not None
    if item.node.label in _MODULAR:
        rhs = CharSpan(rhs.start, item.span.end)
    return gaps[1], lhs, rhs


class SpannedStatement:
    """One declaration's spans plus the facts the generators need."""

    def __init__(self, spans: DeclarationSpans, header: str | None):
        self.spans = spans
        self.source = spans.text
        self.tokens: tuple[Token, ...] = spans.tokens
        self.binders: tuple[BinderSpans, ...] = spans.binders
        self.conclusion: SpannedNode = spans.conclusion
        self.header = header or ""
        self._starts = [t.start for t in self.tokens]
        self._ends = [t.end for t in self.tokens]

    # -- text helpers ---------------------------------------------------------------------
    def text(self, span: CharSpan) -> str:
        return span.text(self.source)

    @property
    def end(self) -> int:
        """End of the conclusion: where the statement proper ends (``:=`` follows)."""
        assert self.conclusion.outer is not None
        return self.conclusion.outer.end

    @property
    def start(self) -> int:
        """Start of the first binder group (or of the ``:`` when there is none)."""
        return self.binders[0].span.start if self.binders else self.spans.colon.start

    def token_range(self, span: CharSpan) -> range:
        """Indices of the tokens inside ``span``."""
        return range(bisect_left(self._starts, span.start), bisect_right(self._ends, span.end))

    def tokens_in(self, span: CharSpan) -> list[Token]:
        r = self.token_range(span)
        return list(self.tokens[r.start:r.stop])

    def splice(self, edits: list[tuple[int, int, str]]) -> str:
        """The text with character ranges ``[start, end)`` replaced (non-overlapping)."""
        text = self.source
        for start, end, new in sorted(edits, key=lambda e: e[0], reverse=True):
            text = text[:start] + new + text[end:]
        return text

    def replace(self, span: CharSpan, new: str) -> str:
        return self.splice([(span.start, span.end, new)])

    @cached_property
    def opens(self) -> tuple[str, ...]:
        return header_opens(self.header)

    # -- binders --------------------------------------------------------------------------
    def uses(self, name: str, span: CharSpan) -> bool:
        """Does identifier ``name`` (or ``name.field``) occur in ``span``?"""
        return any(t.kind == "ident" and (t.text == name or t.text.startswith(name + "."))
                   for t in self.tokens_in(span))

    def used_after(self, name: str, at: int) -> bool:
        """Does identifier ``name`` occur from character ``at`` to the end of the statement?"""
        return self.uses(name, CharSpan(at, self.end))

    @cached_property
    def shadowed(self) -> list[str]:
        """Binder names declared again after a use: two variables the guards, which read
        names as text, cannot tell apart."""
        out = []
        for i, g in enumerate(self.binders):
            for j in range(i + 1, len(self.binders)):
                between = [self.outer(b.type) for b in self.binders[i + 1:j] if b.type]
                out += [n for n in g.names if n != "_" and n in self.binders[j].names
                        and any(self.uses(n, span) for span in between)]
        return out

    @cached_property
    def hypotheses(self) -> list[int]:
        """Indices of binder groups that are hypotheses: explicit ``( … )`` groups whose
        names are not used later and whose type is a proposition (it has a relation, a
        connective, ``¬`` or a quantifier at its top level, or the name starts with ``h``)."""
        out = []
        for i, g in enumerate(self.binders):
            if g.bracket != "(" or g.type is None or not g.names:
                continue
            if any(self.used_after(n, g.span.end) for n in g.names):
                continue
            if any(_propositional(n) for n in top_level(g.type)) or all(
                    n.startswith("h") for n in g.names):
                out.append(i)
        return out

    @cached_property
    def variables(self) -> dict[str, tuple[int, str]]:
        """Name → (group index, declared type text) for binder names used later."""
        out: dict[str, tuple[int, str]] = {}
        for i, g in enumerate(self.binders):
            if g.type is None or i in self.hypotheses:
                continue
            for n in g.names:
                if n != "_" and self.used_after(n, g.span.end):
                    out[n] = (i, self.text(self.outer(g.type)))
        return out

    def group(self, i: int) -> BinderSpans:
        return self.binders[i]

    @staticmethod
    def outer(item: SpannedNode) -> CharSpan:
        assert item.outer is not None
        return item.outer

    @cached_property
    def parts(self) -> list[tuple[int, SpannedNode]]:
        """Propositions: each hypothesis type, then the conclusion (part -1)."""
        out = [(i, self.binders[i].type) for i in self.hypotheses]
        return [(i, t) for i, t in out if t is not None] + [(-1, self.conclusion)]

    # -- sites ------------------------------------------------------------------------------
    @cached_property
    def relation_sites(self) -> list[RelationSite]:
        return [s for s in self._proposition_sites if s.symbol in RELATIONS]

    @cached_property
    def logic_sites(self) -> list[RelationSite]:
        """Connective sites ``lhs ∧ rhs`` etc. (the same walk, keeping the connectives)."""
        return [s for s in self._proposition_sites if s.symbol in LOGIC]

    @cached_property
    def _proposition_sites(self) -> list[RelationSite]:
        """Relations and connectives of the propositions, in text order per part: the walk
        descends through connectives, ``¬`` and quantifier bodies and stops at a relation
        or any other term; nodes a binder notation built (no span) are walked through."""
        out: list[RelationSite] = []
        for part, root in self.parts:
            stack: list[tuple[SpannedNode, CharSpan | None]] = [(root, None)]
            while stack:
                item, negation = stack.pop()
                symbol = infix_symbol(item)
                if item.span is None or is_binding(item.node):
                    below = item.children
                    if is_binding(item.node):
                        below = (item.children[body_index(item.node.label) or 0],)
                    stack += [(c, None) for c in reversed(below)]
                elif item.node.label == NOT:
                    stack.append((item.children[0], item.span))
                elif symbol in LOGIC or symbol in RELATIONS:
                    spans = _site_spans(item, self.source)
                    if spans is not None:
                        out.append(RelationSite(item, symbol, *spans, part,
                                                negation if symbol in RELATIONS else None))
                    if symbol in LOGIC:
                        stack += [(c, None) for c in reversed(item.children)]
        return out

    @cached_property
    def arith_sites(self) -> list[ArithSite]:
        """Binary arithmetic operators of the relation sites' sides, in text order per
        relation: the walk goes through ``+ - * / ^ %`` and unary minus (parentheses are
        part of a node) and stops at any other term (an application, a bracket notation, an
        ascription, a binder notation), whose inside a swap would not be observed directly."""
        out: list[ArithSite] = []
        for site in self.relation_sites:
            found = []
            stack = [(c, site.node) for c in site.node.children[:2]]
            while stack:
                item, parent = stack.pop()
                symbol = infix_symbol(item)
                if symbol in ARITH:
                    spans = _site_spans(item, self.source)
                    if spans is not None:
                        found.append(ArithSite(item, symbol, spans[0], item.children[0],
                                                item.children[1], parent))
                    stack += [(c, item) for c in item.children]
                elif item.node.label == NEG:
                    stack += [(c, item) for c in item.children]
            out += sorted(found, key=lambda a: a.op.start)
        return out

    # -- facts ------------------------------------------------------------------------------
    def idents(self, span: CharSpan) -> set[str]:
        return {t.text.split(".")[0] for t in self.tokens_in(span) if t.kind == "ident"}

    def numeric_type(self, span: CharSpan) -> str | None:
        """The one numeric type every variable of ``span`` has, if the span is plain
        arithmetic (variables of one type in ℕ ℤ ℚ ℝ ℂ, numerals, ``+ - * / ^ %``,
        parentheses); else None."""
        types = set()
        for t in self.tokens_in(span):
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

    def reads_as(self, text: str, item: SpannedNode, label: str) -> bool:
        """Does ``text`` (this statement edited at ``item``) parse to this statement's trees
        with ``item``'s label made ``label`` and nothing else changed? An edit that regroups
        its neighbours fails: ``A ∧ B ∧ C`` is ``A ∧ (B ∧ C)``, and with its second ``∧``
        made ``∨`` it reads ``(A ∧ B) ∨ C``."""
        try:
            edited = declaration_spans(text, header=self.header).declaration
        except TranstedError:
            return False
        expected = [_relabelled(t, item.node, label) if t is not None else None
                    for t in _terms(self.spans.declaration)]
        return _terms(edited) == expected

    def operand(self, item: SpannedNode) -> str:
        """The text of ``item`` (with the parentheses it was read with), parenthesised when
        it is an operator application that would not stay one operand beside another
        operator: an infix, a binder notation, ``¬`` or a unary minus, written bare."""
        outer = self.outer(item)
        bare = item.span == outer and (
            infix_symbol(item) is not None or is_quantifier(item) or item.node.label in (NOT, NEG))
        return f"({self.text(outer)})" if bare else self.text(outer)


def _propositional(item: SpannedNode) -> bool:
    """Is the label one a proposition is built with (a relation, a connective, ``¬``, a
    quantifier)?"""
    return (infix_symbol(item) in RELATIONS + LOGIC or item.node.label == NOT
            or is_quantifier(item))


def _terms(decl: Declaration) -> list[Node | None]:
    """The binder types and the conclusion of a declaration."""
    return [g.type for g in decl.binders] + [decl.conclusion]


def _relabelled(root: Node, target: Node, label: str) -> Node:
    """``root`` with the node ``target`` (by identity) relabelled."""
    path: list[tuple[Node, int]] = []
    stack: list[tuple[Node, list[tuple[Node, int]]]] = [(root, [])]
    while stack:
        node, above = stack.pop()
        if node is target:
            path = above
            break
        stack += [(c, above + [(node, i)]) for i, c in enumerate(node.children)]
    else:
        return root
    new = Node(label, target.children)
    for parent, i in reversed(path):
        new = parent.with_children(parent.children[:i] + (new,) + parent.children[i + 1:])
    return new
