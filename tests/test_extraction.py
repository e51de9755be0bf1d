"""Unit tests of transted.pipeline.extraction: the API, positions, the header it builds, and the rules
that decide between invalid and error."""

from __future__ import annotations

import pytest

from transted.errors import ParseError
from transted.pipeline.extraction import Extraction, extract, same_name
from transted.pipeline.extraction.regions import find_regions, looks_like_prose


def test_rejects_non_string():
    with pytest.raises(TypeError, match="`text`"):
        extract(b"theorem foo : True := trivial")  # type: ignore[arg-type]


def test_result_is_a_frozen_model_that_round_trips():
    got = extract("open Real in\ntheorem t : sqrt 4 = 2 := by sorry")
    again = Extraction.model_validate_json(got.model_dump_json())
    assert again == got
    with pytest.raises(ValueError):
        got.status = "error"  # type: ignore[misc]


def test_header_joins_base_and_context_in_order():
    got = extract("import Mathlib\nopen Real in\ndef g (x : ℝ) : ℝ := sqrt x\n"
                  "set_option maxHeartbeats 0 in\ntheorem t : g 4 = 2 := sorry")
    assert got.header("open Nat\n") == ("open Nat\nimport Mathlib\ndef g (x : ℝ) : ℝ := sqrt x\n"
                                        "set_option maxHeartbeats 0")
    assert [c.only_next for c in got.context] == [False, False, True]
    assert extract("theorem t : True := trivial").header(None) is None


def test_include_and_omit_are_context_commands():
    # Lean 4 `include`/`omit` (and their `… in` forms) change which variables a theorem has
    got = extract("variable (x : ℕ) (h : 0 < x) (g : x < 9)\ninclude h g\n"
                  "theorem a : x = x := rfl\nomit g in\ntheorem t : 0 < x := sorry")
    assert [(c.kind, c.name, c.only_next) for c in got.context] == [
        ("variable", "x h g", False), ("include", "h g", False), ("omit", "g", True)]
    # an `include … in` before another theorem is gone; a section's `include` ends with it
    got = extract("variable (h : 0 < 1)\ninclude h in\ntheorem a : True := trivial\n"
                  "section\ninclude h\nend\ntheorem t : True := trivial")
    assert [c.kind for c in got.context] == ["variable"]


def test_full_name_and_namespace():
    got = extract("namespace A.B\nsection\ntheorem t : True := trivial\nend\nend A.B")
    assert got.theorem is not None
    assert (got.theorem.name, got.theorem.full_name) == ("t", "A.B.t")
    assert [d.namespace for d in got.context] == ["A.B", "A.B"]


def test_unbalanced_end_is_a_warning_not_an_error():
    got = extract("end Foo\ntheorem t : True := trivial")
    assert got.status == "ok"
    assert got.warnings == ("`end Foo` closes no section or namespace",)


def test_requested_name_missing_lists_what_was_found():
    got = extract("theorem a : True := trivial\nlemma b : True := trivial", theorem="c")
    assert got.status == "error" and got.problem is not None
    assert got.problem.reason == "no theorem named 'c' in the output (found: a, b)"


@pytest.mark.parametrize("a,b,same", [("foo", "foo", True), ("N.foo", "foo", True),
                                      ("foo", "M.N.foo", True), ("foo", "barfoo", False),
                                      ("foo", "foo.bar", False)])
def test_same_name(a, b, same):
    assert same_name(a, b) is same
    assert same_name(b, a) is same


def test_truncation_position_points_at_the_end():
    text = "theorem t (x : ℕ)\n    (h : x ="
    got = extract(text)
    assert got.status == "invalid" and got.problem is not None
    assert (got.problem.line, got.problem.column) == (2, 13)
    assert "'(' opened at line 2, column 5" in got.problem.reason
    assert isinstance(got.problem.to_error(text), ParseError)


@pytest.mark.parametrize("text", [
    "theorem t : ∀ᶠ n in Filter.atTop, 0 < n",     # a notation our parser lacks
    "theorem t : \\forall x : ℕ, 0 ≤ x",          # not Lean, but not recognisably so
    "theorem t : (x : ℕ) → x ∈ {y | y ≥ 0}",        # brackets balanced, ends in a term
])
def test_unknown_syntax_is_not_invalid(text):
    got = extract(text)
    assert got.status == "ok" and got.problem is None


def test_invalid_character_in_the_statement_is_an_error():
    got = extract("theorem t : 1 = \x01 1 := rfl")
    assert got.status == "error" and got.problem is not None and got.problem.kind is None
    assert "U+0001" in got.problem.reason


