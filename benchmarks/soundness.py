"""Score the soundness corpus and list every wrong `proved`/`refuted` claim (issue 22).

    PYTHONPATH=. .venv/bin/python benchmarks/soundness.py [METRIC ...] [--pairs F] [--out F]

METRIC is ``name`` or ``name:key=value,…`` (default ``transted``; e.g.
``transted:cost=semantic``).
Each pair of ``tests/data/soundness/pairs.jsonl`` is scored through :func:`transted.score_many`;
the claim is the public result field ``details.evidence`` (``proved`` / ``refuted`` / ``none``;
a result with another status, or a metric without evidence, counts as no claim).

A claim is WRONG when it is ``proved`` on a pair labelled false, ``refuted`` on a pair labelled
true, or any claim on a pair whose ``meta.expect`` is ``abstain`` (the candidate would not
elaborate in Lean). The report gives counts overall and per ``meta.cause``, coverage, and every
wrong claim with its id. The output holds no timings, so two runs on the same code are the same
bytes; ``--out`` writes the same content as JSON (per-pair claims included).
"""

from __future__ import annotations

import argparse
import json
import sys
from collections import Counter
from pathlib import Path
from typing import Any

from bench_pair import parse_spec

import transted
from transted.reading.pairs import Pair, read_pairs

CORPUS = Path(__file__).resolve().parents[1] / "tests" / "data" / "soundness" / "pairs.jsonl"
CLAIMS = ("proved", "refuted")
REFUTED_BAR = 0.98
"""Issue 22's bar: every `proved` right, `refuted` right on at least 98%."""


def claim_of(result: Any) -> str:
    """``proved``, ``refuted`` or ``none`` from a result's public fields."""
    if result.status != "ok":
        return "none"
    evidence = (result.details or {}).get("evidence")
    return evidence if evidence in CLAIMS else "none"


def is_wrong(pair: Pair, claim: str) -> bool:
    """A definite claim that contradicts the pair's truth label or its expected abstention."""
    if claim == "none":
        return False
    if pair.meta.get("expect") == "abstain":
        return True
    return (claim == "proved") != bool(pair.label)


def pair_rows(pairs: list[Pair], results: list[Any]) -> list[dict[str, Any]]:
    """One row per pair: id, cause, label, expect, claim, wrong, and why the engine said so."""
    rows = []
    for pair, result in zip(pairs, results, strict=True):
        if result.id != pair.id:
            raise ValueError(f"result {result.id!r} out of order (expected {pair.id!r})")
        claim = claim_of(result)
        detail = (result.details or {}).get("evidence_detail") or {}
        rows.append({"id": pair.id, "cause": pair.meta["cause"], "label": pair.label,
                     "expect": pair.meta.get("expect"), "claim": claim,
                     "wrong": is_wrong(pair, claim), "status": result.status,
                     "engine": detail.get("engine"), "why": detail.get("reason")})
    return rows


def tally(rows: list[dict[str, Any]]) -> dict[str, Any]:
    """Counts of claims, wrong claims and coverage for a set of rows."""
    counts = Counter(row["claim"] for row in rows)
    wrong = Counter(row["claim"] for row in rows if row["wrong"])
    claimable = [row for row in rows if row["expect"] != "abstain"]
    right = sum(1 for row in rows if row["claim"] != "none" and not row["wrong"])
    return {"pairs": len(rows), "proved": counts["proved"], "refuted": counts["refuted"],
            "abstained": counts["none"], "wrong_proved": wrong["proved"],
            "wrong_refuted": wrong["refuted"],
            "errors": sum(1 for row in rows if row["status"] != "ok"),
            "coverage": _ratio(counts["proved"] + counts["refuted"], len(rows)),
            "right_coverage": _ratio(right, len(claimable))}


def meets_bar(summary: dict[str, Any]) -> bool:
    """No wrong `proved`; `refuted` right on at least 98% of its claims."""
    refuted_right = summary["refuted"] - summary["wrong_refuted"]
    return summary["wrong_proved"] == 0 and (
        summary["refuted"] == 0 or refuted_right / summary["refuted"] >= REFUTED_BAR)


def _ratio(part: int, whole: int) -> float:
    return round(part / whole, 4) if whole else 0.0


def measure(pairs: list[Pair], spec: str) -> dict[str, Any]:
    """Score ``pairs`` with the metric ``spec`` and return the report for it."""
    name, options = parse_spec(spec)
    results = transted.score_many(pairs, name, **options)
    rows = pair_rows(pairs, results)
    causes = sorted({row["cause"] for row in rows})
    signatures = sorted({r.signature for r in results if r.signature})
    return {"metric": spec, "signature": signatures[0] if len(signatures) == 1 else signatures,
            "overall": tally(rows), "meets_bar": meets_bar(tally(rows)),
            "by_cause": {c: tally([r for r in rows if r["cause"] == c]) for c in causes},
            "wrong": [r for r in rows if r["wrong"]], "pairs": rows}


def render(report: dict[str, Any]) -> str:
    """The report as Markdown."""
    o = report["overall"]
    lines = [f"## {report['metric']}", "",
             f"pairs {o['pairs']}: proved {o['proved']} (wrong {o['wrong_proved']}), refuted "
             f"{o['refuted']} (wrong {o['wrong_refuted']}), abstained {o['abstained']} "
             f"(errors {o['errors']}); coverage {o['coverage']:.1%}, right claims on "
             f"{o['right_coverage']:.1%} of the pairs where a claim is possible; "
             f"issue-22 bar {'met' if report['meets_bar'] else 'NOT met'}", "",
             "| cause | pairs | proved | wrong | refuted | wrong | abstained |",
             "|---|---|---|---|---|---|---|"]
    for cause, t in report["by_cause"].items():
        lines.append(f"| {cause} | {t['pairs']} | {t['proved']} | {t['wrong_proved']} | "
                     f"{t['refuted']} | {t['wrong_refuted']} | {t['abstained']} |")
    lines += ["", f"Wrong claims ({len(report['wrong'])}):", ""]
    for row in report["wrong"]:
        truth = "expect abstain" if row["expect"] == "abstain" else f"label {row['label']}"
        lines.append(f"- `{row['id']}`: {row['claim']} ({truth}); engine {row['engine']}: "
                     f"{row['why']}")
    return "\n".join(lines) + "\n"


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("metrics", nargs="*", default=["transted"],
                        help="name or name:key=value,… (default: transted)")
    parser.add_argument("--pairs", type=Path, default=CORPUS)
    parser.add_argument("--out", type=Path, help="write the reports as JSON here")
    args = parser.parse_args(argv)
    pairs = sorted(read_pairs(args.pairs), key=lambda p: p.id)
    reports = [measure(pairs, spec) for spec in args.metrics]
    sys.stdout.write("\n".join(render(r) for r in reports))
    if args.out:
        args.out.write_text(json.dumps(reports, ensure_ascii=False, indent=1, sort_keys=True)
                            + "\n", encoding="utf-8")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
