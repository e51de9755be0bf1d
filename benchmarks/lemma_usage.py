"""Lemma counts and use on the dev pairs (issue 33): indexed, parsed, applied; pairs closed.

    PYTHONPATH=. python benchmarks/lemma_usage.py [METRIC] [--pairs F ...] [--top 30]

METRIC is ``name:key=value,…`` (default ``transted:providers=offline,lemmas,decide``). Prints the
table's counts per family (from its meta: theorems indexed with an ``=``/``↔`` statement, those
whose normalised statement is usable), then per pair file: the share of pairs the search closed
(``details.status == "found"``), and over all files the lemmas the ``lemmas`` provider proposed
(moves yielded, per family) and those on the printed scripts (the best paths).
"""

from __future__ import annotations

import argparse
import json
import re
import sys
from collections import Counter
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
for _path in (ROOT, ROOT / "benchmarks"):
    if str(_path) not in sys.path:
        sys.path.insert(0, str(_path))

from bench_pair import parse_spec  # noqa: E402

from transted.metrics.registry import get_metric  # noqa: E402
from transted.pipeline.search.lemmas.table import FAMILIES, load_table  # noqa: E402
from transted.reading.pairs import read_pairs  # noqa: E402

DEV = ("tests/data/gted/proofnet.jsonl", "tests/data/strict/beq_human_dev.jsonl",
       "tests/data/strict/proofnet_verified_dev.jsonl")
_NAME = re.compile(r"(?:rw|nth_rw \d+|simp only) \[(?:← )?([^\s\]]+)")


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("metric", nargs="?", default="transted:providers=offline,lemmas,decide")
    parser.add_argument("--pairs", nargs="*", default=list(DEV))
    parser.add_argument("--top", type=int, default=30)
    args = parser.parse_args()
    table = load_table()
    counts = json.loads(table.meta["counts"])
    print(f"lemma table {table.version}")
    print("| family | indexed | parsed (usable statement) | stored (a direction with a head) |")
    print("|---|---|---|---|")
    for fam in FAMILIES:
        print(f"| {fam} | {counts['indexed'].get(fam, 0)} | {counts['parsed'].get(fam, 0)} "
              f"| {counts['kept'].get(fam, 0)} |")
    print(f"| total | {sum(counts['indexed'].values())} | {sum(counts['parsed'].values())} "
          f"| {sum(counts['kept'].values())} |")
    print(f"conditional (side conditions): {counts['conditional']}; directions: "
          f"{counts['directions']}; not usable: {counts['why_not']}")
    name, options = parse_spec(args.metric)
    metric = get_metric(name, **options)
    scripted: Counter[str] = Counter()
    for path in args.pairs:
        pairs = read_pairs(path)
        closed = 0
        for pair in pairs:
            result = metric.score_pair(pair)
            details = result.details or {}
            closed += details.get("status") == "found"
            for line in details.get("script") or []:
                scripted.update(_NAME.findall(line))
        print(f"{path}: closed by the search {closed}/{len(pairs)} "
              f"({100 * closed / len(pairs):.1f}%)")
    lemmas = next((p for p in metric.providers if p.name == "lemmas"), None)
    if lemmas is None:
        return 0
    usage: Counter[str] = lemmas.usage  # type: ignore[attr-defined]
    families: Counter[str] = Counter()
    for lemma in usage:
        lemma_id = table.lemma_id(lemma)
        row = table.row(lemma_id) if lemma_id is not None else None
        families[row.family if row is not None else "?"] += 1
    print(f"lemmas proposed at least once: {len(usage)} ({dict(families)}); on a printed "
          f"script: {len([n for n in scripted if n in usage])}")
    for lemma, n in usage.most_common(args.top):
        print(f"  {n:5d} {lemma}{'  (on a script)' if lemma in scripted else ''}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
