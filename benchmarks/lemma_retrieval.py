"""Retrieval time per search state against the number of lemmas indexed (issue 33).

    PYTHONPATH=. python benchmarks/lemma_retrieval.py [--pairs FILE] [--repeat 5]

Every key of the lemma table (the table's ``keys``) is read; discrimination trees are built
in memory from the first 1%, 10%, 30% and 100% of the lemmas (by id, a fixed order), and for
each size the time to ask for the candidates of every subterm of both sides of every dev pair's
start goal is measured (best of ``--repeat``). A search state costs one such walk per side, so
the figure is the retrieval time per state. Also printed: candidates returned per state (they
grow with the lemmas that really can match, not with the size).
"""

from __future__ import annotations

import argparse
import json
import statistics
import time
import zlib

from transted.metrics.registry import get_metric
from transted.pipeline.opt.node import Node
from transted.pipeline.search.lemmas.dtree import DiscriminationTree
from transted.pipeline.search.lemmas.table import LemmaTable, load_table
from transted.reading.pairs import read_pairs

DEV = "tests/data/gted/proofnet.jsonl"
SHARES = (0.01, 0.1, 0.3, 1.0)


def all_entries(table: LemmaTable) -> list[tuple[int, bool, tuple[str, ...]]]:
    out = []
    for (blob,) in table._query("SELECT entries FROM keys ORDER BY bucket"):
        for lemma, backward, *keys in json.loads(zlib.decompress(blob)):
            out.append((lemma, bool(backward), tuple(keys)))
    return out


def side_trees(path: str) -> list[Node]:
    metric = get_metric("transted")
    trees: list[Node] = []
    for pair in read_pairs(path):
        try:
            sides = metric.pipeline.read(pair)
        except Exception:  # noqa: BLE001 - a pair that does not parse has no state
            continue
        trees.extend(sides.trees)
    return trees


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--pairs", default=DEV)
    parser.add_argument("--repeat", type=int, default=5)
    args = parser.parse_args()
    table = load_table()
    entries = all_entries(table)
    lemmas = sorted({e[0] for e in entries})
    trees = side_trees(args.pairs)
    subterms = [sub for tree in trees for sub in tree.preorder()]
    print(f"{len(lemmas)} lemmas, {len(entries)} directions; {len(trees)} sides, "
          f"{len(subterms)} subterms")
    print("| lemmas indexed | directions | µs per state (median side) | µs per subterm | "
          "candidates per state |")
    print("|---|---|---|---|---|")
    for share in SHARES:
        keep = set(lemmas[: max(1, int(len(lemmas) * share))])
        tree: DiscriminationTree[int] = DiscriminationTree()
        for lemma, _backward, keys in entries:
            if lemma in keep:
                tree.insert(keys, lemma)
        per_side: list[float] = []
        found = 0
        for side in trees:
            best = float("inf")
            for _ in range(args.repeat):
                start = time.perf_counter()
                n = sum(len(tree.retrieve(sub)) for sub in side.preorder())
                best = min(best, time.perf_counter() - start)
            per_side.append(best * 1e6)
            found += n
        total = sum(per_side)
        print(f"| {len(keep)} | {tree.size} | {statistics.median(per_side):.0f} | "
              f"{total / len(subterms):.2f} | {found / len(trees):.1f} |")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
