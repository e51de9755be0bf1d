"""A showcase file scored by one or more metrics: per mechanism or lemma family, verdict against
label, and per pair the verdict, what decided it, the score and the Lean script — the before and
after figures of a new mechanism.

    PYTHONPATH=. python benchmarks/showcase.py FILE [METRIC ...] [--out F] [--json]

FILE is a labelled pair file whose pairs carry ``meta.mechanism`` or ``meta.family`` (the group
they are reported under), e.g. tests/data/showcase/index_mechanisms.jsonl (issue 32) or
tests/data/showcase/rewrite_families.jsonl (issue 33). METRIC is ``name`` or
``name:key=value,…`` (default ``transted``).

Per metric and group: the confusion of verdict against label (a pair without a verdict counts as
wrong), then one row per pair: label, verdict, ``decided_by`` (``edits`` split by route as in
benchmarks/verdict_soundness.py), score, the evidence kind, the Lean script the search printed
(``details.script``) and the evidence engines' script (``details.evidence_detail.script``), and
the verdict's reason. The output holds no timings, so two runs on the same code are the same bytes
and a before/after diff shows only what changed.
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
from verdict_soundness import route_of  # noqa: E402

import transted  # noqa: E402
from transted.reading.pairs import Pair, read_pairs  # noqa: E402

GROUP_KEYS = ("mechanism", "family")
"""The ``meta`` key a showcase pair is grouped by (index mechanisms, rewrite-lemma families)."""


def group_of(pair: Pair) -> str:
    """The pair's mechanism or family; a pair with neither is refused (the file is not a
    showcase file)."""
    for key in GROUP_KEYS:
        if pair.meta.get(key):
            return str(pair.meta[key])
    raise ValueError(f"pair {pair.id!r} has no meta.mechanism or meta.family")


def _truth(label: bool | None) -> str:
    if label is None:
        raise ValueError("a showcase pair without a label")
    return "equivalent" if label else "not-equivalent"


def pair_row(pair: Pair, result: Any) -> dict[str, Any]:
    """One pair's figures: label, verdict, route, score, evidence, scripts, reason."""
    if result.id != pair.id:
        raise ValueError(f"result {result.id!r} out of order (expected {pair.id!r})")
    details = result.details or {}
    evidence = details.get("evidence_detail") or {}
    return {"id": pair.id, "group": group_of(pair), "truth": _truth(pair.label),
            "verdict": result.verdict, "right": result.verdict == _truth(pair.label),
            "decided_by": route_of(result), "status": result.status,
            "score": None if result.score is None else round(float(result.score), 4),
            "evidence": details.get("evidence"),
            "search_script": list(details.get("script") or []),
            "evidence_script": list(evidence.get("script") or []),
            "why": details.get("verdict_reason")}


def measure(pairs: list[Pair], spec: str) -> dict[str, Any]:
    """Score ``pairs`` with the metric ``spec``; rows and per-group tallies."""
    name, options = parse_spec(spec)
    results = transted.score_many(pairs, name, **options)
    rows = [pair_row(p, r) for p, r in zip(pairs, results, strict=True)]
    groups: dict[str, Counter[str]] = {}
    for row in rows:
        cell = groups.setdefault(row["group"], Counter())
        cell[f"{row['verdict'] or 'none'} | {row['truth']}"] += 1
        cell["right"] += row["right"]
        cell["pairs"] += 1
    return {"metric": spec, "groups": {g: dict(sorted(c.items())) for g, c in groups.items()},
            "right": sum(r["right"] for r in rows), "pairs": rows}


def _cell(text: Any) -> str:
    return str(text).replace("|", "\\|").replace("\n", " ") if text is not None else "—"


def _script(lines: list[str]) -> str:
    return "`" + "; ".join(lines).replace("`", "'") + "`" if lines else "—"


def render(report: dict[str, Any]) -> str:
    """The report as Markdown: a confusion table per group, then the group's pairs."""
    rows = report["pairs"]
    out = [f"## {report['metric']}", "",
           f"{len(rows)} pairs: verdicts right {report['right']} "
           f"({report['right'] / len(rows):.1%})", "",
           "| group | pairs | right | eq \\| eq | eq \\| not | not \\| not | not \\| eq | none |",
           "|---|---|---|---|---|---|---|---|"]
    for group, c in report["groups"].items():
        none = c.get("none | equivalent", 0) + c.get("none | not-equivalent", 0)
        out.append(f"| {group} | {c['pairs']} | {c['right']} | "
                   f"{c.get('equivalent | equivalent', 0)} | "
                   f"{c.get('equivalent | not-equivalent', 0)} | "
                   f"{c.get('not-equivalent | not-equivalent', 0)} | "
                   f"{c.get('not-equivalent | equivalent', 0)} | {none} |")
    for group in report["groups"]:
        out += ["", f"### {group}", "",
                "| id | label | verdict | right | decided by | score | evidence | search script "
                "| evidence script | why |", "|---|---|---|---|---|---|---|---|---|---|"]
        for r in (r for r in rows if r["group"] == group):
            out.append(f"| {r['id']} | {r['truth']} | {_cell(r['verdict'])} | "
                       f"{'yes' if r['right'] else 'NO'} | {r['decided_by']} | "
                       f"{_cell(r['score'])} | {_cell(r['evidence'])} | "
                       f"{_script(r['search_script'])} | {_script(r['evidence_script'])} | "
                       f"{_cell(r['why'])} |")
    return "\n".join(out) + "\n"


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("file", type=Path, help="a showcase pair file (meta.mechanism/family)")
    parser.add_argument("metrics", nargs="*", default=["transted"],
                        help="name or name:key=value,… (default: transted)")
    parser.add_argument("--out", type=Path, help="write the reports as JSON here")
    parser.add_argument("--json", action="store_true", help="print JSON instead of Markdown")
    args = parser.parse_args(argv)
    pairs = read_pairs(args.file)
    for pair in pairs:
        try:
            group_of(pair)
            _truth(pair.label)
        except ValueError as e:
            parser.error(f"{args.file}: {e}")
    reports = [measure(pairs, spec) for spec in args.metrics]
    text = json.dumps(reports, ensure_ascii=False, indent=1, sort_keys=True) + "\n"
    sys.stdout.write(text if args.json else "\n".join(render(r) for r in reports))
    if args.out:
        args.out.write_text(text, encoding="utf-8")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
