"""Many samples per reference, as batches of LLM outputs come: the per-process reference cache
(:mod:`transted.pipeline.reference_cache`) on vs off, per-pair time, in one run.

Each of the first ``--references`` dev pairs gives 8 samples of one reference: its own
candidate, the reference itself, and the two wrapped as translators write them (a fence, a
proof, a preamble, a line break). Also printed: with the cache off, the share of a pair's time
spent reading the reference (extraction, context, parse in context).

    .venv/bin/python benchmarks/bench_samples.py ted transted
"""

from __future__ import annotations

import argparse
import os
import statistics
import time
from collections.abc import Callable
from typing import Any

import numpy as np

from transted.metrics.registry import get_metric
from transted.pipeline import reference_cache, sides
from transted.reading.pairs import Pair, Statement, read_pairs

DEV = "tests/data/gted/proofnet.jsonl"


def variants(text: str) -> list[str]:
    """``text`` as translators wrap it (the statement read is the same)."""
    return [f"```lean\n{text} := by\n  sorry\n```",
            f"Here is the formalization:\n\n{text} := sorry\n",
            text.replace(" : ", " :\n    ", 1) + " := by sorry"]


def samples(pairs: list[Pair], per_reference: int = 8) -> list[Pair]:
    out = []
    for pair in pairs:
        texts = [pair.candidate.statement, pair.reference.statement,
                 *variants(pair.candidate.statement), *variants(pair.reference.statement)]
        for k, text in enumerate(texts[:per_reference]):
            candidate = Statement(statement=text, header=pair.candidate.header)
            out.append(pair.model_copy(update={"id": f"{pair.id}#{k}", "candidate": candidate}))
    return out


def timed(pairs: list[Pair], score: Callable[[Pair], Any]) -> list[float]:
    times = []
    for pair in pairs:
        start = time.perf_counter()
        score(pair)
        times.append((time.perf_counter() - start) * 1000)
    return times


def reference_share(pairs: list[Pair], score: Callable[[Pair], Any]) -> float:
    """With the cache off: the reference side's share of the total pair time."""
    spent = [0.0]
    originals = sides._prepare_reference, sides._parse_reference

    def clocked(f: Callable[..., Any]) -> Callable[..., Any]:
        def run(*args: Any) -> Any:
            start = time.perf_counter()
            try:
                return f(*args)
            finally:
                spent[0] += time.perf_counter() - start
        return run

    sides._prepare_reference, sides._parse_reference = map(clocked, originals)  # type: ignore
    try:
        total = sum(timed(pairs, score)) / 1000
    finally:
        sides._prepare_reference, sides._parse_reference = originals  # type: ignore
    return spent[0] / total


def summary(times: list[float]) -> str:
    return (f"median {statistics.median(times):.2f} ms, p95 {np.percentile(times, 95):.2f} ms,"
            f" total {sum(times) / 1000:.2f} s")


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("metrics", nargs="+")
    parser.add_argument("--references", type=int, default=40)
    args = parser.parse_args(argv)
    pairs = samples(read_pairs(DEV)[:args.references])
    print(f"{len(pairs)} pairs, 8 per reference")
    for name in args.metrics:
        metric = get_metric(name)

        def score(pair: Pair, metric: Any = metric) -> Any:
            return metric.score_pair(pair)

        timed(pairs[:16], score)  # warm-up: tables, lazily built engines
        reference_cache.enable_reference_cache(False)
        off = timed(pairs, score)
        share = reference_share(pairs, score)
        reference_cache.enable_reference_cache(True)
        on = timed(pairs, score)
        print(f"{name}: cache off {summary(off)}; cache on {summary(on)}; "
              f"median ratio off/on {statistics.median(off) / statistics.median(on):.2f}x; "
              f"reference side {share:.0%} of pair time uncached; "
              f"hits {reference_cache.PARSED.hits} (load {os.getloadavg()[0]:.1f})")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
