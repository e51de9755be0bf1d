"""The verdict rule on the soundness corpus: who decided each verdict, and every wrong one.

    PYTHONPATH=. python benchmarks/verdict_soundness.py [METRIC] [--pairs F] [--json]

Scores tests/data/soundness/pairs.jsonl (adversarial pairs with their truth under Lean's
elaboration, issue 22) and counts verdicts per ``decided_by`` against the truth. The soundness
figure of the residual-edit rule is the number of pairs labelled *not equivalent* that the
**edits** call equivalent (a wrong "nothing that matters differs"): it should be 0. Pairs whose
``meta.expect`` is ``abstain`` (the candidate would not elaborate) are listed apart. Evidence
claims are judged by benchmarks/soundness.py.
"""

from __future__ import annotations

import argparse
import json
import sys
from collections import Counter
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

import transted  # noqa: E402
from transted.pairs import read_pairs  # noqa: E402

CORPUS = ROOT / "tests/data/soundness/pairs.jsonl"


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("metric", nargs="?", default="transted")
    ap.add_argument("--pairs", type=Path, default=CORPUS)
    ap.add_argument("--json", action="store_true")
    args = ap.parse_args(argv)
    pairs = read_pairs(args.pairs)
    results = transted.score_many(pairs, args.metric)
    counts: Counter[tuple[str, str, str]] = Counter()
    wrong_equivalent = []
    for pair, r in zip(pairs, results, strict=True):
        truth = "abstain" if pair.meta.get("expect") == "abstain" else \
            ("equivalent" if pair.label else "not-equivalent")
        counts[(str(r.decided_by), str(r.verdict), truth)] += 1
        if r.decided_by == "edits" and r.verdict == "equivalent" and truth != "equivalent":
            wrong_equivalent.append({"id": pair.id, "truth": truth,
                                     "reason": pair.meta.get("reason")})
    rows = [{"decided_by": d, "verdict": v, "truth": t, "n": n}
            for (d, v, t), n in sorted(counts.items())]
    if args.json:
        print(json.dumps({"rows": rows, "edits_wrong_equivalent": wrong_equivalent},
                         ensure_ascii=False, indent=1))
        return 0
    print(f"{len(pairs)} pairs, metric {args.metric}\n")
    print("| decided by | verdict | truth | pairs |\n|---|---|---|---|")
    for row in rows:
        print(f"| {row['decided_by']} | {row['verdict']} | {row['truth']} | {row['n']} |")
    print(f"\nedits called equivalent a pair that is not: {len(wrong_equivalent)}")
    for w in wrong_equivalent:
        print(f"- {w['id']} ({w['truth']}): {w['reason']}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
