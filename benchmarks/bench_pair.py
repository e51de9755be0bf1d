"""Whole-pair time of a metric on the dev pairs (parse, normalise, search, evidence).

``bench_search.py`` times the search alone; this times ``Metric.score_pair`` as users run it.
Each pair is timed ``--repeat`` times and its best time kept (the load average is printed).
With ``--vs`` every metric runs in a process of its own (no cache one metric warmed for
another), in turn, ``--rounds`` times; each round's ratios compare adjacent runs (this shared
machine changes speed over minutes), and their median is printed.

    .venv/bin/python benchmarks/bench_pair.py transted transted:evidence=false,providers=offline ted
    .venv/bin/python benchmarks/bench_pair.py transted ted --vs ted --rounds 5   # the speed goal
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
import time

import numpy as np

from transted.metrics.registry import get_metric
from transted.reading.pairs import read_pairs

DEV = "tests/data/gted/proofnet.jsonl"


def parse_spec(spec: str) -> tuple[str, dict[str, object]]:
    """``name:key=value,key=value`` → name and options (``true``/``false`` become bools); an
    item without ``=`` continues the previous value (``providers=offline,lemmas,decide``)."""
    name, _, text = spec.partition(":")
    raw: dict[str, str] = {}
    key = None
    for item in filter(None, text.split(",")):
        if "=" not in item and key is not None:
            raw[key] += "," + item
            continue
        key, _, value = item.partition("=")
        raw[key] = value
    return name, {k: v == "true" if v in ("true", "false") else v for k, v in raw.items()}


def pair_times(spec: str, repeat: int) -> list[float]:
    """Each dev pair's best time (ms) of ``repeat`` runs with the metric ``spec``."""
    name, options = parse_spec(spec)
    metric = get_metric(name, **options)
    pairs = read_pairs(DEV)
    best = [float("inf")] * len(pairs)
    for _ in range(repeat):
        for i, pair in enumerate(pairs):
            start = time.perf_counter()
            metric.score_pair(pair)
            best[i] = min(best[i], (time.perf_counter() - start) * 1000)
    return best


def _in_own_process(spec: str, repeat: int) -> list[float]:
    out = subprocess.run([sys.executable, __file__, spec, "--repeat", str(repeat), "--json"],
                         capture_output=True, text=True, check=True)
    return json.loads(out.stdout.splitlines()[-1])


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("metrics", nargs="+", help="name or name:key=value,…")
    parser.add_argument("--repeat", type=int, default=2)
    parser.add_argument("--vs", help="each metric's median and p95 as a ratio to this one's "
                                     "(a spec given among the metrics)")
    parser.add_argument("--rounds", type=int, default=1,
                        help="with --vs: rounds of one process per metric, in turn; the "
                             "ratios are taken round by round and their median printed")
    parser.add_argument("--json", action="store_true", help=argparse.SUPPRESS)
    args = parser.parse_args(argv)
    if args.json:
        print(json.dumps(pair_times(args.metrics[0], args.repeat)))
        return 0
    if args.vs is not None and args.vs not in args.metrics:
        parser.error(f"--vs {args.vs!r} is not among the metrics")
    rounds: list[dict[str, tuple[float, float, float]]] = []
    for _ in range(args.rounds):
        times = {spec: (_in_own_process(spec, args.repeat) if args.vs is not None
                        else pair_times(spec, args.repeat)) for spec in args.metrics}
        rounds.append({spec: (statistics.median(ms), float(np.percentile(ms, 95)), max(ms))
                       for spec, ms in times.items()})
    for k, figures in enumerate(rounds):
        for spec, (median, p95, worst) in figures.items():
            ratio = ""
            if args.vs is not None and spec != args.vs:
                base = figures[args.vs]
                ratio = f"; {median / base[0]:.1f}x {args.vs}'s median, {p95 / base[1]:.1f}x its p95"
            where = f"round {k + 1}: " if args.rounds > 1 else ""
            print(f"{where}{spec}: median {median:.1f} ms, p95 {p95:.1f} ms, max {worst:.1f} ms "
                  f"per pair (best of {args.repeat}; load {os.getloadavg()[0]:.1f}){ratio}")
    if args.vs is not None and args.rounds > 1:
        for spec in args.metrics:
            if spec == args.vs:
                continue
            medians = [r[spec][0] / r[args.vs][0] for r in rounds]
            p95s = [r[spec][1] / r[args.vs][1] for r in rounds]
            print(f"{spec} / {args.vs} over {args.rounds} rounds: median ratio "
                  f"{statistics.median(medians):.1f}x (range {min(medians):.1f}–"
                  f"{max(medians):.1f}), p95 ratio {statistics.median(p95s):.1f}x "
                  f"(range {min(p95s):.1f}–{max(p95s):.1f})")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
