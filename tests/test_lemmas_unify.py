"""Unification of a lemma's pattern with a subterm, and capture-avoiding instantiation."""

from __future__ import annotations

from transted.pipeline.opt import parse_term
from transted.pipeline.opt.canonical import canonical
from transted.pipeline.search.lemmas.unify import instantiate_lemma, match_lemma


def _match(pattern: str, term: str, variables: str, numerals: str = ""):
    return match_lemma(parse_term(pattern), parse_term(term), frozenset(variables.split()),
                       frozenset(numerals.split()))


def test_first_order_match_and_repeated_variables():
    m = _match("a * b + a", "x * (y + 1) + x", "a b")
    assert m is not None
    assert m.sigma == {"a": parse_term("x"), "b": parse_term("y + 1")}
    assert _match("a * b + a", "x * y + z", "a b") is None  # `a` twice, different values
    assert _match("a + 0", "x + 1", "a") is None  # a constant must be the same


def test_bound_variables_match_by_position_not_name():
    m = _match("∑ i ∈ Finset.range n, i", "∑ k ∈ Finset.range (m + 1), k", "n")
    assert m is not None and m.sigma == {"n": parse_term("m + 1")}
    assert _match("∑ i ∈ Finset.range n, i", "∑ k ∈ Finset.range m, j", "n") is None


def test_a_variable_may_not_take_a_value_with_an_inner_bound_variable():
    # `c` would escape its binder: `∑ k ∈ s, k` is not `∑ k ∈ s, c` for any c
    assert _match("∑ i ∈ s, c", "∑ k ∈ Finset.range 5, k", "s c") is None
    m = _match("∑ i ∈ s, c", "∑ k ∈ Finset.range 5, y", "s c")
    assert m is not None and m.sigma["c"] == parse_term("y")


def test_miller_pattern_abstracts_the_bound_variable():
    m = _match("∑ i ∈ Finset.range n, f i", "∑ k ∈ Finset.range 4, (k ^ 2 + k)", "n f")
    assert m is not None
    fn = m.sigma["f"]
    assert fn.label.startswith("fun ")
    out = instantiate_lemma(parse_term("f n + ∑ i ∈ Finset.range n, f i"), m.sigma)
    expected = parse_term("(4 ^ 2 + 4) + ∑ k ∈ Finset.range 4, (k ^ 2 + k)")
    assert canonical(out, {}, 0) == canonical(expected, {}, 0)


def test_numeral_variables_match_numerals_from_two():
    assert _match("x ^ (n : ℝ)", "y ^ (3 : ℝ)", "x n", "n") is not None
    assert _match("x ^ (n : ℝ)", "y ^ (1 : ℝ)", "x n", "n") is None
    assert _match("x ^ (n : ℝ)", "y ^ (z : ℝ)", "x n", "n") is None


def test_instantiation_avoids_capture():
    # the lemma's other side binds `x`; the value of `a` mentions a free `x`
    pattern = parse_term("∀ x, x + a = a + x")
    out = instantiate_lemma(pattern, {"a": parse_term("x")})
    binder = out.children[0]
    assert binder.label != "x"  # renamed, so the free `x` stays free
    assert "x" in {n.label for n in out.preorder()}


def test_simultaneous_instantiation():
    out = instantiate_lemma(parse_term("a - b"), {"a": parse_term("b"), "b": parse_term("a")})
    assert out == parse_term("b - a")


def test_instantiation_without_binders_is_the_general_path():
    # with no binder in the pattern, the one-pass put-in (`_without_binders`) must give what
    # the capture-avoiding substitution gives, heads included (`f` a leaf, a term, a `fun`)
    from transted.pipeline.search.lemmas.unify import _substituted, _without_binders

    cases = [
        ("a - b", {"a": "b", "b": "a"}),
        ("f a + f (g b)", {"f": "Real.sqrt", "a": "x * y", "g": "h", "b": "2"}),
        ("f a = f b", {"f": "(g ∘ h)", "a": "b", "b": "a"}),
        ("p a' ∧ a' = 1", {"p": "fun y => y + 1 = 2", "a'": "7 - 10"}),
        ("Finset.card (Finset.range n) = n", {"n": "m + 1"}),
    ]
    for pattern, values in cases:
        sigma = {k: parse_term(v) for k, v in values.items()}
        fast = _without_binders(parse_term(pattern), sigma)
        assert fast is not None, pattern
        assert fast == _substituted(parse_term(pattern), sigma), pattern
    # a binder, or a `?` in a value (the general path's marks): the general path only
    assert _without_binders(parse_term("∀ x, x + a = a + x"), {"a": parse_term("x")}) is None
    assert _without_binders(parse_term("a + b"), {"a": parse_term("?b")}) is None
