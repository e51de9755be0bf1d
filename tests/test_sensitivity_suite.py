"""The Lean sensitivity suite: generators, guards, determinism, the evidence hook, the runner."""

from __future__ import annotations

import csv
import random
from pathlib import Path

import pytest

from transted.metrics.base import MetricResult
from transted.pipeline.opt.spans import declaration_spans
from transted.studies.sensitivity.lean import changes as ch
from transted.studies.sensitivity.lean import rewrites as rw
from transted.studies.sensitivity.lean.perturb import (
    GENERATORS,
    SourceStatement,
    generate_suite,
    read_statements,
)
from transted.studies.sensitivity.lean.sites import SpannedStatement
from transted.studies.sensitivity.suite import (
    CSV_COLUMNS,
    blind_kinds,
    run_sensitivity,
    sample_per_kind,
    sensitivity_rows,
)

HEADER = "import Mathlib\nopen Real Nat\n"
# one site per generator below: the expected texts are written by hand from each rule
S = "theorem t (x y : ℝ) (h₀ : 0 < x) (h₁ : x ≠ y) : x ^ 2 + y = 7 := by"
DATA = Path(__file__).parent / "data" / "statements"


def apply(f, text: str = S, header: str = HEADER, seed: int = 0):
    return f(SpannedStatement(declaration_spans(text, header=header), header), random.Random(seed))


@pytest.mark.parametrize("f, expected", [
    (rw.reorder_hypotheses, "theorem t (x y : ℝ) (h₁ : x ≠ y) (h₀ : 0 < x) : x ^ 2 + y = 7 := by"),
    (rw.ne_not_eq, "theorem t (x y : ℝ) (h₀ : 0 < x) (h₁ : ¬(x = y)) : x ^ 2 + y = 7 := by"),
    (rw.curry_conjoin, "theorem t (x y : ℝ) (h₀ : 0 < x ∧ x ≠ y) : x ^ 2 + y = 7 := by"),
    (rw.commute, "theorem t (x y : ℝ) (h₀ : 0 < x) (h₁ : x ≠ y) : y + (x ^ 2) = 7 := by"),
    (rw.eq_symm, "theorem t (x y : ℝ) (h₀ : 0 < x) (h₁ : x ≠ y) : 7 = x ^ 2 + y := by"),
    (rw.flip_relation, "theorem t (x y : ℝ) (h₀ : x > 0) (h₁ : x ≠ y) : x ^ 2 + y = 7 := by"),
    (ch.strictness, "theorem t (x y : ℝ) (h₀ : 0 ≤ x) (h₁ : x ≠ y) : x ^ 2 + y = 7 := by"),
    (ch.reverse_relation, "theorem t (x y : ℝ) (h₀ : 0 > x) (h₁ : x ≠ y) : x ^ 2 + y = 7 := by"),
    (ch.negate_conclusion, "theorem t (x y : ℝ) (h₀ : 0 < x) (h₁ : x ≠ y) : ¬(x ^ 2 + y = 7) := by"),
    (ch.change_type, "theorem t (x y : ℚ) (h₀ : 0 < x) (h₁ : x ≠ y) : x ^ 2 + y = 7 := by"),
    (ch.swap_operands, "theorem t (x y : ℝ) (h₀ : 0 < x) (h₁ : x ≠ y) : 2 ^ x + y = 7 := by"),
    # y is the only conclusion variable without a direct bound (0 < x bounds x); 3 is the
    # smallest literal >= 2 absent from the statement
    (ch.add_hypothesis,
     "theorem t (x y : ℝ) (h_new : y ≠ 3) (h₀ : 0 < x) (h₁ : x ≠ y) : x ^ 2 + y = 7 := by"),
])
def test_single_site_generators(f, expected):
    assert apply(f)[0] == expected


def test_rename_bound_renames_every_use_and_field_access():
    text, detail = apply(rw.rename_bound, "theorem t (z : ℂ) (h : z.re = 1) : z.im = 0 := by")
    assert text == "theorem t (w : ℂ) (h : w.re = 1) : w.im = 0 := by" and detail == "z -> w"


