"""Cost of the ``lemmas`` provider per dev pair: the default metric against the same metric with
lemmas, pair by pair in one process (issue 33's speed bar: median at most 1.5x, p95 at most 2x).

    PYTHONPATH=. python benchmarks/lemma_speed.py [--limit N] [--rounds 1]
        [--providers offline,lemmas,decide] [--out FILE]

Both metrics are loaded once (as a batch worker holds them) and every pair is scored by A then
B, so machine load hits both alike. Printed: per-pair median and p95 milliseconds of each, the
ratios B/A of the medians and of the p95s, the median of the per-pair ratios, the timeouts of
each, the pairs the search closed (``details.status == "found"``) with each and with one only,
and the lemma moves B's provider yielded (for the per-lemma usage). (Verdicts are not compared:
B's signature has no shipped threshold, so its threshold-decided verdicts are null.) ``--out`` keeps the per-pair times (JSON lines).

``--processes N`` runs the whole sequence in N fresh processes one after the other and adds a
summary of each pair's fastest A and fastest B over them (best of N, as ``timeit`` reports): on
a shared machine one run's medians move by ±15% between identical runs (the load, and the
garbage collector's full collections landing on whichever pair runs), and the best of N is the
pair's own cost. Each process's own summary is printed too.
"""

from __future__ import annotations

import argparse
import json
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
FILES = [ROOT / "tests/data/strict/beq_human_dev.jsonl",
         ROOT / "tests/data/strict/proofnet_verified_dev.jsonl",
         ROOT / "tests/data/gted/proofnet.jsonl"]


def _p95(values: list[float]) -> float:
    ordered = sorted(values)
    return ordered[int(0.95 * (len(ordered) - 1))]


def main(argv: list[str] | None = None) -> int:
    import transted
    from transted.reading.pairs import read_pairs

    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--providers", default="offline,lemmas,decide",
                    help="B's providers (A is the default transted metric)")
    ap.add_argument("--per-state", type=int, default=None,
                    help="B's lemma moves per goal (default: the provider's)")
    ap.add_argument("--limit", type=int, default=None, help="the first N pairs only")
    ap.add_argument("--rounds", type=int, default=1)
    ap.add_argument("--out", type=Path, default=None)
    ap.add_argument("--processes", type=int, default=1,
                    help="run in N fresh processes; also summarise each pair's best of N")
    args = ap.parse_args(argv)
    if args.processes > 1:
        return _best_of(args)
    base = transted.load_metric("transted")
    extra = {} if args.per_state is None else {"lemmas.per_state": args.per_state}
    other = transted.load_metric("transted", providers=args.providers, provider_options=extra)
    pairs = [p for f in FILES for p in read_pairs(f)][:args.limit]
    rows = []
    for _ in range(args.rounds):
        for pair in pairs:
            row: dict[str, object] = {"id": pair.id}
            for name, metric in (("a", base), ("b", other)):
                began = time.perf_counter()
                result = metric.score_pair(pair)
                row[f"{name}_ms"] = (time.perf_counter() - began) * 1000
                row[f"{name}_status"] = result.status
                row[f"{name}_verdict"] = result.verdict
                row[f"{name}_found"] = (result.details or {}).get("status") == "found"
            rows.append(row)
    if args.out is not None:
        args.out.write_text("".join(json.dumps(r) + "\n" for r in rows))
    usage = {}
    for provider in getattr(other, "providers", []):
        if getattr(provider, "name", "") == "lemmas":
            usage = dict(provider.usage.most_common(15))
    print(json.dumps({**_summary(rows), "rounds": args.rounds,
                      "b": f"transted providers={args.providers}", "lemma_moves_top": usage},
                     ensure_ascii=False))
    return 0


def _summary(rows: list[dict[str, object]]) -> dict[str, object]:
    a = [float(r["a_ms"]) for r in rows]  # type: ignore[arg-type]
    b = [float(r["b_ms"]) for r in rows]  # type: ignore[arg-type]
    return {
        "pairs": len(rows), "a": "transted",
        "a_median_ms": round(statistics.median(a), 1), "b_median_ms": round(statistics.median(b), 1),
        "a_p95_ms": round(_p95(a), 1), "b_p95_ms": round(_p95(b), 1),
        "median_ratio": round(statistics.median(b) / statistics.median(a), 3),
        "p95_ratio": round(_p95(b) / _p95(a), 3),
        "median_of_pair_ratios": round(statistics.median(y / x for x, y in zip(a, b, strict=True)), 3),
        "a_timeouts": sum(r["a_status"] == "timeout" for r in rows),
        "b_timeouts": sum(r["b_status"] == "timeout" for r in rows),
        "a_closed": sum(bool(r["a_found"]) for r in rows),
        "b_closed": sum(bool(r["b_found"]) for r in rows),
        "closed_only_by_b": [r["id"] for r in rows if r["b_found"] and not r["a_found"]],
        "closed_only_by_a": [r["id"] for r in rows if r["a_found"] and not r["b_found"]]}


def _best_of(args: argparse.Namespace) -> int:
    """The sequence in ``args.processes`` fresh processes; each pair's best A and best B."""
    one = ["--providers", args.providers, "--rounds", str(args.rounds)]
    one += [] if args.per_state is None else ["--per-state", str(args.per_state)]
    one += [] if args.limit is None else ["--limit", str(args.limit)]
    runs: list[list[dict[str, object]]] = []
    with tempfile.TemporaryDirectory() as tmp:
        for k in range(args.processes):
            out = Path(tmp) / f"run{k}.jsonl"
            subprocess.run([sys.executable, __file__, *one, "--out", str(out)], check=True)
            runs.append([json.loads(line) for line in out.read_text().splitlines()])
    best = []
    for rows in zip(*runs, strict=True):
        row = dict(rows[0])
        row["a_ms"] = min(float(r["a_ms"]) for r in rows)  # type: ignore[arg-type]
        row["b_ms"] = min(float(r["b_ms"]) for r in rows)  # type: ignore[arg-type]
        best.append(row)
    if args.out is not None:
        args.out.write_text("".join(json.dumps(r) + "\n" for r in best))
    print(json.dumps({"best_of": args.processes, **_summary(best)}, ensure_ascii=False))
    return 0


if __name__ == "__main__":
    sys.exit(main())
