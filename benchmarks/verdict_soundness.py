"""The verdict rule on a corpus of pairs with their truth: who decided each verdict, and every
wrong one.

    PYTHONPATH=. python benchmarks/verdict_soundness.py [METRIC ...] [--pairs F] [--out F] [--json]

METRIC is ``name`` or ``name:key=value,…`` (default ``transted``). ``--pairs`` defaults to the
verdict-level soundness corpus (tests/data/verdict_soundness/pairs.jsonl, issue 31); the
evidence-level corpus (tests/data/soundness/pairs.jsonl, issue 22) has the same schema.

The truth is the pair's ``label`` (mutual provability; a pair whose ``meta.expect`` is
``abstain`` has a candidate Lean rejects and is labelled false). Per metric the report gives:

* the confusion of verdict against truth per ``decided_by`` (evidence, edits, threshold,
  invalid, binary; ``none`` when the rule gave no verdict);
* the pairs labelled *not equivalent* that are called equivalent, per route: ``evidence``
  (a ``proved``), ``edits`` split by why nothing counted (``no edit left``, a discharged edit,
  only presentational edits), ``threshold``;
* wrong ``proved`` claims (``details.evidence`` on a false pair), and overall accuracy (a pair
  without a verdict counts as wrong);
* per ``meta.cause``: pairs, verdicts right, false pairs called equivalent.

Issue 31's bars, printed with the figures: no wrong ``proved``; no false pair called equivalent
by ``evidence`` or ``edits``; at most one false pair in ten called equivalent; at least four
verdicts in five right. The output holds no timings (two runs on the same code are the same
bytes); ``--out`` writes the reports as JSON with one row per pair.
"""

from __future__ import annotations

import argparse
import json
import sys
from collections import Counter
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
for _path in (ROOT, ROOT / "benchmarks"):
    if str(_path) not in sys.path:
        sys.path.insert(0, str(_path))

from bench_pair import parse_spec  # noqa: E402

import transted  # noqa: E402
from transted.reading.pairs import Pair, read_pairs  # noqa: E402

CORPUS = ROOT / "tests" / "data" / "verdict_soundness" / "pairs.jsonl"
ROUTES = ("evidence", "edits: no edit left", "edits: discharged",
          "edits: presentational only", "threshold", "invalid", "binary", "none")
SOUND_ROUTES = ("evidence", "edits")
"""Routes that must never call a false pair equivalent (issue 31)."""
MAX_FALSE_EQUIVALENT = 0.10
MIN_ACCURACY = 0.80


def route_of(result: Any) -> str:
    """How a result's verdict was reached, with the edits route split by why nothing counted."""
    decided = str(result.decided_by) if result.decided_by else "none"
    if decided != "edits" or result.verdict != "equivalent":
        return decided
    residual = (result.details or {}).get("residual") or []
    if not residual:
        return "edits: no edit left"
    if any(e.get("discharged_by") for e in residual):
        return "edits: discharged"
    return "edits: presentational only"


def pair_rows(pairs: list[Pair], results: list[Any]) -> list[dict[str, Any]]:
    """One row per pair: truth, verdict, what decided it, whether it is right."""
    rows = []
    for pair, r in zip(pairs, results, strict=True):
        if r.id != pair.id:
            raise ValueError(f"result {r.id!r} out of order (expected {pair.id!r})")
        details = r.details or {}
        truth = "equivalent" if pair.label else "not-equivalent"
        evidence = details.get("evidence") if r.status == "ok" else None
        rows.append({"id": pair.id, "cause": pair.meta.get("cause"), "truth": truth,
                     "expect": pair.meta.get("expect"), "verdict": r.verdict,
                     "decided_by": str(r.decided_by) if r.decided_by else "none",
                     "route": route_of(r), "right": r.verdict == truth,
                     "evidence": evidence,
                     "wrong_proved": evidence == "proved" and not pair.label,
                     "score": None if r.score is None else round(float(r.score), 4),
                     "status": r.status, "why": details.get("verdict_reason")})
    return rows


def _confusion(rows: list[dict[str, Any]]) -> dict[str, dict[str, int]]:
    out: dict[str, dict[str, int]] = {}
    for row in rows:
        cell = out.setdefault(row["decided_by"], Counter())  # type: ignore[arg-type]
        said = row["verdict"] or "none"
        cell[f"{said} | {row['truth']}"] += 1
    return {k: dict(sorted(v.items())) for k, v in sorted(out.items())}


def summarise(rows: list[dict[str, Any]]) -> dict[str, Any]:
    """The figures of one metric on ``rows``."""
    false_rows = [r for r in rows if r["truth"] == "not-equivalent"]
    called = [r for r in false_rows if r["verdict"] == "equivalent"]
    by_route = Counter(r["route"] for r in called)
    sound = [r for r in called if r["decided_by"] in SOUND_ROUTES]
    right = sum(r["right"] for r in rows)
    return {
        "pairs": len(rows), "true": len(rows) - len(false_rows), "false": len(false_rows),
        "right": right, "accuracy": _ratio(right, len(rows)),
        "no_verdict": sum(r["verdict"] is None for r in rows),
        "errors": sum(r["status"] not in ("ok", "invalid") for r in rows),
        "false_called_equivalent": len(called),
        "false_called_equivalent_share": _ratio(len(called), len(false_rows)),
        "false_called_equivalent_by_route": {k: by_route[k] for k in ROUTES if by_route[k]},
        "false_called_equivalent_by_evidence_or_edits": len(sound),
        "wrong_proved": sum(r["wrong_proved"] for r in rows),
        "confusion": _confusion(rows),
    }


