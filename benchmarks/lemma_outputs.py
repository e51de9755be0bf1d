"""Outputs of the lemma metric on a pair file, for checking that a speed change changed no move.

    PYTHONPATH=. python benchmarks/lemma_outputs.py --out after.jsonl [--against before.jsonl]
        [--pairs tests/data/strict/beq_human_dev.jsonl] [--providers offline,lemmas,decide]

Every pair is scored in one process with ``providers=…``; each result is written (JSON lines)
without its signature (a table or provider version enters it) and without timing fields, so
two runs of the same search give the same lines: statuses, scores, verdicts, scripts, expansion
counts, evidence and residual. With ``--against`` the pairs whose lines differ are printed with
the fields that differ; the exit status is 1 when any does.
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

_TIMING = ("ms", "seconds", "elapsed", "time", "wall")


def _untimed(value: object) -> object:
    if isinstance(value, dict):
        return {k: _untimed(v) for k, v in value.items()
                if not any(t in k.lower() for t in _TIMING)}
    if isinstance(value, list):
        return [_untimed(v) for v in value]
    return value


def _differing(a: dict, b: dict) -> list[str]:
    out = [k for k in sorted(set(a) | set(b)) if k != "details" and a.get(k) != b.get(k)]
    da, db = a.get("details") or {}, b.get("details") or {}
    return out + [f"details.{k}" for k in sorted(set(da) | set(db)) if da.get(k) != db.get(k)]


def main(argv: list[str] | None = None) -> int:
    import transted
    from transted.reading.pairs import read_pairs

    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--pairs", type=Path, default=Path("tests/data/strict/beq_human_dev.jsonl"))
    ap.add_argument("--providers", default="offline,lemmas,decide")
    ap.add_argument("--out", type=Path, required=True)
    ap.add_argument("--against", type=Path, default=None)
    args = ap.parse_args(argv)
    metric = transted.load_metric("transted", providers=args.providers)
    rows = []
    for pair in read_pairs(args.pairs):
        result = json.loads(metric.score_pair(pair).model_dump_json())
        result.pop("signature", None)
        rows.append(_untimed(result))
    args.out.write_text("".join(json.dumps(r, sort_keys=True, ensure_ascii=False) + "\n"
                                for r in rows), encoding="utf-8")
    if args.against is None:
        print(f"{len(rows)} pairs written to {args.out}")
        return 0
    before = [json.loads(line) for line in args.against.read_text(encoding="utf-8").splitlines()]
    if len(before) != len(rows):
        print(f"{args.against}: {len(before)} pairs, this run {len(rows)}")
        return 1
    changed = [(b.get("id"), _differing(b, a)) for b, a in zip(before, rows, strict=True) if b != a]
    for pair_id, fields in changed:
        print(f"{pair_id}: {', '.join(fields)}")
    print(f"{len(rows)} pairs, {len(changed)} differing")
    return 1 if changed else 0


if __name__ == "__main__":
    sys.exit(main())
