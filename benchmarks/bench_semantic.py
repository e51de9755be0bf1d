"""Cost of meaning-aware distance, as ratios measured in one run on the dev pairs.

Rows: parsing with vs without normalisation; whole-tree TED under unit cost (edist's C
``standard_ted``) vs the semantic cost model (edist's Zhang–Shasha with a Python delta, memoised
renames) vs the statement distance with hypotheses as units; the offline TransTED search at the
default budget with its unit-cost heuristic vs the semantic statement distance (routed as in
``benchmarks/semantic_eval.py``). Goal: offline transted median <= 50 ms, p95 <= 500 ms per pair
(on an unloaded 2-core machine: compare the ratios across machines).

    python benchmarks/bench_semantic.py [--repeat R]
"""

from __future__ import annotations

import argparse
import statistics
import sys
import time
from collections.abc import Callable
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parent))


from transted.errors import TranstedError  # noqa: E402
from transted.pipeline.opt import OptOptions, parse_statement  # noqa: E402
from transted.pipeline.search.engine import SearchConfig, search  # noqa: E402
from transted.pipeline.search.providers.offline import OfflineProvider  # noqa: E402
from transted.pipeline.ted import TreeEditDistance  # noqa: E402
from transted.pipeline.ted.semantic import SemanticCost  # noqa: E402
from transted.pipeline.ted.statement_distance import SemanticDistance  # noqa: E402
from transted.reading.pairs import read_pairs  # noqa: E402

DEV = Path(__file__).resolve().parent.parent / "tests" / "data" / "gted" / "proofnet.jsonl"


def _ms(fn: Callable[[], object], repeat: int) -> float:
    best = float("inf")
    for _ in range(repeat):
        start = time.perf_counter()
        fn()
        best = min(best, time.perf_counter() - start)
    return 1000 * best


def _row(name: str, times: list[float], base: list[float] | None = None) -> None:
    med, p95 = statistics.median(times), float(np.percentile(times, 95))
    ratio = f"  ×{med / statistics.median(base):.1f} median" if base else ""
    print(f"{name:<44} median {med:8.3f} ms  p95 {p95:8.3f} ms{ratio}")


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeat", type=int, default=3)
    args = parser.parse_args(argv)
    raw_t, norm_t, texts = [], [], []
    for pair in read_pairs(DEV):
        for st in (pair.reference, pair.candidate):
            try:
                parse_statement(st.statement, header=st.header)
            except TranstedError:
                continue
            texts.append((st.statement, st.header))
    for text, header in texts:
        raw_t.append(_ms(lambda: parse_statement(text, header=header,  # noqa: B023
                                                 options=OptOptions(normalize=False)), args.repeat))
        norm_t.append(_ms(lambda: parse_statement(text, header=header), args.repeat))  # noqa: B023
    print(f"{len(texts)} statements")
    _row("parse, normalisation off", raw_t)
    _row("parse + normalise", norm_t, raw_t)

    trees = []
    for pair in read_pairs(DEV):
        try:
            trees.append((parse_statement(pair.reference.statement, header=pair.reference.header),
                          parse_statement(pair.candidate.statement, header=pair.candidate.header)))
        except TranstedError:
            continue
    unit = TreeEditDistance(cache_size=0)
    sem = TreeEditDistance(cost=SemanticCost(), cache_size=0)
    hyp = SemanticDistance().goal_distance
    ted_unit = [_ms(lambda: unit(a, b), args.repeat) for a, b in trees]  # noqa: B023
    ted_sem = [_ms(lambda: sem(a, b), args.repeat) for a, b in trees]  # noqa: B023
    ted_hyp = [_ms(lambda: hyp(a, b), args.repeat) for a, b in trees]  # noqa: B023
    print(f"{len(trees)} dev pairs")
    _row("TED unit (edist standard_ted)", ted_unit)
    _row("TED semantic cost (edist ted + delta)", ted_sem, ted_unit)
    _row("statement distance, hypotheses as units", ted_hyp, ted_unit)

    provider = OfflineProvider()
    config = SearchConfig(max_time=None)
    runs: dict[str, list[float]] = {"unit": [], "semantic": []}
    for name in runs:
        distance = None if name == "unit" else SemanticDistance().goal_distance
        for a, b in trees:
            runs[name].append(_ms(lambda: search(a, b, provider, config=config,  # noqa: B023
                                                 ted=distance),  # noqa: B023
                                  args.repeat))
    _row("transted search, unit heuristic", runs["unit"])
    _row("transted search, semantic distance", runs["semantic"], runs["unit"])
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
