"""Each offline rule rewrites an instance into the lemma's statement instantiated.

The expected right-hand sides are the statements recorded in docs/RULES.md (checked against
Lean core / Mathlib sources), instantiated by hand; type-guarded rules are also checked not
to fire where the lemma's type-class hypothesis is unknown or false.
"""

from __future__ import annotations

import pytest

from transted.errors import InputError
from transted.pipeline.opt import parse_term
from transted.pipeline.opt.canonical import canonical
from transted.pipeline.search.reduction import beta_reduce
from transted.pipeline.search.ruleset import load_rules

RULES = load_rules()
BY_NAME = {r.name: r for r in RULES}


def _apply(name: str, text: str, env: dict[str, str]) -> list:
    rule = BY_NAME[name]
    term = parse_term(text)
    types = {k: parse_term(v) for k, v in env.items()}
    return [canonical(beta_reduce(new)) for new, _s, back in
            rule.rewrite(term, term, (), types) if not back]


R = {"x": "ℝ", "y": "ℝ", "z": "ℝ"}
SETS = {"X": "Type*", "A": "Set X", "C": "Set X"}
FINSETS = {"s": "Finset ℕ", "t": "Finset ℕ", "n": "ℕ"}
CASES = [
    # name, context types, instance, lemma statement's right side instantiated
    ("ge_iff_le", {}, "x ≥ y", "y ≤ x"),
    ("gt_iff_lt", {}, "a > b", "b < a"),
    ("ne_eq", {}, "a ≠ b", "¬(a = b)"),
    ("eq_comm", {}, "a = b + 1", "b + 1 = a"),
    ("ne_comm", {}, "a ≠ b", "b ≠ a"),
    ("not_lt", R, "¬(x < y)", "y ≤ x"),
    ("not_le", R, "¬(x ≤ y)", "y < x"),
    ("and_comm", {}, "p ∧ q", "q ∧ p"),
    ("or_comm", {}, "p ∨ q", "q ∨ p"),
    ("iff_comm", {}, "p ↔ q", "q ↔ p"),
    ("and_assoc", {}, "(p ∧ q) ∧ r", "p ∧ q ∧ r"),
    ("or_assoc", {}, "(p ∨ q) ∨ r", "p ∨ q ∨ r"),
    ("and_imp", {}, "p ∧ q → r", "p → q → r"),
    ("Imp.swap", {}, "p → q → r", "q → p → r"),
    ("not_or", {}, "¬(p ∨ q)", "¬p ∧ ¬q"),
    ("not_not", {}, "¬¬p", "p"),
    ("not_exists", {}, "¬∃ x, p x", "∀ x, ¬p x"),
    ("not_forall", {}, "¬∀ x : ℝ, p x", "∃ x : ℝ, ¬p x"),
    ("forall_swap", {}, "∀ x : ℝ, ∀ y : ℕ, p x y", "∀ y : ℕ, ∀ x : ℝ, p x y"),
    ("forall_swap_imp", {}, "q → ∀ y : ℝ, p y", "∀ y : ℝ, q → p y"),
    ("funext_iff", {"f": "ℝ → ℝ"}, "f = fun x => c", "∀ x, f x = c"),
    ("Set.mem_setOf_eq", {}, "a ∈ {x | p x ∧ 0 < x}", "p a ∧ 0 < a"),
    ("Set.mem_Icc", {}, "x ∈ Set.Icc a b", "a ≤ x ∧ x ≤ b"),
    ("Set.mem_Icc@open", {}, "x ∈ Icc a b", "a ≤ x ∧ x ≤ b"),
    ("Set.mem_Ico", {}, "x ∈ Set.Ico a b", "a ≤ x ∧ x < b"),
    ("Set.mem_Ioc", {}, "x ∈ Set.Ioc a b", "a < x ∧ x ≤ b"),
    ("Set.mem_Ioo", {}, "x ∈ Set.Ioo a b", "a < x ∧ x < b"),
    ("Set.mem_Ici", {}, "x ∈ Set.Ici a", "a ≤ x"),
    # the set-builder's declared type stays on the element (issue 31, binder-type/01)
    ("Set.mem_setOf_eq", {}, "a ∈ {y : ℚ | 2 * y = 1}", "2 * (a : ℚ) = 1"),
    ("Set.mem_Iic", {}, "x ∈ Set.Iic b", "x ≤ b"),
    ("Set.mem_Ioi", {}, "x ∈ Set.Ioi a", "a < x"),
    ("Set.mem_Iio", {}, "x ∈ Set.Iio b", "x < b"),
    ("Finset.mem_Icc", {"x": "ℕ"}, "x ∈ Finset.Icc a b", "a ≤ x ∧ x ≤ b"),
    ("Finset.mem_Ico", {"x": "ℤ"}, "x ∈ Finset.Ico a b", "a ≤ x ∧ x < b"),
    ("Finset.mem_range", {"m": "ℕ"}, "m ∈ Finset.range n", "m < n"),
    ("Finset.range_eq_Ico", {}, "Finset.range n", "Finset.Ico 0 n"),
    ("Finset.sum_range", {}, "∑ i ∈ Finset.range n, f i", "∑ i : Fin n, f ↑i"),
    ("Finset.prod_range", {}, "∏ i ∈ Finset.range n, f i", "∏ i : Fin n, f ↑i"),
    ("Finset.sum_Ico_eq_sum_range", {"m": "ℕ", "n": "ℕ"}, "∑ k ∈ Finset.Ico m n, f k",
     "∑ k ∈ Finset.range (n - m), f (m + k)"),
    ("add_comm", R, "x + y", "y + x"),
    ("mul_comm", {"n": "ℕ"}, "n * 2", "2 * n"),
    ("add_assoc", R, "x + y + z", "x + (y + z)"),
    ("mul_assoc", R, "x * y * z", "x * (y * z)"),
    ("sub_eq_add_neg", {"k": "ℤ"}, "k - 1", "k + -1"),
    ("div_eq_mul_inv", R, "x / y", "x * y⁻¹"),
    ("one_div", {"q": "ℚ"}, "1 / q", "q⁻¹"),
    ("mul_neg_one", {"k": "ℤ"}, "k * -1", "-k"),
    ("mul_one", R, "x * 1", "x"),
    ("one_mul", R, "1 * x", "x"),
    ("add_zero", R, "x + 0", "x"),
    ("zero_add", R, "0 + x", "x"),
    ("Real.log_div_log", {}, "Real.log x / Real.log 2", "Real.logb 2 x"),
    # `s.Nonempty` is `Set.Nonempty s` once the normaliser knows the receiver's type, and stays
    # field notation when it does not (`(C ∩ A).Nonempty`): the guard types the receiver
    ("Set.nonempty_iff_ne_empty", {"s": "Set ℕ"}, "Set.Nonempty s", "s ≠ ∅"),
    ("Set.nonempty_iff_ne_empty@dot", SETS, "(C ∩ frontier A).Nonempty", "C ∩ frontier A ≠ ∅"),
    ("Set.not_nonempty_iff_eq_empty", {"s": "Set ℕ"}, "¬Set.Nonempty s", "s = ∅"),
    ("Set.not_nonempty_iff_eq_empty@dot", SETS, "¬(C ∩ Aᶜ).Nonempty", "C ∩ Aᶜ = ∅"),
    ("Finset.nonempty_iff_ne_empty", {"s": "Finset ℕ"}, "Finset.Nonempty s", "s ≠ ∅"),
    ("Finset.nonempty_iff_ne_empty@dot", FINSETS, "(s ∩ t).Nonempty", "s ∩ t ≠ ∅"),
    ("Finset.not_nonempty_iff_eq_empty", {"s": "Finset ℕ"}, "¬Finset.Nonempty s", "s = ∅"),
    ("Finset.not_nonempty_iff_eq_empty@dot", FINSETS, "¬(Finset.range n \\ s).Nonempty",
     "Finset.range n \\ s = ∅"),
    ("not_nonempty_iff", {}, "IsEmpty (ℝˣ ≃* ℂˣ)", "¬Nonempty (ℝˣ ≃* ℂˣ)"),
    ("Finset.sum_coe_sort", {"s": "Finset ℕ"}, "∑ i : s, (2 : ℝ)", "∑ i ∈ s, (2 : ℝ)"),
    ("Finset.prod_coe_sort", {"n": "ℕ"}, "∏ i : Finset.range n, (2 : ℕ)",
     "∏ i ∈ Finset.range n, (2 : ℕ)"),
    ("exists_true_iff_nonempty", {}, "Nonempty (Fin 3)", "∃ x : Fin 3, True"),
    ("Set.nonempty_def@dot", SETS, "(C ∩ A).Nonempty", "∃ x, x ∈ C ∩ A"),
    ("Finset.nonempty_def", {"s": "Finset ℕ"}, "Finset.Nonempty s", "∃ x, x ∈ s"),
    ("Finset.nonempty_def@dot", FINSETS, "(s \\ t).Nonempty", "∃ x, x ∈ s \\ t"),
]

