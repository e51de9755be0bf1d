"""The evidence engine as the sensitivity suite's validator."""

from transted.reading.pairs import Pair
from transted.studies.sensitivity.lean.perturb import SourceStatement, generate_suite
from transted.studies.sensitivity.validator import EvidenceValidator


def _pair(ref: str, cand: str, label: bool, kind: str) -> Pair:
    return Pair(id=f"s#{kind}", label=label, reference={"statement": ref},
                candidate={"statement": cand}, meta={"perturbation": {"kind": kind}})


def test_meaning_change_proved_equivalent_is_discarded():
    v = EvidenceValidator()
    # the dropped hypothesis 0 < n is implied by 2 ≤ n: the "meaning change" changes nothing
    keep, reason = v(_pair("theorem a (n : ℕ) (h₀ : 0 < n) (h₁ : 2 ≤ n) : n ^ 2 ≥ 4",
                           "theorem a (n : ℕ) (h₁ : 2 ≤ n) : n ^ 2 ≥ 4", False, "drop_hyp"))
    assert not keep and "proved equivalent" in reason
    assert v.discarded[("drop_hyp", reason)] == 1 and v.generator_bugs == []


def test_faithful_pair_refuted_is_a_generator_bug():
    v = EvidenceValidator()
    keep, reason = v(_pair("theorem a (n : ℕ) (h : 2 ≤ n) : n ^ 2 ≥ 4",
                           "theorem a (n : ℕ) (h : 2 ≤ n) : n ^ 2 ≥ 5", True, "add_comm"))
    assert not keep and "generator bug" in reason
    assert v.generator_bugs[0]["witness"] == {"n": "2"}


def test_real_meaning_change_is_kept():
    v = EvidenceValidator()
    keep, _ = v(_pair("theorem a (n : ℕ) (h : 2 ≤ n) : n ^ 2 ≥ 4",
                      "theorem a (n : ℕ) (h : 2 ≤ n) : n ^ 2 ≥ 5", False, "numeral"))
    assert keep and v.checked["numeral"] == 1 and not v.discarded


def test_plugged_into_generate_suite_counts_validator_discards():
    src = SourceStatement(source="t", statement="theorem t (x : ℝ) (h₀ : 3 * x = 6) : x = 2",
                          header=None)
    plain = generate_suite([src], seed=0)
    v = EvidenceValidator()
    suite = generate_suite([src], seed=0, validators=[v])
    dropped = sum(suite.validated_out.values())
    assert len(suite.pairs) + dropped == len(plain.pairs)
    assert sum(v.checked.values()) == len(plain.pairs) - 1  # the identical pair is not checked
    assert dropped == sum(v.discarded.values())
    assert v.generator_bugs == []


def test_renamed_false_benchmark_statement_is_not_refuted():
    # miniF2F `induction_sum_odd` is false as Lean reads it (n = 0: 1 ≠ 0); its alpha-renamed
    # copy fails at the same point, so the pair is suspect, never `refuted` (was reported as
    # a generator bug before the reference was aligned by position)
    v = EvidenceValidator()
    keep, _ = v(_pair("theorem s (n : ℕ) : (∑ k in Finset.range n, 2 * k) + 1 = n ^ 2",
                      "theorem s (m : ℕ) : (∑ k in Finset.range m, 2 * k) + 1 = m ^ 2",
                      True, "rename_bound"))
    assert keep and v.generator_bugs == []
    ev = v.evidence(_pair("theorem s (n : ℕ) : (∑ k in Finset.range n, 2 * k) + 1 = n ^ 2",
                          "theorem s (m : ℕ) : (∑ k in Finset.range m, 2 * k) + 1 = m ^ 2",
                          True, "rename_bound"))
    assert ev.kind == "none" and "both statements false" in (ev.reason or "")
