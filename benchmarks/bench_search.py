"""Speed of the TransTED search on the dev pairs at the default budget.

Prints median and p95 milliseconds per pair, expansions per second, and the same-run
baseline of a plain TED per pair (the ratio is what to compare across machines). Goal
(issue 4): median <= 50 ms and p95 <= 500 ms per pair on 2 cores.

    .venv/bin/python benchmarks/bench_search.py [--max-expansions N] [--repeat R]
"""

from __future__ import annotations

import argparse
import statistics
import time

import numpy as np

from transted.metrics.ted import TEDSimilarity
from transted.pipeline.search.distance import tree_distance
from transted.pipeline.search.engine import SearchConfig, search
from transted.pipeline.search.providers.offline import OfflineProvider
from transted.reading.pairs import read_pairs

DEV = "tests/data/gted/proofnet.jsonl"


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--max-expansions", type=int, default=SearchConfig().max_expansions)
    parser.add_argument("--repeat", type=int, default=3)
    args = parser.parse_args(argv)
    ted, provider = TEDSimilarity(), OfflineProvider()
    trees = []
    for pair in read_pairs(DEV):
        try:
            trees.append(ted.trees(pair))
        except Exception:  # noqa: BLE001 - unparseable pairs are not timed
            continue
    config = SearchConfig(max_expansions=args.max_expansions, max_time=None)
    per_pair, base, expansions, search_time = [], [], 0, 0.0
    for a, b in trees:
        runs, bruns = [], []
        for _ in range(args.repeat):
            t = time.perf_counter()
            result = search(a, b, provider, config=config)
            runs.append(time.perf_counter() - t)
            t = time.perf_counter()
            tree_distance(a, b)
            bruns.append(time.perf_counter() - t)
        per_pair.append(min(runs))
        base.append(min(bruns))
        expansions += result.stats["expanded"]
        search_time += min(runs)
    ms = np.array(per_pair) * 1000
    print(f"pairs={len(trees)} max_expansions={args.max_expansions} (best of {args.repeat})")
    print(f"search: median {np.median(ms):.1f} ms, p95 {np.percentile(ms, 95):.1f} ms, "
          f"max {ms.max():.1f} ms, expansions/s {expansions / search_time:.0f}")
    print(f"baseline plain TED: median {statistics.median(base) * 1000:.3f} ms; "
          f"search/TED median ratio {np.median(ms) / (statistics.median(base) * 1000):.0f}x")
    print(f"goal median <= 50 ms: {'met' if np.median(ms) <= 50 else 'NOT met'}; "
          f"p95 <= 500 ms: {'met' if np.percentile(ms, 95) <= 500 else 'NOT met'}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