@pytest.mark.parametrize("text, header, expected", [
    ("theorem t : Real.sqrt 2 < 2 := by", HEADER, "theorem t : √2 < 2 := by"),
    ("theorem t (x : ℝ) : abs (x - 1) ≥ 0 := by", HEADER, "theorem t (x : ℝ) : |x - 1| ≥ 0 := by"),
    ("theorem t (x : ℝ) : |x - 1| ≥ 0 := by", HEADER, "theorem t (x : ℝ) : abs (x - 1) ≥ 0 := by"),
    ("theorem t : Real.pi > 3 := by", HEADER, "theorem t : π > 3 := by"),
    ("theorem t (n : ℕ) : ∑ k in Finset.range n, k = 0 := by", HEADER,
     "theorem t (n : ℕ) : ∑ k ∈ Finset.range n, k = 0 := by"),
])
def test_notation_variants(text, header, expected):
    assert apply(rw.notation, text, header)[0] == expected


def test_pi_notation_needs_open_real():
    with pytest.raises(rw.Skip):
        apply(rw.notation, "theorem t : Real.pi > 3 := by", "import Mathlib\n")


def test_namespace_variants():
    assert apply(rw.namespace, "theorem t (p : ℕ) (h : Nat.Prime p) : p ≥ 2 := by")[0] == \
        "theorem t (p : ℕ) (h : p.Prime) : p ≥ 2 := by"
    assert apply(rw.namespace, "theorem t (p : ℕ) (h : p.Prime) : p ≥ 2 := by")[0] == \
        "theorem t (p : ℕ) (h : (Nat.Prime p)) : p ≥ 2 := by"
    # `Real.log` under `open Real Nat`: `Nat.log` exists too, so dropping the prefix is refused
    with pytest.raises(rw.Skip):
        apply(rw.namespace, "theorem t : Real.log 1 = 0 := by")
    assert apply(rw.namespace, "theorem t : Real.exp 0 = 1 := by")[0] == \
        "theorem t : exp 0 = 1 := by"


# Sites the generators found wrongly while they re-derived the parser's precedence (the old
# `root_split`); they now read the parser's own spans (`transted.pipeline.opt.spans`). Each expected
# text follows from the precedences in `opt/notation.yaml` (from Mathlib's notation).
@pytest.mark.parametrize("f, text, expected", [
    # `∑ x in s, f` reads its body at precedence 67 (Mathlib BigOperators `r:67`), above `=`
    # (50): the equation is `(∑ k in Finset.range n, k) = n`, the sum one side (it was read
    # as `∑ k in Finset.range n, (k = n)`, giving `∑ k in Finset.range n, n = k`)
    (rw.eq_symm, "theorem t (n : ℕ) : ∑ k in Finset.range n, k = n := by",
     "theorem t (n : ℕ) : n = ∑ k in Finset.range n, k := by"),
    # `⊤`/`⊥` are constants, not prefix operators: `∨` (30) joins two equations (`=`, 50);
    # the old reading found no connective
    (ch.and_or, "theorem t {G : Type*} [Group G] (H : Subgroup G) : H = ⊤ ∨ H = ⊥ := by",
     "theorem t {G : Type*} [Group G] (H : Subgroup G) : H = ⊤ ∧ H = ⊥ := by"),
    # the postfix `⁻¹` ends an operand: `(x = y⁻¹) ∧ (0 < y)`; the old reading found no `=`
    (rw.eq_symm, "theorem t (x y : ℝ) : x = y⁻¹ ∧ 0 < y := by",
     "theorem t (x y : ℝ) : y⁻¹ = x ∧ 0 < y := by"),
    # `->` is the ASCII spelling of `→` (the parser's alias); the old reading skipped it
    (ch.imp_iff, "theorem t (x : ℝ) : (0 < x) -> 0 < x ^ 2 := by",
     "theorem t (x : ℝ) : (0 < x) ↔ 0 < x ^ 2 := by"),
    # `[ZMOD n]` belongs to `≡` (`Int.ModEq`), not to its right side: the sum is `a + 1`
    (rw.commute, "theorem t (a n : ℤ) : 1 ≡ a + 1 [ZMOD n] := by",
     "theorem t (a n : ℤ) : 1 ≡ 1 + a [ZMOD n] := by"),
])
def test_sites_are_the_parsers(f, text, expected):
    assert apply(f, text)[0] == expected