N = {"n": "ℕ", "k": "ℕ"}
# Definitional unfoldings guarded by the type of their typed side: only right to left fires.
BACKWARD = [
    ("Nat.even_iff", N, "n % 2 = 0", "Even n"),
    ("Nat.odd_iff", N, "n % 2 = 1", "Odd n"),
    ("Int.even_iff", {"n": "ℤ"}, "n % 2 = 0", "Even n"),
    ("Nat.dvd_iff_mod_eq_zero", N, "n % k = 0", "k ∣ n"),
]


def _apply_backward(name: str, text: str, env: dict[str, str]) -> list:
    rule = BY_NAME[name]
    term = parse_term(text)
    types = {k: parse_term(v) for k, v in env.items()}
    return [canonical(beta_reduce(new)) for new, _s, back in
            rule.rewrite(term, term, (), types) if back]


@pytest.mark.parametrize("name, env, instance, expected", BACKWARD, ids=[c[0] for c in BACKWARD])
def test_unfolding_rule_rewrites_the_typed_side_back(name, env, instance, expected):
    assert canonical(parse_term(expected)) in _apply_backward(name, instance, env)


@pytest.mark.parametrize("name, env, instance", [
    ("Nat.even_iff", {"x": "ℝ"}, "x % 2 = 0"),          # on ℝ, `x % 2 = 0` is not `Even x`
    ("Nat.even_iff", {"n": "ℤ"}, "n % 2 = 0"),          # the ℕ lemma does not fire on ℤ
    ("Int.even_iff", N, "n % 2 = 0"),
    ("Nat.dvd_iff_mod_eq_zero", {"n": "ℤ", "k": "ℤ"}, "n % k = 0"),
    ("Nat.even_iff", N, "Even n"),                      # the untyped side shows no type
    # a Finset interval needs a LocallyFiniteOrder (ℕ, ℤ; not ℝ, not an unknown type), and
    # Finset.range n is a Finset ℕ: the rules do not fire where the statement may not elaborate
    ("Finset.mem_Icc", {"x": "ℝ"}, "x ∈ Finset.Icc a b"),
    ("Finset.mem_Icc", {}, "x ∈ Finset.Icc a b"),
    ("Finset.mem_range", {"m": "ℝ"}, "m ∈ Finset.range n"),
])
def test_unfolding_rule_does_not_fire_off_its_type(name, env, instance):
    assert _apply(name, instance, env) == [] and _apply_backward(name, instance, env) == []


