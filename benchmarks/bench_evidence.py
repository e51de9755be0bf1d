"""Evidence on the dev pairs and the candidate-false check on the benchmark statements.

* dev pairs (``tests/data/gted/proofnet.jsonl``): evidence kind per pair, agreement of
  ``proved`` (label true) and ``refuted`` (label false) with the expert labels, every
  disagreement, median/p95 ms per pair;
* statements (``tests/data/statements``): each statement alone, per engine (``eval``, ``z3``,
  both): how many are claimed false (each is a soundness bug or a false benchmark statement)
  and how many abstain; median/p95 ms.

Usage: ``.venv/bin/python benchmarks/bench_evidence.py [--pairs-only|--statements-only]
[--out DIR]`` — writes ``DIR/evidence_pairs.jsonl`` / ``DIR/evidence_statements.jsonl``.
"""

from __future__ import annotations

import argparse
import json
import statistics
import time
from collections import Counter
from pathlib import Path

from transted.errors import TranstedError
from transted.evidence import RefuteOptions, pair_evidence, statement_evidence
from transted.opt import parse_statement
from transted.pairs import read_pairs

ROOT = Path(__file__).resolve().parents[1]


def _stats(ms: list[float]) -> str:
    if not ms:
        return "n=0"
    ms = sorted(ms)
    return (f"n={len(ms)} median={statistics.median(ms):.1f} ms "
            f"p95={ms[min(len(ms) - 1, int(0.95 * len(ms)))]:.1f} ms max={ms[-1]:.1f} ms")


def dev_pairs(out: Path, options: RefuteOptions) -> None:
    rows, ms, counts, agree = [], [], Counter(), Counter()
    for pair in read_pairs(ROOT / "tests/data/gted/proofnet.jsonl"):
        t0 = time.perf_counter()
        try:
            ref = parse_statement(pair.reference.statement, header=pair.reference.header)
            cand = parse_statement(pair.candidate.statement, header=pair.candidate.header)
        except TranstedError as e:
            counts["parse-error"] += 1
            rows.append({"id": pair.id, "kind": "parse-error", "reason": str(e)[:200]})
            continue
        ev = pair_evidence(ref, cand, options)
        wall = (time.perf_counter() - t0) * 1000
        ms.append(ev.ms)
        counts[ev.kind] += 1
        if ev.kind != "none" and pair.label is not None:
            ok = (ev.kind == "proved") == pair.label
            agree[(ev.kind, ok)] += 1
            if not ok:
                print(f"DISAGREE {pair.id} evidence={ev.kind} label={pair.label}\n"
                      f"  ref:  {pair.reference.statement}\n  cand: {pair.candidate.statement}\n"
                      f"  {ev.model_dump(exclude_defaults=True)}")
        rows.append({"id": pair.id, "label": pair.label, "wall_ms": wall,
                     **ev.model_dump(mode="json")})
    (out / "evidence_pairs.jsonl").write_text(
        "".join(json.dumps(r, ensure_ascii=False) + "\n" for r in rows), encoding="utf-8")
    print(f"dev pairs: {dict(counts)}")
    for kind in ("proved", "refuted"):
        print(f"  {kind}: agree with labels {agree[(kind, True)]}, disagree {agree[(kind, False)]}")
    print(f"  time per pair (evidence): {_stats(ms)}")


def statements(out: Path, options: RefuteOptions) -> None:
    files = sorted((ROOT / "tests/data/statements").glob("*.jsonl"))
    for engines in (("eval",), ("z3",), ("eval", "z3")):
        opts = RefuteOptions(**{**options.__dict__, "engines": engines})
        counts, ms, rows = Counter(), [], []
        for f in files:
            for i, line in enumerate(f.read_text(encoding="utf-8").splitlines()):
                d = json.loads(line)
                text = d["formal_statement"]
                try:
                    tree = parse_statement(text if ":=" in text else text + " := sorry",
                                           header=d.get("header"))
                except TranstedError:
                    counts["parse-error"] += 1
                    continue
                ev = statement_evidence(tree, opts)
                counts[ev.kind] += 1
                ms.append(ev.ms)
                if ev.kind == "refuted":
                    print(f"CLAIMED FALSE [{'+'.join(engines)}] {f.name}:{i + 1} {d['name']} "
                          f"witness={ev.witness} engine={ev.engine}\n  {text.strip()}")
                rows.append({"file": f.name, "line": i + 1, "name": d["name"],
                             **ev.model_dump(mode="json")})
        name = "+".join(engines)
        (out / f"evidence_statements_{name}.jsonl").write_text(
            "".join(json.dumps(r, ensure_ascii=False) + "\n" for r in rows), encoding="utf-8")
        print(f"statements [{name}]: {dict(counts)}; {_stats(ms)}")


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--pairs-only", action="store_true")
    parser.add_argument("--statements-only", action="store_true")
    parser.add_argument("--out", default="/tmp/transted-evidence")
    parser.add_argument("--budget-ms", type=float, default=200.0)
    args = parser.parse_args()
    out = Path(args.out)
    out.mkdir(parents=True, exist_ok=True)
    options = RefuteOptions(budget_ms=args.budget_ms)
    if not args.statements_only:
        dev_pairs(out, options)
    if not args.pairs_only:
        statements(out, options)


if __name__ == "__main__":
    main()
