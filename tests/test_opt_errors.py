"""Bad input: one typed error with line, column and caret; nothing hangs or crashes (fuzzed)."""

from __future__ import annotations

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from transted.errors import ParseError, ResourceLimitError, TranstedError
from transted.opt import Node, parse_statement, parse_term
from transted.opt.parser import MAX_INPUT_CHARS, MAX_NESTING


def test_error_carries_line_column_and_caret():
    text = "theorem t (x : ℝ) :\n  x + = 1 := by sorry"
    with pytest.raises(ParseError) as info:
        parse_statement(text)
    e = info.value
    assert (e.line, e.column) == (2, 7)          # the '=' after '+' (hand-counted)
    assert e.excerpt.splitlines() == ["  x + = 1 := by sorry", "      ^"]
    assert "2:7" in str(e) and "expected a term" in str(e)


def test_unclosed_parenthesis_names_the_opening_column():
    with pytest.raises(ParseError) as info:
        parse_term("f (a + b")
    assert "'(' at column 3" in info.value.reason


def test_source_is_named_in_the_message():
    with pytest.raises(ParseError) as info:
        parse_term("a +")
    assert str(info.value.with_source("pairs.jsonl:4 candidate")).startswith("pairs.jsonl:4 candidate:1:4:")


@pytest.mark.parametrize("text", ["", "theorem", "theorem t", "theorem t : ", "∀ x,", "(", "⟨a, b", "x ∈",
                                  "{x |", "|x", "a ≡ b [", "\x00", "theorem t : x /- unterminated"])
def test_malformed_inputs_raise_parse_error(text):
    with pytest.raises(ParseError):
        parse_statement(text) if text.startswith("theorem") else parse_term(text)


def test_deep_nesting_is_a_clean_error_not_a_recursion_crash():
    with pytest.raises(ParseError, match="nested deeper"):
        parse_term("(" * (MAX_NESTING * 3) + "x" + ")" * (MAX_NESTING * 3))
    with pytest.raises(ParseError, match="nested deeper"):
        parse_term("¬" * 5000 + "p")


def test_huge_input_is_refused_with_resource_limit():
    with pytest.raises(ResourceLimitError):
        parse_term("x + " * (MAX_INPUT_CHARS // 4 + 1) + "x")


def test_long_flat_input_below_the_cap_parses():
    tree = parse_term(" + ".join(["x"] * 2000))
    assert tree.size() == 3999


LEAN_ALPHABET = st.sampled_from(list("abxyz012 ()[]{}⟨⟩,:=+-*/^∀∃¬∧∨→↔≤<|‖⌊⌋.∑∈λ↦'_\n") +
                                ["fun ", "theorem t ", ":= by sorry", "∑ i in s, ", "let a := 1; "])


@settings(max_examples=400, derandomize=True, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.lists(LEAN_ALPHABET, max_size=60).map("".join))
def test_fuzz_lean_like_text_only_raises_transted_errors(text):
    try:
        tree = parse_term(text)
    except TranstedError:
        return
    assert isinstance(tree, Node)


@settings(max_examples=200, derandomize=True, deadline=None)
@given(st.binary(max_size=200).map(lambda b: b.decode("utf-8", errors="replace")))
def test_fuzz_binary_junk(text):
    try:
        parse_statement(text)
    except TranstedError:
        pass


@settings(max_examples=200, derandomize=True, deadline=None)
@given(st.recursive(st.sampled_from(["a", "<SLOT>", "x{y}", "\\", "}"]),
                    lambda kids: st.tuples(st.sampled_from(["f", "g{", "<SLOT> + <SLOT>"]), st.lists(kids, max_size=3)),
                    max_leaves=20))
def test_bracket_notation_round_trips(spec):
    def build(s):
        return Node(s) if isinstance(s, str) else Node(s[0], tuple(build(c) for c in s[1]))
    node = build(spec)
    assert Node.from_text(str(node)) == node


@pytest.mark.parametrize("body, message", [
    ('infix:\n  - {symbol: "⊕", prec: "high", assoc: left}\n',
     r"infix\.0 \(symbol '⊕'\): field 'prec'"),
    ('prefix:\n  - {symbol: "√", prec: 100, colour: red}\n',
     r"prefix\.0 \(symbol '√'\): field 'colour': Extra inputs"),
    ('infix:\n  - {symbol: "⊕", prec: 65, assoc: sideways}\n', r"field 'assoc'"),
    ('binder_body_prec:\n  "∑": {prec: -1}\n', r"binder_body_prec\.∑: field 'prec'"),
])
def test_bad_notation_files_name_file_entry_and_field(tmp_path, body, message):
    from transted.errors import InputError
    from transted.opt.notation import load_notation

    path = tmp_path / "extra.yaml"
    path.write_text(body, encoding="utf-8")
    with pytest.raises(InputError, match=message) as info:
        load_notation(str(path))
    assert str(path) in str(info.value)