@pytest.mark.parametrize("name, env, instance, expected", CASES, ids=[c[0] for c in CASES])
def test_rule_instance_is_the_lemma_statement(name, env, instance, expected):
    assert canonical(parse_term(expected)) in _apply(name, instance, env)


def test_every_rule_of_the_file_has_a_case():
    covered = {c[0] for c in CASES} | {c[0] for c in BACKWARD}
    missing = {r.name for r in RULES if not r.name.endswith("@open")} - covered
    assert not missing


@pytest.mark.parametrize("name, env, instance, expected", [
    ("Set.nonempty_iff_ne_empty", {"s": "Set ℕ"}, "s ≠ ∅", "Set.Nonempty s"),
    ("Set.nonempty_iff_ne_empty@dot", SETS, "C ∩ A ≠ ∅", "(C ∩ A).Nonempty"),
    ("Set.not_nonempty_iff_eq_empty", SETS, "C ∪ A = ∅", "¬Set.Nonempty (C ∪ A)"),
    ("Finset.nonempty_iff_ne_empty", FINSETS, "s ≠ ∅", "Finset.Nonempty s"),
    ("Finset.not_nonempty_iff_eq_empty@dot", FINSETS, "s = ∅", "¬(s).Nonempty"),
])
def test_nonempty_rules_rewrite_ne_empty_back(name, env, instance, expected):
    assert canonical(parse_term(expected)) in _apply_backward(name, instance, env)


