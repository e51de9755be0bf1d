"""Whole-pair time of a metric on the dev pairs (parse, normalise, search, evidence).

``bench_search.py`` times the search alone; this times ``Metric.score_pair`` as users run it.
Each pair is timed ``--repeat`` times and its best time kept (the load average is printed).

    .venv/bin/python benchmarks/bench_pair.py transted transted:evidence=false,providers=offline ted
"""

from __future__ import annotations

import argparse
import os
import statistics
import time

import numpy as np

from transted.metrics.registry import get_metric
from transted.pairs import read_pairs

DEV = "tests/data/gted/proofnet.jsonl"


def parse_spec(spec: str) -> tuple[str, dict[str, object]]:
    """``name:key=value,key=value`` → name and options (``true``/``false`` become bools)."""
    name, _, text = spec.partition(":")
    options: dict[str, object] = {}
    for item in filter(None, text.split(",")):
        key, _, value = item.partition("=")
        options[key] = value == "true" if value in ("true", "false") else value
    return name, options


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("metrics", nargs="+", help="name or name:key=value,…")
    parser.add_argument("--repeat", type=int, default=2)
    args = parser.parse_args(argv)
    pairs = read_pairs(DEV)
    for spec in args.metrics:
        name, options = parse_spec(spec)
        metric = get_metric(name, **options)
        best = [float("inf")] * len(pairs)
        for _ in range(args.repeat):
            for i, pair in enumerate(pairs):
                start = time.perf_counter()
                metric.score_pair(pair)
                best[i] = min(best[i], (time.perf_counter() - start) * 1000)
        print(f"{spec}: median {statistics.median(best):.1f} ms, "
              f"p95 {np.percentile(best, 95):.1f} ms, max {max(best):.1f} ms per pair "
              f"(best of {args.repeat}; load {os.getloadavg()[0]:.1f})")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
