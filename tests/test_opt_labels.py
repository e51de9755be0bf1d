"""opt/labels.py names the labels the parser builds (one spelling for every reader)."""

from __future__ import annotations

import pytest

from transted.pipeline.opt import labels as L
from transted.pipeline.opt import parse_term


@pytest.mark.parametrize("text, label", [
    ("∀ x : ℕ, x = x", L.FORALL), ("∃ x : ℕ, x = x", L.EXISTS), ("p → q", L.ARROW),
    ("p ↔ q", L.IFF), ("p ∧ q", L.AND), ("p ∨ q", L.OR), ("¬p", L.NOT), ("a = b", L.EQ),
    ("a ≠ b", L.NE), ("a < b", L.LT), ("a ≤ b", L.LE), ("a ∣ b", L.DVD), ("a ∈ s", L.MEM),
    ("a ≡ b [MOD n]", L.MODEQ), ("a + b", L.ADD), ("a - b", L.SUB), ("a * b", L.MUL),
    ("a / b", L.DIV), ("a % b", L.MOD), ("a ^ b", L.POW), ("-a", L.NEG), ("a⁻¹", L.INV),
    ("↑a", L.COE), ("|a|", L.ABS), ("‖a‖", L.NORM), ("⌊a⌋", L.FLOOR), ("⌈a⌉", L.CEIL),
    ("(a : ℝ)", L.ASCRIPTION), ("fun x => x", L.FUN), ("let x := 1; x", L.LET),
    ("(fun x => x) a", L.APP), ("(a, b)", L.TUPLE), ("if p then a else b", L.ITE),
    ("{x | p x}", L.SET_BUILDER), ("{x // p x}", L.SUBTYPE),
    ("Nat.Prime p", L.application("Nat.Prime", 1)),
    ("∑ i ∈ s, f i", L.bounded_binder_label("∑", "∈")), ("⋃ i, s i", L.binder_label("⋃")),
])
def test_the_parser_builds_the_named_label(text, label):
    assert parse_term(text).label == label


def test_binder_children_and_heads():
    tree = parse_term("∀ x : ℕ, x = x")
    assert tree.children[0].label == L.TYPED_BINDER
    binding = (L.FORALL, L.EXISTS, L.FUN, L.LET, L.SET_BUILDER, L.SUBTYPE, L.binder_label("⋃"),
               L.bounded_binder_label("∑", "∈"))
    assert all(label.startswith(L.BINDER_HEADS) for label in binding)
    assert not any(label.startswith(L.BINDER_HEADS) for label in (L.ARROW, L.APP, L.ITE))
    assert L.NAMED_APPLICATION.match(L.application("Real.sqrt", 1)).group(1) == "Real.sqrt"
    assert L.NAMED_APPLICATION.match(L.ADD) is None
