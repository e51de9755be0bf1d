"""Speed without changing outputs: the lexer's symbol index by first character."""

from __future__ import annotations

from transted.pipeline.opt.lexer import tokenize


def test_the_longest_symbol_at_a_position_wins_among_those_sharing_its_first_character():
    symbols = {"<", "<=", "<=>", "lim", "limsup"}
    words = [t.text for t in tokenize("a <=> b <= c < d limsup x lim y", symbols)[:-1]]
    assert words == ["a", "<=>", "b", "<=", "c", "<", "d", "limsup", "x", "lim", "y"]
    kinds = [t.kind for t in tokenize("limsup limsupx", symbols)[:-1]]
    assert kinds == ["sym", "ident"]  # a word symbol only where it is as long as the identifier
