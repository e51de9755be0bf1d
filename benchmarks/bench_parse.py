"""Parser throughput, measured against the zss TED of the same pairs in the same run.

Run: ``python benchmarks/bench_parse.py``. Prints statements/s for the parser on the 859
benchmark statements, pairs/s for parsing both sides of the 93 dev pairs, and the same pairs/s
for the reference TED backend (zss) and the default (edist), so the cost of parsing can be read
as a ratio to a TED call.
"""

from __future__ import annotations

import json
import statistics
import time
from pathlib import Path

from transted.pipeline.opt import parse_statement
from transted.pipeline.ted import TreeEditDistance
from transted.reading.pairs import read_pairs

DATA = Path(__file__).resolve().parent.parent / "tests" / "data"


def _timed(fn, items, repeat: int = 3) -> float:
    """Best-of-``repeat`` items per second."""
    best = float("inf")
    for _ in range(repeat):
        start = time.perf_counter()
        for item in items:
            fn(item)
        best = min(best, time.perf_counter() - start)
    return len(items) / best


def main() -> None:
    rows = []
    for name in ("minif2f.jsonl", "proofnet.jsonl"):
        rows += [json.loads(line) for line in (DATA / "statements" / name).read_text(encoding="utf-8").splitlines()]
    stmts_per_s = _timed(lambda r: parse_statement(r["formal_statement"], header=r["header"]), rows)
    pairs = [p for p in read_pairs(DATA / "gted" / "proofnet.jsonl") if p.id != "proofnet/exercise_1_17/8"]

    def parse_pair(p):
        return (parse_statement(p.reference.statement, header=p.reference.header),
                parse_statement(p.candidate.statement, header=p.candidate.header))

    parse_pairs_per_s = _timed(parse_pair, pairs)
    trees = [parse_pair(p) for p in pairs]
    rates = {}
    for backend in ("zss", "edist"):
        ted = TreeEditDistance(backend=backend, cache_size=0)
        rates[backend] = _timed(lambda t, ted=ted: ted(*t), trees, repeat=1 if backend == "zss" else 3)
    sizes = [a.size() + b.size() for a, b in trees]
    print(f"parse: {stmts_per_s:,.0f} statements/s over {len(rows)} benchmark statements")
    print(f"parse both sides: {parse_pairs_per_s:,.0f} pairs/s over {len(pairs)} dev pairs "
          f"(|T1|+|T2| median {statistics.median(sizes):.0f}, max {max(sizes)})")
    for backend, rate in rates.items():
        print(f"TED {backend:6s}: {rate:,.1f} pairs/s  ({rate / rates['zss']:.0f}x zss)")
    print(f"parse vs zss TED: parsing a pair is {parse_pairs_per_s / rates['zss']:.0f}x faster than zss scoring it; "
          f"{parse_pairs_per_s / rates['edist']:.2f}x the speed of edist")


if __name__ == "__main__":
    main()
