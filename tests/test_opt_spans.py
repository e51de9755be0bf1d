"""Source spans from the parser (transted.opt.spans): each node's text, read by the parser itself.

Expected offsets are found in the text by ``str.index`` of the written substring (so they are
derived, not typed in); the corpus tests check, on the 859 bundled statements, that the span
API builds the plain parser's trees and that every span's text parses back to its node.
"""

from __future__ import annotations

import pytest
from tiers import every_nth_fast

from transted.errors import ParseError
from transted.opt import parse_term
from transted.opt.declaration import header_opens, parse_declaration
from transted.opt.notation import load_notation
from transted.opt.parser import TermParser
from transted.opt.scope import binder_names, body_index, is_binding
from transted.opt.spans import CharSpan, SpannedNode, declaration_spans, term_spans


def at(text: str, piece: str, nth: int = 0) -> CharSpan:
    """The span of the ``nth`` occurrence of ``piece`` in ``text``."""
    start = -1
    for _ in range(nth + 1):
        start = text.index(piece, start + 1)
    return CharSpan(start, start + len(piece))


def test_operands_operators_and_parentheses():
    text = "(a + b) * c = d -> ¬ p ∧ f x y"
    root = term_spans(text)
    assert root.node == parse_term(text)
    assert root.node.label == "<SLOT> → <SLOT>" and root.span == CharSpan(0, len(text))
    assert root.infix_operator(text) == at(text, "->")          # an alias keeps its spelling
    eq, conj = root.children
    assert eq.span == at(text, "(a + b) * c = d") and eq.infix_operator(text) == at(text, "=")
    times = eq.children[0]
    assert times.infix_operator(text) == at(text, "*")
    plus = times.children[0]
    assert plus.span == at(text, "a + b") and plus.outer == at(text, "(a + b)")
    assert root.at(at(text, "(a + b)")) is plus and root.at(at(text, "a + b")) is plus
    assert root.at(at(text, "b) * c")) is None
    neg, app = conj.children
    assert neg.node.label == "¬<SLOT>" and neg.span == at(text, "¬ p")
    assert neg.gaps(text) == (at(text, "¬"), CharSpan(neg.span.end, neg.span.end))
    assert neg.infix_operator(text) is None
    assert app.node.label == "f <SLOT> <SLOT>" and app.span == at(text, "f x y")
    assert [g.text(text) for g in app.gaps(text)] == ["f", "", ""]


def test_binder_notations_span_what_they_read():
    text = "∀ x : ℝ, ∀ y > 0, x.abs ≤ y"
    outer = term_spans(text)
    assert outer.span == CharSpan(0, len(text))
    binder, body = outer.children
    assert binder.span is None                                 # built from the name x
    assert binder.children[-1].span == at(text, "ℝ")           # its type was read
    # `∀ y > 0, P` is read as `∀ y, y > 0 → P`: the arrow and `y > 0` are not written
    assert body.span == at(text, "∀ y > 0, x.abs ≤ y")
    implication = body.children[1]
    assert implication.span is None and implication.gaps(text) is None
    assert implication.children[0].children[1].span == at(text, "0")
    le = implication.children[1]
    assert le.span == at(text, "x.abs ≤ y") and le.infix_operator(text) == at(text, "≤")
    assert le.children[0].node.label == "<SLOT>.abs" and le.children[0].span == at(text, "x.abs")


def test_a_declaration_gives_binder_groups_colon_and_conclusion():
    text = "theorem t (x y : ℝ) {n : ℕ} [Fintype α] (h : 0 < x) : x ^ n > (0) := by sorry"
    d = declaration_spans(text)
    assert [b.span for b in d.binders] == [at(text, "(x y : ℝ)"), at(text, "{n : ℕ}"),
                                           at(text, "[Fintype α]"), at(text, "(h : 0 < x)")]
    assert [b.bracket for b in d.binders] == ["(", "{", "[", "("]
    assert [b.names for b in d.binders] == [("x", "y"), ("n",), (), ("h",)]
    assert [b.type.span for b in d.binders if b.type] == [
        at(text, "ℝ"), at(text, "ℕ"), at(text, "Fintype α"), at(text, "0 < x")]
    assert d.colon == at(text, ":", 3)
    assert [t.start for t in d.tokens if t.text == ":"][3] == d.colon.start
    assert d.conclusion.span == at(text, "x ^ n > (0)")
    zero = d.conclusion.children[1]
    assert zero.span == at(text, "0", 1) and zero.outer == at(text, "(0)")
    plain = parse_declaration(text)
    assert d.declaration.conclusion == plain.conclusion
    assert plain.binder_spans == tuple((b.span.start, b.span.end) for b in d.binders)


def test_a_group_without_type_has_no_type_span():
    text = "theorem t {x} (h : x = x) : True"
    d = declaration_spans(text)
    assert d.binders[0].span == at(text, "{x}") and d.binders[0].type is None
    assert d.binders[1].type is not None and d.binders[1].type.span == at(text, "x = x")


def test_bad_input_raises_the_plain_parsers_error():
    text = "theorem t (x : ℝ) : x + = 1"
    with pytest.raises(ParseError) as plain:
        parse_declaration(text)
    with pytest.raises(ParseError) as spanned:
        declaration_spans(text)
    assert (spanned.value.offset, spanned.value.reason) == (plain.value.offset, plain.value.reason)


def _bound_names(root: SpannedNode) -> list[str]:
    names: list[str] = []
    for item in root.walk():
        if is_binding(item.node):
            body = body_index(item.node.label)
            names += [n for i, c in enumerate(item.node.children) if i != body
                      for n in binder_names(c)]
    return names


def _check_statement(text: str, header: str | None, symbols_of) -> int:
    d = declaration_spans(text, header=header)
    plain = parse_declaration(text, header=header)
    assert d.declaration.conclusion == plain.conclusion
    assert [g.type for g in d.declaration.binders] == [g.type for g in plain.binders]
    assert d.colon.text(text) == ":"
    declared = [n for g in plain.binders for n in g.names]
    checked = 0
    for root in [d.conclusion] + [b.type for b in d.binders if b.type is not None]:
        bound = declared + _bound_names(root)
        stack: list[tuple[SpannedNode, CharSpan]] = [(root, CharSpan(0, len(text)))]
        while stack:
            item, within = stack.pop()
            if item.span is not None:
                assert item.outer is not None
                assert within.start <= item.outer.start <= item.span.start
                assert item.span.end <= item.outer.end <= within.end
                within = item.span
            stack += [(c, within) for c in item.children]
            if item.span is None:
                continue
            # the span's text, read in the statement's scope, is the node again
            again = TermParser(item.span.text(text), opens=header_opens(header))
            again.bound = list(bound)
            assert again.parse() == item.node, (text, item.span.text(text))
            op = item.infix_operator(text)
            if op is not None:
                assert item.node.label.split(" ")[1] in symbols_of(op.text(text))
            checked += 1
    return checked


@pytest.mark.parametrize("part", every_nth_fast(range(8), 8))
def test_every_bundled_statement_spans_its_own_tree(statement_rows, part):
    """The fast tier checks every eighth statement, the full tier all 859."""
    table = load_notation()

    def symbols_of(written: str) -> set[str]:
        return {written, table.aliases.get(written, written)}

    rows = statement_rows[part::8]
    checked = sum(_check_statement(r["formal_statement"], r["header"], symbols_of) for r in rows)
    assert checked > len(rows)