def test_statements_the_guards_cannot_read_are_discarded_with_a_reason():
    sources = [
        # a `def` declares data (`CommGroup G` is a type, not a proposition)
        SourceStatement("d:1", "def d (G : Type*) [Group G] (h : ∀ a b : G, a * b = b * a) :"
                               " CommGroup G :=", HEADER),
        # `n` used, then declared again: the guards read names as text and cannot tell the
        # two apart (dropping `h'` would look material; it only constrains the second `n`)
        SourceStatement("d:2", "theorem u (n : ℤ) (h : n = 2) (n) (h' : n = 3) : 0 = 0 := by",
                        HEADER),
        SourceStatement("d:3", "theorem v : (1 : ℕ) + = 2 := by", HEADER),
        # a hypothesis name repeated (never used) is read
        SourceStatement("d:4", "theorem w (n : ℕ) (h₀ : 0 < n) (h₀ : n < 5) : n ≠ 0 := by",
                        HEADER),
    ]
    suite = generate_suite(sources, seed=0, kinds=["drop_hypothesis"])
    assert [p.id for p in suite.pairs] == ["d:4#identical", "d:4#drop_hypothesis"]
    assert suite.discarded == {
        ("*", "not a theorem (a `def` declares data, not a proposition)"): 1,
        ("*", "a used binder name is declared again (the guards read names as text)"): 1,
        ("*", "the reference does not parse"): 1}


@pytest.mark.parametrize("f, text", [
    # 2 ^ 4 = 4 ^ 2: swapping two literals with equal results is refused
    (ch.swap_operands, "theorem t : (2 : ℕ) ^ 4 = 16 := by"),
    # x - x: equal operands
    (ch.swap_operands, "theorem t (x : ℝ) : x - x = 0 := by"),
    # a hypothesis states the sides distinct: < and ≤ would coincide
    (ch.strictness, "theorem t (a b : ℝ) (h : a ≠ b) (h₂ : a ≤ b) : a = a := by"),
    # at i = j the conclusion reads `a i ∣ a i` (`dvd_refl`): `i < j` and `i ≤ j` agree
    (ch.strictness, "theorem t (a : ℕ → ℕ) (h : ∀ i j, i < j → a i ∣ a j) : a 0 ∣ a 1 := by"),
    # the bound variable is unused in the body: ∀ and ∃ agree on an inhabited type
    (ch.forall_exists, "theorem t : ∀ n : ℕ, 1 = 1 := by"),
    # ∧ between equal operands
    (ch.and_or, "theorem t (x : ℝ) : x = 1 ∧ x = 1 := by"),
    # mixed types (ℕ and ℝ): commutation is not claimed
    (rw.commute, "theorem t (n : ℕ) (x : ℝ) : n + x = 2 := by"),
    # y - x = -(x - y) (`neg_sub`) and -z = 0 ↔ z = 0 (`neg_eq_zero`): the sign is unobserved
    (ch.swap_operands, "theorem t (x y : ℝ) (h : x - y ≠ 0) : x ≠ y := by"),
    # c ∣ -z ↔ c ∣ z (`dvd_neg`) on ℤ
    (ch.swap_operands, "theorem t (a b : ℤ) (h : 3 ∣ a - b) : 3 ∣ a + b := by"),
])
def test_guards_refuse_accidental_equivalence(f, text):
    with pytest.raises(rw.Skip):
        apply(f, text)


def _every_choice(f, text: str) -> set[str]:
    return {apply(f, text, seed=seed)[0] for seed in range(24)}


def test_a_swapped_difference_keeps_its_sign_where_it_is_observed():
    # (x - y) ^ 2 = (y - x) ^ 2 (`Even.neg_pow`): only the `^` is swapped
    assert _every_choice(ch.swap_operands, "theorem t (x y : ℝ) : (x - y) ^ 2 = 4 := by") == {
        "theorem t (x y : ℝ) : 2 ^ (x - y) = 4 := by"}
    # on ℕ `-` truncates: 5 - n is 0 for n ≥ 5, n - 5 is not, so the swap changes `101 ∣ ·`
    assert apply(ch.swap_operands, "theorem t (n : ℕ) (h : 101 ∣ n - 5) : n = 5 := by")[0] == \
        "theorem t (n : ℕ) (h : 101 ∣ 5 - n) : n = 5 := by"