MIXED = {**SETS, **FINSETS, "m": "Multiset ℕ", "l": "List ℕ"}


@pytest.mark.parametrize("name, instance", [
    # `∅` of another type: a Multiset's `∅` is `0`, a List's is `[]`; no Multiset.Nonempty
    ("Set.nonempty_iff_ne_empty", "m ≠ ∅"),
    ("Finset.nonempty_iff_ne_empty", "m ≠ ∅"),
    ("Set.not_nonempty_iff_eq_empty", "l = ∅"),
    ("Finset.not_nonempty_iff_eq_empty@dot", "m = ∅"),
    # the Set lemma on a Finset, the Finset lemma on a Set: another `∅`, another `Nonempty`
    ("Set.nonempty_iff_ne_empty", "s ≠ ∅"),
    ("Set.nonempty_iff_ne_empty", "Set.Nonempty s"),      # Lean reads `Set.Nonempty ↑s`
    ("Set.nonempty_iff_ne_empty@dot", "(s ∩ t).Nonempty"),
    ("Finset.nonempty_iff_ne_empty", "C ≠ ∅"),
    ("Finset.nonempty_iff_ne_empty", "(s : Set ℕ) ≠ ∅"),  # the coerced set is not a Finset
    ("Finset.nonempty_iff_ne_empty@dot", "(C ∩ A).Nonempty"),
    # a type the guard cannot be sure of: an untyped name, a Finset meeting a Set
    ("Set.nonempty_iff_ne_empty", "u ≠ ∅"),
    ("Set.nonempty_iff_ne_empty@dot", "(C ∩ s).Nonempty"),
    ("Finset.not_nonempty_iff_eq_empty", "s ∩ C = ∅"),
    ("Set.nonempty_def@dot", "(s ∩ t).Nonempty"),
    ("Finset.nonempty_def", "Finset.Nonempty C"),
    ("Finset.nonempty_def@dot", "(m).Nonempty"),
])
def test_nonempty_rules_fire_only_on_their_type(name, instance):
    assert _apply(name, instance, MIXED) == [] and _apply_backward(name, instance, MIXED) == []


def test_nonempty_rules_have_no_open_variant():
    # Set.Nonempty and Finset.Nonempty are protected: `Nonempty s` is the root class
    # `Nonempty ↥s` even under `open Set`, another constant
    assert not [r.name for r in RULES if "nonempty" in r.name and r.name.endswith("@open")]
    assert "Set.mem_Icc@open" in BY_NAME