def bars(summary: dict[str, Any]) -> dict[str, bool]:
    """Issue 31's bars on one summary."""
    return {"no wrong proved": summary["wrong_proved"] == 0,
            "no false pair called equivalent by evidence or edits":
                summary["false_called_equivalent_by_evidence_or_edits"] == 0,
            f"at most {MAX_FALSE_EQUIVALENT:.0%} of false pairs called equivalent":
                summary["false_called_equivalent_share"] <= MAX_FALSE_EQUIVALENT,
            f"at least {MIN_ACCURACY:.0%} right": summary["accuracy"] >= MIN_ACCURACY}


def _ratio(part: int, whole: int) -> float:
    return round(part / whole, 4) if whole else 0.0


def measure(pairs: list[Pair], spec: str) -> dict[str, Any]:
    """Score ``pairs`` with the metric ``spec`` and return its report."""
    name, options = parse_spec(spec)
    results = transted.score_many(pairs, name, **options)
    rows = pair_rows(pairs, results)
    causes = sorted({str(r["cause"]) for r in rows})
    summary = summarise(rows)
    signatures = sorted({r.signature for r in results if r.signature})
    return {"metric": spec, "signature": signatures[0] if len(signatures) == 1 else signatures,
            "overall": summary, "bars": bars(summary),
            "by_cause": {c: _cause_tally([r for r in rows if r["cause"] == c]) for c in causes},
            "pairs": rows}


def _cause_tally(rows: list[dict[str, Any]]) -> dict[str, int]:
    return {"pairs": len(rows), "true": sum(r["truth"] == "equivalent" for r in rows),
            "right": sum(r["right"] for r in rows),
            "false_called_equivalent": sum(r["truth"] == "not-equivalent"
                                           and r["verdict"] == "equivalent" for r in rows)}


def render(report: dict[str, Any]) -> str:
    """The report as Markdown."""
    o = report["overall"]
    lines = [f"## {report['metric']}", "",
             f"{o['pairs']} pairs ({o['true']} equivalent, {o['false']} not): verdicts right "
             f"{o['right']} ({o['accuracy']:.1%}); no verdict {o['no_verdict']}; errors "
             f"{o['errors']}; wrong `proved` {o['wrong_proved']}; false pairs called "
             f"equivalent {o['false_called_equivalent']} of {o['false']} "
             f"({o['false_called_equivalent_share']:.1%}), by evidence or edits "
             f"{o['false_called_equivalent_by_evidence_or_edits']}", "",
             "| decided by | equivalent, truth equivalent | equivalent, truth not | "
             "not-equivalent, truth not | not-equivalent, truth equivalent | no verdict |",
             "|---|---|---|---|---|---|"]
    for decided, cells in o["confusion"].items():
        def n(said: str, truth: str, cells: dict[str, int] = cells) -> int:
            return cells.get(f"{said} | {truth}", 0)
        lines.append(f"| {decided} | {n('equivalent', 'equivalent')} | "
                     f"{n('equivalent', 'not-equivalent')} | "
                     f"{n('not-equivalent', 'not-equivalent')} | "
                     f"{n('not-equivalent', 'equivalent')} | "
                     f"{n('none', 'equivalent') + n('none', 'not-equivalent')} |")
    lines += ["", "False pairs called equivalent, per route:", ""]
    for route, count in o["false_called_equivalent_by_route"].items():
        ids = [r["id"] for r in report["pairs"] if r["route"] == route
               and r["truth"] == "not-equivalent" and r["verdict"] == "equivalent"]
        lines.append(f"- {route}: {count} ({', '.join(ids)})")
    wrong_proved = [r["id"] for r in report["pairs"] if r["wrong_proved"]]
    lines += ["", f"Wrong `proved`: {len(wrong_proved)} ({', '.join(wrong_proved)})", "",
              "Bars (issue 31): " + "; ".join(f"{k}: {'met' if v else 'NOT met'}"
                                              for k, v in report["bars"].items()), "",
              "| cause | pairs | equivalent | right | false called equivalent |",
              "|---|---|---|---|---|"]
    for cause, t in report["by_cause"].items():
        lines.append(f"| {cause} | {t['pairs']} | {t['true']} | {t['right']} | "
                     f"{t['false_called_equivalent']} |")
    return "\n".join(lines) + "\n"


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("metrics", nargs="*", default=["transted"],
                        help="name or name:key=value,… (default: transted)")
    parser.add_argument("--pairs", type=Path, default=CORPUS)
    parser.add_argument("--out", type=Path, help="write the reports as JSON here")
    parser.add_argument("--json", action="store_true", help="print JSON instead of Markdown")
    args = parser.parse_args(argv)
    pairs = read_pairs(args.pairs)
    reports = [measure(pairs, spec) for spec in args.metrics]
    text = json.dumps(reports, ensure_ascii=False, indent=1, sort_keys=True) + "\n"
    sys.stdout.write(text if args.json else "\n".join(render(r) for r in reports))
    if args.out:
        args.out.write_text(text, encoding="utf-8")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
