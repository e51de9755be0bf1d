"""TED speed per backend, as a ratio to the zss reference measured in the same run.

Trees: the 93 dev pairs of ``tests/data/gted/proofnet.jsonl`` — the Lean LSP trees
(``meta.lsp_trees``) always, and our parser's trees of the ``pretty`` statements when
``transted.pipeline.opt.parse_statement`` is available. Prints pairs/s, the ratio to zss and the median
ms per pair for each backend, then the benefit of the :class:`TreeEditDistance` memo on a
search-like workload (every pair scored ``--repeat`` times).

Usage: ``.venv/bin/python benchmarks/bench_ted.py [--rounds N] [--repeat K]``
"""

from __future__ import annotations

import argparse
import statistics
import time
from collections.abc import Callable, Sequence
from pathlib import Path

from transted.pipeline.opt.lsp_trees import lsp_tree_to_node
from transted.pipeline.opt.node import Node
from transted.pipeline.ted import BACKENDS, TreeEditDistance
from transted.pipeline.ted.cost import UnitCost
from transted.reading.pairs import read_pairs

DEV = Path(__file__).resolve().parent.parent / "tests" / "data" / "gted" / "proofnet.jsonl"
TreePairs = list[tuple[Node, Node]]


def lsp_pairs() -> TreePairs:
    return [(lsp_tree_to_node(p.meta["lsp_trees"]["reference"]),
             lsp_tree_to_node(p.meta["lsp_trees"]["candidate"])) for p in read_pairs(DEV)]


def parsed_pairs() -> tuple[TreePairs, int] | None:
    """Our trees of both sides' ``pretty`` form, and the number of pairs that did not parse."""
    try:
        from transted.pipeline.opt import parse_statement  # type: ignore[attr-defined]
    except ImportError:
        return None
    from transted.errors import TranstedError

    out: TreePairs = []
    failed = 0
    for p in read_pairs(DEV):
        try:
            sides = [parse_statement(s.pretty or s.statement, header=s.header)
                     for s in (p.reference, p.candidate)]
        except TranstedError:
            failed += 1
            continue
        out.append((sides[0], sides[1]))
    return out, failed


def time_per_pair(fn: Callable[[Node, Node], float], pairs: TreePairs, rounds: int) -> list[float]:
    """Per-pair seconds, best of ``rounds`` for each pair (least disturbed by the machine)."""
    best = [float("inf")] * len(pairs)
    for _ in range(rounds):
        for i, (a, b) in enumerate(pairs):
            start = time.perf_counter()
            fn(a, b)
            best[i] = min(best[i], time.perf_counter() - start)
    return best


def bench_backends(title: str, pairs: TreePairs, rounds: int) -> None:
    sizes = [a.size() + b.size() for a, b in pairs]
    print(f"\n{title}: {len(pairs)} pairs, mean |T1|+|T2| = {statistics.mean(sizes):.1f}, "
          f"max {max(sizes)}")
    print(f"{'backend':<8} {'pairs/s':>10} {'x zss':>8} {'median ms':>10}")
    cost = UnitCost()
    results = {}
    for name, cls in BACKENDS.items():
        backend = cls()
        results[name] = time_per_pair(lambda a, b, be=backend: be.distance(a, b, cost),
                                      pairs, rounds if name != "zss" else max(1, rounds // 3))
    base = len(pairs) / sum(results["zss"])
    for name, times in results.items():
        rate = len(pairs) / sum(times)
        print(f"{name:<8} {rate:>10.1f} {rate / base:>8.1f} {statistics.median(times) * 1e3:>10.3f}")


def bench_memo(pairs: TreePairs, repeat: int) -> None:
    """Calls/s with and without the memo when every pair comes back ``repeat`` times, as
    the same objects (identity level) and as equal copies (text level)."""
    same = [pair for pair in pairs for _ in range(repeat)]
    copies = [(Node.from_text(str(a)), Node.from_text(str(b))) for a, b in same]
    print(f"\nmemo (edist): each of {len(pairs)} pairs scored {repeat}x")
    print(f"{'workload':<14} {'cache':>6} {'calls/s':>10} {'x no cache':>11}  hits/misses")
    for label, work in (("same objects", same), ("equal copies", copies)):
        base = 0.0
        for size in (0, 4096):
            ted = TreeEditDistance(backend="edist", cache_size=size)
            start = time.perf_counter()
            for a, b in work:
                ted(a, b)
            rate = len(work) / (time.perf_counter() - start)
            base = base or rate
            info = ted.cache_info()
            print(f"{label:<14} {size:>6} {rate:>10.1f} {rate / base:>11.1f}  "
                  f"{info.hits}/{info.misses}")


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rounds", type=int, default=5, help="timing rounds per pair")
    parser.add_argument("--repeat", type=int, default=10, help="memo benchmark repeats")
    args = parser.parse_args(argv)
    lsp = lsp_pairs()
    bench_backends("LSP trees (meta.lsp_trees)", lsp, args.rounds)
    ours = parsed_pairs()
    if ours is None:
        print("\nour trees: transted.pipeline.opt.parse_statement not available yet; skipped")
    else:
        trees, failed = ours
        bench_backends(f"our trees (parse_statement of pretty; {failed} pairs unparsed)",
                       trees, args.rounds)
    bench_memo(lsp, args.repeat)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