def test_reversible_rules_also_rewrite_backwards():
    rule = BY_NAME["ge_iff_le"]
    term = parse_term("y ≤ x")
    backs = [new for new, _s, back in rule.rewrite(term, term, (), {}) if back]
    assert backs == [parse_term("x ≥ y")]


@pytest.mark.parametrize("name, env, instance", [
    ("add_comm", {}, "a + b"),                            # type unknown
    ("add_comm", {"A": "Matrix (Fin 2) (Fin 2) ℝ"}, "A + A"),
    ("mul_comm", {"g": "G"}, "g * g⁻¹"),                  # a group element
    ("sub_eq_add_neg", {"n": "ℕ"}, "n - 1"),              # ℕ has no negation
    ("div_eq_mul_inv", {"k": "ℤ"}, "k / 2"),              # ℤ division is not a field's
    ("not_lt", {"z": "ℂ"}, "¬(z < 1)"),                  # ℂ is not linearly ordered
    ("forall_swap", {}, "∀ n : ℕ, ∀ v : Fin n, p v"),     # dependent binder
    ("forall_swap", {}, "∀ x, ∀ x, p x"),                 # same name: swap changes meaning
    ("forall_swap_imp", {}, "q y → ∀ y, p y"),            # y free in the hypothesis
    ("funext_iff", {}, "a = b"),                          # not functions
    ("Finset.sum_Ico_eq_sum_range", {"k": "ℕ", "n": "ℕ"}, "∑ k ∈ Finset.Ico k n, f k"),  # capture
    ("Finset.sum_Ico_eq_sum_range", {"m": "ℤ", "n": "ℤ"}, "∑ k ∈ Finset.Ico m n, f k"),  # ℤ bounds
])
def test_guarded_rules_do_not_fire(name, env, instance):
    assert _apply(name, instance, env) == []


def test_coerced_leaves_take_the_region_type():
    # `x * ↑q` with x : ℝ elaborates at ℝ (binop%), so mul_comm applies
    assert canonical(parse_term("↑q * x")) in _apply("mul_comm", "x * ↑q", {"x": "ℝ"})
    assert _apply("mul_comm", "↑q * ↑r", {}) == []


@pytest.mark.parametrize("body, message", [
    ("rules: [{name: a, lemma: a, statement: s, source: s, lhs: '?a', rhs: '?a', foo: 1}]",
     "unknown key"),
    # `tactic` was loaded and never used; it is no longer a key (the tactic is derived)
    ("rules: [{name: a, lemma: a, statement: s, source: s, lhs: '?a', rhs: '?a',"
     " tactic: 'simp'}]", "unknown key.*tactic"),
    ("rules: [{name: a, lemma: a, statement: s, source: s, lhs: '?a + 1', rhs: '?b'}]",
     "does not bind"),
    ("rules: [{name: a, lemma: a, statement: s, source: s, lhs: '?a + 1', rhs: '?a',"
     " when: [{bogus: [x]}]}]", "unknown condition"),
    ("rules: [{name: a, lemma: a, statement: s, source: s, lhs: '?a + (', rhs: '?a'}]",
     "does not parse"),
    # schema errors name the field (pydantic `RuleEntry`)
    ("rules: [{name: a, lemma: a, statement: s, source: s, lhs: 3, rhs: '?a'}]",
     "field `lhs`: Input should be a valid string"),
    ("rules: [{name: a, lemma: a, statement: s, source: s, lhs: '?a', rhs: '?a',"
     " reversible: 'yes'}]", "field `reversible`"),
    ("rules: [{name: a, lemma: a, statement: s, source: s, lhs: '?a', rhs: '?a',"
     " subst: {'?b': ['?c']}}]", "field `subst"),
])
def test_bad_rule_files_name_the_rule(tmp_path, body, message):
    path = tmp_path / "r.yaml"
    path.write_text(body, encoding="utf-8")
    with pytest.raises(InputError, match=message) as info:
        load_rules(path)
    assert "'a'" in str(info.value) and str(path) in str(info.value)
