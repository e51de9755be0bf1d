"""Time per dev pair of a metric in this process: median and p95 (for before/after ratios).

    PYTHONPATH=. python benchmarks/verdict_speed.py [--metric transted] [--rounds 2]

Scores the strict files and the GTED dev pairs (333 pairs) one by one in this process (no
pool), ``--rounds`` times, and prints one JSON line: per-pair median and p95 over all rounds,
total seconds. Only the public API is used, so the same script times an older checkout:

    git archive a3b40ea | tar -x -C /tmp/base_v
    for i in 1 2; do PYTHONPATH=/tmp/base_v python benchmarks/verdict_speed.py; \\
                     PYTHONPATH=. python benchmarks/verdict_speed.py; done

(alternating old and new in one run, so machine load hits both alike).
"""

from __future__ import annotations

import argparse
import json
import statistics
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
FILES = [ROOT / "tests/data/strict/beq_human_dev.jsonl",
         ROOT / "tests/data/strict/proofnet_verified_dev.jsonl",
         ROOT / "tests/data/gted/proofnet.jsonl"]


def main(argv: list[str] | None = None) -> int:
    import transted
    from transted.reading.pairs import read_pairs

    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--metric", default="transted")
    ap.add_argument("--rounds", type=int, default=1)
    args = ap.parse_args(argv)
    metric = transted.load_metric(args.metric)
    pairs = [p for f in FILES for p in read_pairs(f)]
    times = []
    start = time.perf_counter()
    for _ in range(args.rounds):
        for pair in pairs:
            t = time.perf_counter()
            metric.score_pair(pair)
            times.append((time.perf_counter() - t) * 1000)
    times.sort()
    print(json.dumps({"code": str(Path(transted.__file__).resolve().parents[1]),
                      "pairs": len(pairs), "rounds": args.rounds,
                      "median_ms": round(statistics.median(times), 2),
                      "p95_ms": round(times[int(0.95 * (len(times) - 1))], 2),
                      "total_s": round(time.perf_counter() - start, 1)}))
    return 0


if __name__ == "__main__":
    sys.exit(main())
