"""Pattern binders bind their names (issue 23; soundness corpus cause `pattern-binder`), match
alternatives, and the set-builder readings of Mathlib/Data/Set/Defs.lean."""

from __future__ import annotations

import pytest

from transted.errors import ParseError
from transted.pipeline.opt import parse_statement, parse_term
from transted.pipeline.opt.canonical import canonicalize
from transted.pipeline.opt.scope import free_names
from transted.pipeline.opt.substitution import substitute
from transted.pipeline.search.reduction import reduce_definitional


@pytest.mark.parametrize("term,free", [
    ("fun ⟨a, b⟩ => a - b", set()),
    ("fun ⟨a, b⟩ => a - c", {"c"}),
    ("fun (a, b) => a * b", set()),
    ("fun x ⟨a, _⟩ y => x + a + y", set()),
    ("fun ⟨a, ⟨b, c⟩⟩ => a + b + c", set()),
    ("{(m, n) : ℕ × ℕ | m < n}", {"ℕ"}),
    ("let ⟨x, hx⟩ := h; x + k", {"h", "k"}),
    ("∑ ⟨i, j⟩ ∈ s, f i j", {"s", "f"}),
    ("fun | 0 => 1 | n + 1 => n", set()),
    ("fun | none => k | some x => x", {"k", "none"}),   # a constructor is a constant
    ("fun | 0, m => m | n + 1, _ => n", set()),
])
def test_pattern_names_are_bound(term, free):
    assert {n for n in free_names(parse_term(term)) if not n[0].isdigit()} == free


def test_swapped_pattern_names_are_different_functions():
    """The adversarial pair pattern-binder/01: ⟨a, b⟩ and ⟨b, a⟩ bind in opposite orders."""
    a = canonicalize(parse_term("fun ⟨a, b⟩ => a - b"))
    b = canonicalize(parse_term("fun ⟨b, a⟩ => a - b"))
    renamed = canonicalize(parse_term("fun ⟨x, y⟩ => x - y"))
    assert a != b
    assert a == renamed


def test_match_alternatives_rename_only_variables():
    one = canonicalize(parse_term("fun | 0 => 1 | n + 1 => n * 2"))
    two = canonicalize(parse_term("fun | 0 => 1 | m + 1 => m * 2"))
    three = canonicalize(parse_term("fun | 0 => 1 | m + 2 => m * 2"))
    assert one == two
    assert one != three


def test_statement_with_pattern_binder_auto_binds_nothing():
    from transted.pipeline.opt import parse_statement_normalized

    out = parse_statement_normalized(
        "theorem t (f : ℕ × ℕ → ℤ) (h : f = fun ⟨a, b⟩ => (a : ℤ) - b) : f (3, 1) = 2")
    assert out.auto_bound == ()


def test_pattern_lambda_is_not_beta_reduced():
    """``(fun ⟨a, b⟩ => a + b) p`` is a match on ``p``: substituting would free ``a`` and ``b``."""
    tree = parse_term("(fun ⟨a, b⟩ => a + b) p")
    assert reduce_definitional(tree) == tree
    plain = parse_term("(fun x => x + 1) p")
    assert reduce_definitional(plain) == parse_term("p + 1")


def test_substitution_renames_a_capturing_pattern_name():
    tree = parse_term("fun ⟨a, b⟩ => x + a")
    out = substitute(tree, "x", parse_term("a"))
    assert "a" in free_names(out)                      # the substituted `a` stays free
    assert canonicalize(out) == canonicalize(parse_term("fun ⟨a', b⟩ => a + a'"))


@pytest.mark.parametrize("term,reading", [
    # macro (priority := low) "{" t " | " bs:extBinders "}" => {x | ∃ᵉ bs, t = x}
    ("{(x, f x) | x ∈ E}", "{y | ∃ x, x ∈ E ∧ (x, f x) = y}"),
    ("{n + 1 | n < 3}", "{y | ∃ n, n < 3 ∧ n + 1 = y}"),
    ("{(m, n) | m < n}", "{y | ∃ m, m < n ∧ (m, n) = y}"),   # the docstring's rule
    ("{(a, b) | (a : ℕ) (b : ℕ)}", "{y | ∃ (a : ℕ), ∃ (b : ℕ), (a, b) = y}"),
])
def test_set_image_notation_is_its_expansion(term, reading):
    assert canonicalize(parse_term(term)) == canonicalize(parse_term(reading))


def test_pattern_set_builder_binds_the_pattern():
    tree = parse_term("{(m, n) : ℕ × ℕ | m < n}")
    assert free_names(tree) == {"ℕ"}
    assert canonicalize(tree) != canonicalize(parse_term("{(n, m) : ℕ × ℕ | m < n}"))


@pytest.mark.parametrize("text", [
    "theorem t : ∀ ⟨a, b⟩, a = b",                  # ∀ binds names, not patterns
    "theorem t (h : f = fun ⟨0, b⟩ => b) : True",   # a numeral in a binder pattern
    "theorem t (s : Set ℕ) (h : s = {(1, n) : ℕ × ℕ | n > 0}) : True",
])
def test_unsupported_patterns_are_positioned_errors(text):
    with pytest.raises(ParseError) as info:
        parse_statement(text)
    assert info.value.line == 1 and info.value.column > 1


def test_match_term_binds_each_alternatives_variables():
    tree = parse_term("match n with | 0 => 1 | k + 1 => k")
    assert free_names(tree) - {"0", "1"} == {"n"}
    assert canonicalize(tree) == canonicalize(parse_term("match n with | 0 => 1 | j + 1 => j"))


def test_alternatives_must_have_as_many_patterns_as_discriminants():
    with pytest.raises(ParseError, match="2 pattern"):
        parse_term("match a with | 0, 1 => 2")


def test_dependent_if_binds_its_proof_in_both_branches():
    """`if h : c then t else e` is `dite c (fun h : c => t) (fun h : ¬c => e)` (Init/Core)."""
    tree = parse_term("if h : x = 0 then f h else g h")
    assert "h" not in free_names(tree)
    assert tree == parse_term("dite (x = 0) (fun (h : x = 0) => f h) (fun (h : ¬(x = 0)) => g h)")
    assert parse_term("if h : x = 0 then 1 else 2") == parse_term("if x = 0 then 1 else 2")
