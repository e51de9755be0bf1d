"""How many elaboration issues the dev sets' statements carry, per kind and per cause.

Every side of the dev pairs (tests/data/strict/*.jsonl, tests/data/gted/proofnet.jsonl, read
as the pipeline reads them: extraction, context, ``parse_in_context``) and every statement of
tests/data/statements/*.jsonl (its ``formal_statement`` under its ``header``) is elaborated;
the report counts, per file and in total, the issues of each kind and, for ``unsupported``,
the cause its message names (``not in the signature table``, ``binder type … not modelled``, …).
A statement (side) is counted once per issue kind it has ("statements with"); the issue total
counts each issue. Sides that do not parse are counted apart.

    PYTHONPATH=. python benchmarks/elaboration_issues.py [--json OUT] [--show CAUSE]

The output has no timings: two runs on the same code are the same bytes.
"""

from __future__ import annotations

import argparse
import json
import re
import sys
from collections import Counter
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

from transted.errors import TranstedError  # noqa: E402
from transted.pipeline.opt import OptOptions, parse_statement_normalized  # noqa: E402
from transted.pipeline.opt.elaborate import Elaboration  # noqa: E402
from transted.pipeline.sides import pair_trees  # noqa: E402
from transted.reading.pairs import read_pairs  # noqa: E402

PAIR_FILES = ("tests/data/strict/beq_human_dev.jsonl",
              "tests/data/strict/proofnet_verified_dev.jsonl", "tests/data/gted/proofnet.jsonl")
STATEMENT_FILES = ("tests/data/statements/minif2f.jsonl", "tests/data/statements/proofnet.jsonl")
_CAUSES = (
    ("not in the signature table", re.compile(r"not in the signature table")),
    ("index: not in the index", re.compile(r"is not in the Mathlib index")),
    ("index: signature does not parse", re.compile(r"^the signature of .* does not parse")),
    ("index: type not representable", re.compile(r"^the type of .* is not representable")),
    ("index: a theorem/instance/constructor", re.compile(r" is a (theorem|instance|constructor)"
                                                         r"$")),
    ("type argument", re.compile(r"as a type argument|^type argument")),
    ("binder type not modelled", re.compile(r"^binder type .* not modelled")),
    ("type not modelled", re.compile(r"^type .* not modelled")),
    ("signature not representable", re.compile(r"signature .* (not representable|not read)")),
    ("construct", re.compile(r"^construct ")),
    ("not modelled (symbol)", re.compile(r"^'.*' is not modelled")),
    ("Mathlib notation", re.compile(r"Mathlib notation the model does not type")),
    ("field access", re.compile(r"^field ")),
    ("application of a local", re.compile(r"^application of a local")),
    ("function type / binder over", re.compile(r"^(function type|binder over|.*function type "
                                                r"or implication)")),
    ("big operator", re.compile(r"^big operator")),
    ("applied to too many arguments", re.compile(r"applied to \d+ arguments")),
    ("sorry", re.compile(r"^sorry")),
)


def cause(message: str) -> str:
    """The cause an ``unsupported`` issue's message names (``other`` when none matches)."""
    return next((name for name, pattern in _CAUSES if pattern.search(message)), "other")


def _sides(file: str) -> list[tuple[str, Elaboration | None]]:
    out: list[tuple[str, Elaboration | None]] = []
    if file in PAIR_FILES:
        for pair in read_pairs(ROOT / file):
            try:
                sides = pair_trees(pair, OptOptions())
            except TranstedError:
                out.append((f"{pair.id}", None))
                continue
            ref, cand = sides.elaborations
            out += [(f"{pair.id} reference", ref), (f"{pair.id} candidate", cand)]
        return out
    for line in (ROOT / file).read_text(encoding="utf-8").splitlines():
        row = json.loads(line)
        try:
            e = parse_statement_normalized(row["formal_statement"], header=row.get("header"),
                                           options=OptOptions(normalize=False)).elaboration
        except TranstedError:
            e = None
        out.append((row["name"], e))
    return out


def tally(file: str, show: str | None) -> dict[str, dict[str, int]]:
    statements: Counter[str] = Counter()
    issues: Counter[str] = Counter()
    causes: Counter[str] = Counter()
    for name, e in _sides(file):
        if e is None:
            statements["not parsed"] += 1
            continue
        statements["elaborated"] += 1
        statements["with no issue"] += not e.issues
        for kind in sorted({i.kind for i in e.issues}):
            statements[kind] += 1
        for i in e.issues:
            issues[i.kind] += 1
            if i.kind == "unsupported":
                causes[cause(i.message)] += 1
                if show is not None and cause(i.message) == show:
                    print(f"{file} {name}: {i.message}", file=sys.stderr)
    return {"statements": dict(statements), "issues": dict(sorted(issues.items())),
            "unsupported causes": dict(causes.most_common())}


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n", 1)[0])
    ap.add_argument("--json", type=Path, help="write the tallies as JSON here")
    ap.add_argument("--show", help="print each unsupported issue of this cause (stderr)")
    args = ap.parse_args(argv)
    report: dict[str, dict[str, dict[str, int]]] = {}
    total: dict[str, Counter[str]] = {}
    for file in (*PAIR_FILES, *STATEMENT_FILES):
        report[file] = tally(file, args.show)
        for section, counts in report[file].items():
            total.setdefault(section, Counter()).update(counts)
    report["total"] = {k: dict(v.most_common()) for k, v in total.items()}
    for file, sections in report.items():
        print(f"## {file}")
        for section, counts in sections.items():
            print(f"{section}: " + ", ".join(f"{k} {v}" for k, v in counts.items()))
        print()
    if args.json:
        args.json.write_text(json.dumps(report, ensure_ascii=False, indent=1) + "\n",
                             encoding="utf-8")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
