"""Bad input: one typed error with line, column and caret; nothing hangs or crashes (fuzzed).

The fuzz tests hold every entry point to the error contract (:func:`parsed_or_typed_error`):
any text parses, or raises a :class:`~transted.errors.TranstedError` (a ParseError with its
position in that text); scoring turns the same error into a result. The examples are the same
on every run (the derandomized profile of tests/conftest.py).
"""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import transted
from transted.errors import ParseError, ResourceLimitError, TooDeep, TranstedError
from transted.pipeline.extraction import extract
from transted.pipeline.opt import Node, parse_statement, parse_term
from transted.pipeline.opt.cursor import MAX_INPUT_CHARS, MAX_NESTING


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
    tree = parse_term("f " + " ".join(["x"] * 2000))
    assert tree.size() == 2001  # the application node and its 2000 arguments
    # a left-associative chain as long is as deep: refused by the tree-depth cap instead
    with pytest.raises(TooDeep, match="nests deeper than"):
        parse_term(" + ".join(["x"] * 2000))


LEAN_ALPHABET = st.sampled_from(list("abxyz012 ()[]{}⟨⟩,:=+-*/^∀∃¬∧∨→↔≤<|‖⌊⌋.∑∈λ↦'_\n") +
                                ["fun ", "theorem t ", ":= by sorry", "∑ i in s, ", "let a := 1; "])
LEAN_LIKE = st.lists(LEAN_ALPHABET, max_size=60).map("".join)
BINARY_JUNK = st.binary(max_size=200).map(lambda b: b.decode("utf-8", errors="replace"))


def parsed_or_typed_error(parse, text: str) -> Node | TranstedError:
    """The error contract of every parser entry point: a tree, or a TranstedError; a
    ParseError points into the very text it was given, at a consistent line and column."""
    try:
        return parse(text)
    except ParseError as e:
        assert e.text == text and 0 <= e.offset <= len(text) and e.reason
        before = text[:e.offset]
        assert (e.line, e.column) == (before.count("\n") + 1, len(before.rsplit("\n", 1)[-1]) + 1)
        assert e.excerpt.endswith("^")
        return e
    except TranstedError as e:
        assert str(e)
        return e
    except Exception as e:  # noqa: BLE001 - the contract under test: nothing else escapes
        pytest.fail(f"{type(e).__name__} (not a TranstedError) on {text!r}: {e}")


@given(LEAN_LIKE)
@settings(max_examples=400)
def test_fuzz_lean_like_text_only_raises_transted_errors(text):
    out = parsed_or_typed_error(parse_term, text)
    assert isinstance(out, (Node, TranstedError))


@given(BINARY_JUNK)
@settings(max_examples=200)
def test_fuzz_binary_junk(text):
    parsed_or_typed_error(parse_statement, text)


@given(st.one_of(LEAN_LIKE, BINARY_JUNK).map(lambda body: "theorem t : " + body))
@settings(max_examples=300)
def test_fuzz_statements_only_raise_transted_errors(text):
    parsed_or_typed_error(parse_statement, text)


REFERENCE = "theorem t (x : ℝ) (h : 0 < x) : x ^ 2 > 0 := by sorry"


@pytest.mark.parametrize("metric", ["ted", pytest.param("transted", marks=pytest.mark.slow)])
@given(st.one_of(LEAN_LIKE, BINARY_JUNK).map(lambda body: "theorem t : " + body))
@settings(max_examples=60)
def test_fuzz_scoring_gives_a_result_or_the_parse_errors_position(metric, candidate):
    """Scoring never raises: a text the extractor finds confidently invalid is an ``invalid``
    answer with its positioned problem; one it cannot read, or whose statement the parser
    cannot read, is a result with ``status="error"`` and the positioned message in the raw
    text, naming the side."""
    result = transted.score(REFERENCE, candidate, metric, id="fuzz")
    ex = extract(candidate, reference_name="t")
    if ex.status != "ok":
        assert ex.problem is not None
        assert result.status == ex.status and result.score is None
        assert (result.verdict == "not-equivalent") == (ex.status == "invalid")
        assert result.error.startswith(
            f"fuzz candidate:{ex.problem.line}:{ex.problem.column}: {ex.problem.reason}")
        return
    assert ex.theorem is not None
    parsed = parsed_or_typed_error(parse_statement, ex.theorem.statement)
    if isinstance(parsed, ParseError):
        span = ex.theorem.span  # the statement's position in the raw text
        line = span.line + parsed.line - 1
        column = parsed.column + (span.column - 1 if parsed.line == 1 else 0)
        assert result.status == "error" and result.score is None
        assert result.error is not None
        assert result.error.startswith(f"fuzz candidate:{line}:{column}: {parsed.reason}")
    else:
        assert result.status in ("ok", "error", "too_large")
        assert (result.score is not None) == (result.status == "ok")


@settings(max_examples=200)
@given(st.recursive(st.sampled_from(["a", "<SLOT>", "x{y}", "\\", "}"]),
                    lambda kids: st.tuples(st.sampled_from(["f", "g{", "<SLOT> + <SLOT>"]), st.lists(kids, max_size=3)),
                    max_leaves=20))
def test_bracket_notation_round_trips(spec):
    def build(s):
        return Node(s) if isinstance(s, str) else Node(s[0], tuple(build(c) for c in s[1]))
    node = build(spec)
    assert Node.from_text(str(node)) == node


@settings(max_examples=300)
@given(st.text(alphabet="{}ab \\·", max_size=24))
def test_bracket_reader_fast_path_agrees_with_the_character_reader(text):
    """``from_text`` splits an escape-free text at its braces and falls back to the
    character reader on anything malformed: the same tree, or the same error and position."""
    def read(reader):
        try:
            return ("tree", reader(text))
        except ParseError as e:
            return ("error", str(e))
    assert read(Node.from_text) == read(Node._from_text_by_char)


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
    from transted.pipeline.opt.notation import load_notation

    path = tmp_path / "extra.yaml"
    path.write_text(body, encoding="utf-8")
    with pytest.raises(InputError, match=message) as info:
        load_notation(str(path))
    assert str(path) in str(info.value)