def test_invalid_character_after_the_statement_is_a_warning():
    got = extract("theorem t : 1 = 1 := by\n  rfl \x01")
    assert got.status == "ok"
    assert any("U+0001" in w for w in got.warnings)


def test_regions_blank_prose_but_keep_offsets():
    text = "Here it is:\n\n```lean\ntheorem t : True := trivial\n```\nDone."
    regions = find_regions(text)
    assert len(regions.code) == len(text)
    assert regions.code.strip() == "theorem t : True := trivial"
    assert [r[0] for r in regions.prose] == ["preamble", "trailing"]


@pytest.mark.parametrize("line,prose", [
    ("This theorem states that x is positive", True), ("Explanation:", True),
    ("- a bullet", True), ("### Heading", True), ("Icc 0 1", False),
    ("IsOpen U ∧ IsClosed U", False), ("Nat.succ_le_of_lt h", False), ("x = 1 := rfl", False),
])
def test_looks_like_prose(line, prose):
    assert looks_like_prose(line) is prose


def test_output_over_the_cap_is_refused():
    from transted.errors import ResourceLimitError
    from transted.pipeline.extraction.extract import MAX_OUTPUT_CHARS
    with pytest.raises(ResourceLimitError, match="exceeds the cap"):
        extract("x" * (MAX_OUTPUT_CHARS + 1))


def test_many_invalid_characters_give_one_warning():
    got = extract("theorem t : 1 = 1 := by\n  rfl" + "\x01" * 1000)
    assert got.status == "ok"
    assert got.warnings == ("unexpected control or invalid character U+0001 at line 2, "
                            "column 6 (and 999 more) after the statement (ignored)",)


@pytest.mark.parametrize("text", [
    "theorem t (assume : Prop) (h : assume) : assume := h",  # a binder named `assume`
    "theorem t (f : ℕ → ℕ) (h : f = fun | 0 => 1 | _ => 2) : f 0 = 1 := by simp [h]",
    "theorem t (g : ℕ → ℕ × ℕ) (h : g = fun n => (n, n)) : g 1 = (1, 1) := by simp [h]",
])
def test_lean4_that_resembles_lean3_is_not_invalid(text):
    assert extract(text).status == "ok"


def test_every_bracket_token_of_the_lexer_is_an_opener_or_a_closer():
    """A token that holds an opening bracket (``^[``, ``![``, ``=ᶠ[``…) must be an opener, or
    its ``]`` would make a valid statement look mismatched (a wrong confident `invalid`)."""
    from transted.pipeline.extraction.commands import CLOSERS, OPENERS
    from transted.pipeline.opt.lexer import PUNCTUATION
    from transted.pipeline.opt.notation import load_notation

    for token in set(PUNCTUATION) | load_notation().symbols:
        if any(b in token for b in "([{⟨⦃⁅⟪⌊⌈"):
            assert token in OPENERS, token
        if any(b in token for b in ")]}⟩⦄⁆⟫⌋⌉") and token not in OPENERS:
            assert token in CLOSERS, token


@pytest.mark.parametrize("text", [
    "theorem t (f : ℕ → ℕ) : ∃ n x, (f^[n] x < 0)",
    "theorem t (M : Matrix (Fin 2) (Fin 2) ℝ) (h : M = !![1, 2; 3, 4]) : M.det = -2",
    "theorem t (v : Fin 2 → ℝ) : (v = ![1, 2])",
    "theorem t (f g : ℕ → ℝ) : (f =ᶠ[Filter.atTop] g) ∨ (f =O[Filter.atTop] g)",
])
def test_glued_bracket_tokens_are_balanced(text):
    assert extract(text).status == "ok"


def test_a_named_theorem_is_chosen_over_a_later_example():
    # issue 31 (context-commands/12): a sanity `example` after the answer is not the answer
    text = ("theorem answer (x : ℕ) (h : x = 2) : x + 1 = 4 := by sorry\n\n"
            "example : (2 : ℕ) + 1 = 3 := by norm_num\n")
    ex = extract(text, reference_name="mathd_1")
    assert ex.theorem is not None and ex.theorem.name == "answer" and ex.chosen_by == "last"
    assert "example" in ex.reason
    only_examples = extract("example : 1 = 1 := rfl\n\nexample : 2 = 2 := rfl\n")
    assert only_examples.theorem is not None and only_examples.theorem.keyword == "example"
    assert only_examples.theorem.statement.startswith("example : 2 = 2")
