"""The hand-made pairs of the meaning-aware-distance issue, scored by each metric given.

    .venv/bin/python benchmarks/hand_pairs.py ted ted:cost=semantic transted transted:cost=semantic

Prints a Markdown table: the score, and the evidence where it decided (refuted / proved).
"""

from __future__ import annotations

import sys

from bench_pair import parse_spec

from transted.metrics.registry import get_metric
from transted.reading.pairs import Pair, Statement

PAIRS = [  # (reference, candidate, truth)
    ("theorem t (x : ℝ) (h : 1 < x) : Real.sqrt x < x := sorry",
     "theorem t (x : ℝ) (h : 1 < x) : Real.sqrt x ≤ x := sorry", "different"),
    ("theorem t (n : ℕ) (h : n % 5 = 3) : 2 * n % 5 = 1 := sorry",
     "theorem t (n : ℕ) (h : n % 5 = 3) : 2 * n % 5 = 2 := sorry", "different"),
    ("theorem t (a b : ℝ) (ha : 0 < a) (hb : 0 < b) : a / b + b / a ≥ 2 := sorry",
     "theorem t (a b : ℝ) (ha : 0 < a) : a / b + b / a ≥ 2 := sorry", "different"),
    ("theorem t (n : ℕ) (h : Even n) : n ^ 2 % 2 = 0 := sorry",
     "theorem t (n : ℕ) (h : n % 2 = 0) : n ^ 2 % 2 = 0 := sorry", "same"),
    ("theorem t (x : ℝ) : 3 * x = 6 ↔ x = 2 := sorry",
     "theorem t (x : ℝ) : x + x + x = 6 ↔ x = 2 := sorry", "same"),
    ("theorem t (s : Finset ℕ) (h : s.Nonempty) : 0 < s.card := sorry",
     "theorem t (s : Finset ℕ) (h : Finset.Nonempty s) : 0 < Finset.card s := sorry", "same"),
    ("theorem t : ∃ x < (1:ℝ), x ^ 2 = 4 := sorry",
     "theorem t : ∃ x : ℝ, x < 1 ∧ x ^ 2 = 4 := sorry", "same"),
    ("theorem t (x : ℝ) : Real.sin x ≤ 1 := sorry",
     "theorem t (n : ℕ) : Nat.choose n 2 ≤ n ^ 2 := sorry", "unrelated"),
]


def cell(result: object) -> str:
    score = getattr(result, "score", None)
    if score is None:
        return str(getattr(result, "status", "?"))
    evidence = getattr(result, "details", {}).get("evidence")
    return f"{score:.3f}" + (f" ({evidence})" if evidence in ("proved", "refuted") else "")


def main(argv: list[str]) -> int:
    metrics = []
    for spec in argv:
        name, options = parse_spec(spec)
        metrics.append((spec, get_metric(name, **options)))
    print("| pair | truth | " + " | ".join(spec for spec, _ in metrics) + " |")
    print("|---|---|" + "---|" * len(metrics))
    for i, (ref, cand, truth) in enumerate(PAIRS, start=1):
        pair = Pair(id=f"h{i}", reference=Statement(statement=ref),
                    candidate=Statement(statement=cand))
        print(f"| {i} | {truth} | " + " | ".join(cell(m.score_pair(pair)) for _, m in metrics)
              + " |")
    return 0


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:] or ["ted", "transted"]))