# ∧ is `infixr:35`, ∨ `infixr:30`, → `infixr:25`, ↔ `infix:20` (Lean core, Init/Core and
# Prelude): a connective swapped for one of another precedence regroups its neighbours unless
# the edit is parenthesised; every candidate keeps the operands of the swapped connective.
@pytest.mark.parametrize("f, text, expected", [
    # `A ∧ (B ∧ C)`: the outer ∧ → `A ∨ B ∧ C` is `A ∨ (B ∧ C)`; the inner ∧ in place would
    # read `(A ∧ B) ∨ C`, so it is written `A ∧ (B ∨ C)`
    (ch.and_or, "theorem t (a b c : ℝ) : 0 < a ∧ 0 < b ∧ 0 < c := by",
     {"theorem t (a b c : ℝ) : 0 < a ∨ 0 < b ∧ 0 < c := by",
      "theorem t (a b c : ℝ) : 0 < a ∧ (0 < b ∨ 0 < c) := by"}),
    # `p → (q → r)`: the outer → gives `p ↔ q → r` = `p ↔ (q → r)`; the inner in place would
    # read `(p → q) ↔ r`
    (ch.imp_iff, "theorem t (p q r : Prop) : p → q → r := by",
     {"theorem t (p q r : Prop) : p ↔ q → r := by",
      "theorem t (p q r : Prop) : p → (q ↔ r) := by"}),
])
def test_a_swapped_connective_keeps_its_operands(f, text, expected):
    assert _every_choice(f, text) == expected


def test_drop_hypothesis_guards():
    # h₁ duplicates h₀ and h₂ is closed: only h₀ / h₁ ... h₁ is refused (duplicate of h₀),
    # h₀ too (duplicate of h₁), h₂ (closed) — nothing is left
    with pytest.raises(rw.Skip, match="refused"):
        apply(ch.drop_hypothesis, "theorem t (x : ℝ) (h₀ : 0 < x) (h₁ : 0 < x) (h₂ : 1 < 2) : "
                                  "x ≠ 0 := by")
    # the hypothesis on y constrains a variable the conclusion never mentions
    with pytest.raises(rw.Skip, match="nowhere else"):
        apply(ch.drop_hypothesis, "theorem t (x y : ℝ) (h : 0 < y) : x = x := by")
    text, _ = apply(ch.drop_hypothesis, "theorem t (x : ℝ) (h₀ : 0 < x) : x ≠ 0 := by")
    assert text == "theorem t (x : ℝ) : x ≠ 0 := by"


def test_numeral_skips_absorbing_contexts():
    # `0 * 5`: changing 5 is immaterial; the only other literals are 0 (absorbing) and 3
    text, detail = apply(ch.numeral, "theorem t : 0 * 5 + 3 = 3 := by")
    assert detail in ("3 -> 4",) and "0 * 5" in text


SOURCES = [SourceStatement("a:1", S, HEADER),
           SourceStatement("b:2", "theorem u (n : ℕ) (h₀ : n % 2 = 1) : (n ^ 2) % 2 = 1 := by",
                           HEADER)]


def test_suite_is_deterministic_labelled_and_counted():
    one = generate_suite(SOURCES, seed=3)
    two = generate_suite(SOURCES, seed=3)
    assert [p.model_dump() for p in one.pairs] == [p.model_dump() for p in two.pairs]
    for p in one.pairs:
        pert = p.meta["perturbation"]
        assert p.label == (pert["kind"] == "identical" or GENERATORS[pert["kind"]].label)
        assert pert["label"] == ("equivalent" if p.label else "not-equivalent")
        assert pert["source"] == p.meta["group"] and p.id == f"{pert['source']}#{pert['kind']}"
    # every (statement, generator) either produced a pair or was counted as discarded
    made = sum(1 for p in one.pairs if p.meta["perturbation"]["kind"] != "identical")
    assert made + sum(one.discarded.values()) == len(SOURCES) * len(GENERATORS)


