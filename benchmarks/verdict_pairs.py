"""Hand-written pairs for the verdict rule (issue 21): each with its truth and why.

    PYTHONPATH=. python benchmarks/verdict_pairs.py [--metric transted] [--json]

Prints, per pair, the truth, the score, the verdict and what decided it. Only the public API
(`transted.score`, imported from PYTHONPATH) is used, so the same script runs on an older
checkout (the "before" column:
`git archive a3b40ea | tar -x -C /tmp/base_v; PYTHONPATH=/tmp/base_v python
benchmarks/verdict_pairs.py`). The pairs are also the cases of tests/test_verdict_pairs.py.
Each truth is Lean's reading of the two statements (mutual provability, the strict convention).
"""

from __future__ import annotations

import argparse
import json
from dataclasses import dataclass

HEADER = "import Mathlib\nopen Real"


@dataclass(frozen=True)
class Case:
    name: str
    reference: str
    candidate: str
    equivalent: bool
    why: str


def _t(binders: str, concl: str) -> str:
    return f"theorem t {binders} : {concl} := sorry"


CASES = [
    # -- the three pairs ---------------------------------------------------------------
    Case("issue-imp-iff", _t("(p a b : ℕ) (hp : Nat.Prime p)", "p ∣ a * b → p ∣ a ∨ p ∣ b"),
         _t("(p a b : ℕ) (hp : Nat.Prime p)", "p ∣ a * b ↔ p ∣ a ∨ p ∣ b"), False,
         "↔ adds the converse: at p = 2, a = 2, b = 3 the converse holds, but the two "
         "statements are different propositions (Iff vs implication)"),
    Case("issue-card-strict", _t("(s : Finset ℕ) (h : ∀ x ∈ s, x < 6)", "s.card ≤ 6"),
         _t("(s : Finset ℕ) (h : ∀ x ∈ s, x < 6)", "s.card < 6"), False,
         "s = {0, …, 5} satisfies h with card 6: the candidate is false there"),
    Case("issue-sup-inf", _t("{G : Type*} [Group G] (H K : Subgroup G) (h : H ≤ K)", "H ⊔ K = K"),
         _t("{G : Type*} [Group G] (H K : Subgroup G) (h : H ≤ K)", "H ⊓ K = K"), False,
         "H ⊓ K = H under H ≤ K: the candidate claims H = K"),
    # -- hypothesis entailment -----------------------------------------------------------------
    Case("implied-added", _t("(x y : ℝ) (h₀ : x * y = 6) (h₁ : 0 < x)", "Real.log (x * y) = Real.log 6"),
         _t("(x y : ℝ) (h₀ : x * y = 6) (h₁ : 0 < x) (h₂ : 0 < y)", "Real.log (x * y) = Real.log 6"),
         True, "x * y = 6 and 0 < x imply 0 < y: the added hypothesis excludes nothing"),
    Case("implied-dropped", _t("(x y : ℝ) (h₀ : x * y = 6) (h₁ : x ≠ 0)", "Real.exp x * y ≠ 0"),
         _t("(x y : ℝ) (h₀ : x * y = 6)", "Real.exp x * y ≠ 0"), True,
         "x * y = 6 implies x ≠ 0: the dropped hypothesis was redundant"),
    Case("not-implied-added", _t("(x y : ℝ) (h₀ : x * y = 6) (h₁ : 0 < x)", "Real.log (x * y) = Real.log 6"),
         _t("(x y : ℝ) (h₀ : x * y = 6) (h₁ : 0 < x) (h₂ : 1 < y)", "Real.log (x * y) = Real.log 6"),
         False, "x = 6, y = 1 satisfies the reference's hypotheses, not 1 < y"),
    Case("changed-equivalent", _t("(x : ℝ) (h : 2 * x + 1 = 7)", "Real.exp x > 1"),
         _t("(x : ℝ) (h : x = 3)", "Real.exp x > 1"), True,
         "2 * x + 1 = 7 ↔ x = 3 over ℝ (linarith both ways)"),
    Case("conclusion-by-hypothesis", _t("(x : ℝ) (h : x = 2)", "Real.exp x > 7"),
         _t("(x : ℝ) (h : x = 2)", "Real.exp 2 > 7"), True,
         "under h the conclusions are the same term (Eq.subst)"),
    # -- renaming ------------------------------------------------------------------------------
    Case("consistent-renaming", _t("(a b : ℕ) (h : a < b)", "Nat.totient a ≤ Nat.totient b + a"),
         _t("(y x : ℕ) (h : x < y)", "Nat.totient x ≤ Nat.totient y + x"), True,
         "one bijection a ↦ x, b ↦ y (and forall_swap for the binder order)"),
    Case("swapped-variables", _t("(x y : ℕ) (h : x < y)", "Nat.totient x ≤ Nat.totient y + x"),
         _t("(x y : ℕ) (h : x < y)", "Nat.totient y ≤ Nat.totient x + y"), False,
         "x and y exchanged in the conclusion only: at x = 2, y = 5 the reference's instance "
         "reads 1 ≤ 6, the candidate's 4 ≤ 3"),
    # -- types, coercions, numerals ------------------------------------------------------------
    Case("cast-across-subtraction", _t("(a b : ℕ) (x : ℝ) (h : x = ↑(a - b))", "Real.exp x ≥ 1"),
         _t("(a b : ℕ) (x : ℝ) (h : x = ↑a - ↑b)", "Real.exp x ≥ 1"), False,
         "ℕ subtraction truncates: at a = 0, b = 1 the reference has x = 0, the candidate x = -1"),
    Case("cast-spelling", _t("(n : ℕ) (x : ℝ) (h : x = ↑n + 1)", "Real.log x ≥ 0"),
         _t("(n : ℕ) (x : ℝ) (h : x = (n : ℝ) + 1)", "Real.log x ≥ 0"), True,
         "↑n and (n : ℝ) are the same cast Nat.cast n : ℝ"),
    Case("universe-binder-info", _t("{G : Type*} [Group G] (x : G)", "x * 1 = x"),
         _t("{G : Type u} [inst : Group G] (x : G)", "x * 1 = x"), True,
         "Type* is one fresh universe variable; [inst : C] names the same instance argument"),
    Case("type-change", _t("(x : ℝ) (h : 0 < x)", "Real.log (x ^ 2) = 2 * Real.log x"),
         _t("(x : ℚ) (h : 0 < x)", "Real.log (x ^ 2) = 2 * Real.log x"), False,
         "quantifies over ℚ instead of ℝ: another statement (strictly)"),
    # -- what the trees cannot tell: the threshold decides -------------------------------------
    Case("opaque-instance", _t("{G : Type*} [Group G] [Fintype G] (h : Nat.card G = 2)", "∀ x : G, x * x = 1"),
         _t("{G : Type*} [Group G] [Finite G] (h : Nat.card G = 2)", "∀ x : G, x * x = 1"), True,
         "Fintype G and Finite G give the same statement (a Fintype instance exists for any "
         "Finite type classically); the Mathlib index's curated interchangeable classes say so"),
]


def run(metric: str) -> list[dict[str, object]]:
    import transted

    rows = []
    for case in CASES:
        r = transted.score(case.reference, case.candidate, metric, header=HEADER, id=case.name)
        rows.append({"name": case.name, "truth": "equivalent" if case.equivalent
                     else "not-equivalent", "score": r.score, "verdict": r.verdict,
                     "decided_by": r.decided_by, "status": r.status,
                     "reason": (r.details or {}).get("verdict_reason")})
    return rows


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--metric", default="transted")
    ap.add_argument("--json", action="store_true")
    args = ap.parse_args(argv)
    rows = run(args.metric)
    if args.json:
        print(json.dumps(rows, ensure_ascii=False, indent=1))
        return 0
    print("| pair | truth | score | verdict | decided by |")
    print("|---|---|---|---|---|")
    for r in rows:
        score = "error" if r["score"] is None else f"{r['score']:.3f}"
        print(f"| {r['name']} | {r['truth']} | {score} | {r['verdict']} | {r['decided_by']} |")
    right = sum(r["verdict"] == r["truth"] for r in rows)
    print(f"\n{right} of {len(rows)} verdicts agree with the truth")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