def test_validator_hook_discards_and_counts():
    def refute_numeral(pair):
        kind = pair.meta["perturbation"]["kind"]
        return (kind != "numeral", "evidence: equivalent")

    suite = generate_suite(SOURCES, seed=0, validators=[refute_numeral])
    assert not any(p.meta["perturbation"]["kind"] == "numeral" for p in suite.pairs)
    assert suite.validated_out[("numeral", "evidence: equivalent")] == 2


def test_read_statements_names_file_and_line(tmp_path):
    bad = tmp_path / "s.jsonl"
    bad.write_text('{"formal_statement": "theorem a : 1 = 1 := by"}\n{"name": "x"}\n',
                   encoding="utf-8")
    from transted.errors import InputError

    with pytest.raises(InputError, match=r"s.jsonl:2: field `formal_statement`"):
        read_statements(bad)


def _result(pid: str, score: float | None, verdict: str | None) -> MetricResult:
    return MetricResult(id=pid, metric="m", score=score, signature="metric:m", verdict=verdict)


def test_sensitivity_rows_by_hand():
    pairs = generate_suite(SOURCES[:1], seed=0, kinds=["eq_symm", "numeral"]).pairs
    kinds = [p.meta["perturbation"]["kind"] for p in pairs]
    assert kinds == ["identical", "eq_symm", "numeral"]
    res = {"m": [_result(pairs[0].id, 1.0, "equivalent"),
                 _result(pairs[1].id, 0.6, "not-equivalent"),  # wrong side: faithful rewrite
                 _result(pairs[2].id, None, None)]}            # abstained
    rows = {r.kind: r for r in sensitivity_rows(pairs, res)}
    assert (rows["identical"].n, rows["identical"].correct_share) == (1, 1.0)
    assert (rows["eq_symm"].mean_score, rows["eq_symm"].correct_share) == (0.6, 0.0)
    assert (rows["numeral"].n, rows["numeral"].abstained, rows["numeral"].mean_score) == \
        (0, 1, None)
    assert blind_kinds(list(rows.values()), "m") == ["eq_symm"]


def test_sample_per_kind_is_seeded_and_capped():
    pairs = generate_suite(SOURCES, seed=0).pairs
    a = sample_per_kind(pairs, 1, seed=5)
    assert [p.id for p in a] == [p.id for p in sample_per_kind(pairs, 1, seed=5)]
    kinds = [p.meta["perturbation"]["kind"] for p in a]
    assert len(kinds) == len(set(kinds))


def test_run_sensitivity_writes_the_tables(tmp_path):
    from transted.metrics.identity import IdentityMatch

    pairs = generate_suite(SOURCES, seed=0, kinds=["eq_symm", "negate_conclusion"]).pairs
    report = run_sensitivity(pairs, [IdentityMatch()], tmp_path)
    with (tmp_path / "sensitivity.csv").open(encoding="utf-8") as f:
        rows = list(csv.reader(f))
    assert tuple(rows[0]) == CSV_COLUMNS
    table = {r[1]: r for r in rows[1:]}
    # identity: 1 on identical pairs, 0 on any change -> right on identical and on the
    # meaning change, wrong on the faithful rewrite
    assert table["identical"][4:] == ["1.000000", "1.000000"]
    assert table["eq_symm"][4:] == ["0.000000", "0.000000"]
    assert table["negate_conclusion"][4:] == ["0.000000", "1.000000"]
    assert (tmp_path / "sensitivity.png").stat().st_size > 0
    assert "eq_symm" in (tmp_path / "sensitivity.md").read_text(encoding="utf-8")
    assert report.kinds == ["identical", "eq_symm", "negate_conclusion"]


@pytest.mark.slow
def test_every_shipped_statement_is_read_and_accounted_for():
    stmts = read_statements(DATA / "minif2f.jsonl") + read_statements(DATA / "proofnet.jsonl")
    assert len(stmts) == 859
    suite = generate_suite(stmts[:120], seed=0)
    made = sum(1 for p in suite.pairs if p.meta["perturbation"]["kind"] != "identical")
    unreadable = sum(n for (k, _), n in suite.discarded.items() if k == "*")
    assert made + sum(n for (k, _), n in suite.discarded.items() if k != "*") == \
        (120 - unreadable) * len(GENERATORS)
