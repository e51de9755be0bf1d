"""Cost of the ``lemmas`` provider per dev pair: transted without the lemmas (A,
``providers=offline,decide``) against transted with them (B, the default since provider 6), pair
by pair in one process (issue 33's speed bar: median at most 1.5x, p95 at most 2x).

    PYTHONPATH=. python benchmarks/lemma_speed.py [--limit N] [--rounds 1]
        [--providers offline,lemmas,decide] [--out FILE]

Both metrics are loaded once (as a batch worker holds them) and every pair is scored by A then
B, so machine load hits both alike. Printed: per-pair median and p95 milliseconds of each, the
ratios B/A of the medians and of the p95s, the median of the per-pair ratios, the timeouts of
each, the pairs the search closed (``details.status == "found"``) with each and with one only,
and the lemma moves B's provider yielded (for the per-lemma usage). (Verdicts are not compared:
with other ``--providers`` B's signature has no shipped threshold, so its threshold-decided
verdicts are null.) ``--out`` keeps the per-pair times (JSON lines).

``--processes N`` runs the whole sequence in N fresh processes one after the other and adds a
summary of each pair's fastest A and fastest B over them (best of N, as ``timeit`` reports): on
a shared machine one run's medians move by ±15% between identical runs (the load, and the
garbage collector's full collections landing on whichever pair runs), and the best of N is the
pair's own cost. Each process's own summary is printed too. ``--warmup K`` first scores, untimed, the last K
pairs of the dev files (none of them timed): the timed pairs then run as in a batch already
under way, the process's first-use costs (the lemma table's buckets and rows, the index's
blocks, the instance answers) paid by other pairs, as they are over a long run. With
``--apart`` each of those
processes scores one metric only (A's and B's processes alternating which goes first), as a
user runs one metric: in a shared process each metric's garbage collections also walk the
other's kept tables, so the shared run charges each for the other's memory.

``--workers`` keeps each metric in a worker process of its own and hands every pair to both
in turn (A then B, B then A on the next pair): the ratio is taken within one run, as above, but
neither metric's per-process answers (the side elaborations kept for the process, the instance
answers, the lemma table's rows) serve or crowd out the other's, and neither's heap is walked
by the other's collections. In one shared process the default metric scores each pair first
and the lemma metric then finds that pair's sides already elaborated, which flatters B; a user
runs one metric per process. Each timed pair also pays the collection its own allocations made
due (``_Due``), not the other metric's next pair.

``--scoring`` says how each pair is scored: ``batch`` (the default) through the batch's own
guard (``running/executors/guard.py`` ``score_guarded``, what ``transted evaluate`` and
``score_pairs`` run: the cyclic collector paused during the pair, its own schedule between
pairs, timed where it lands); ``bare``, a bare ``metric.score_pair`` with the collector running
throughout (a caller's own loop); ``timeit``, a bare call with the collector paused and the young
generation collected after it, untimed (as ``timeit`` pauses it: the pairs' own work alone).
Every mode prints, per metric, the pairs a full collection landed on and its time (``gc``).
"""

from __future__ import annotations

import argparse
import gc
import json
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
WITHOUT_LEMMAS = "offline,decide"
"""A's providers: the search without the rewrite lemmas (the default before provider 6)."""
FILES = [ROOT / "tests/data/strict/beq_human_dev.jsonl",
         ROOT / "tests/data/strict/proofnet_verified_dev.jsonl",
         ROOT / "tests/data/gted/proofnet.jsonl"]


def _p95(values: list[float]) -> float:
    ordered = sorted(values)
    return ordered[int(0.95 * (len(ordered) - 1))]


def main(argv: list[str] | None = None) -> int:
    from transted.reading.pairs import read_pairs

    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--providers", default="offline,lemmas,decide",
                    help="B's providers (A: transted without the lemmas, "
                         f"providers={WITHOUT_LEMMAS})")
    ap.add_argument("--per-state", type=int, default=None,
                    help="B's lemma moves per goal (default: the provider's)")
    ap.add_argument("--limit", type=int, default=None, help="the first N pairs only")
    ap.add_argument("--rounds", type=int, default=1)
    ap.add_argument("--out", type=Path, default=None)
    ap.add_argument("--processes", type=int, default=1,
                    help="run in N fresh processes; also summarise each pair's best of N")
    ap.add_argument("--apart", action="store_true",
                    help="with --processes: one metric per process")
    ap.add_argument("--warmup", type=int, default=0,
                    help="score the last K dev pairs first, untimed (disjoint from the timed)")
    ap.add_argument("--scoring", choices=("batch", "bare", "timeit"), default="batch",
                    help="how each pair is scored (see above)")
    ap.add_argument("--workers", action="store_true",
                    help="each metric in a worker process of its own, pairs handed to both "
                         "in turn (see above)")
    ap.add_argument("--only", choices=("a", "b"), default=None, help=argparse.SUPPRESS)
    args = ap.parse_args(argv)
    if args.workers and (args.processes > 1 or args.only is not None):
        ap.error("--workers runs both metrics in one run: not with --processes")
    if args.processes > 1:
        return _best_of(args)
    every = [p for f in FILES for p in read_pairs(f)]
    pairs = every[:args.limit]
    warm = every[len(pairs):][-args.warmup:] if args.warmup > 0 else []
    names = [name for name in ("a", "b") if args.only in (None, name)]
    if args.workers:
        rows, usage = _in_workers(args, pairs, warm)
    else:
        timers = [_Timer(name, args) for name in names]
        for pair in warm:  # a running batch's state: its tables and caches opened by other pairs
            for timer in timers:
                timer.score(pair)
        rows = []
        for _ in range(args.rounds):
            for pair in pairs:
                row: dict[str, object] = {"id": pair.id}
                for timer in timers:
                    row.update(timer.timed(pair))
                rows.append(row)
        for timer in timers:
            timer.close()
        usage = next((t.usage() for t in timers if t.name == "b"), {})
    if args.out is not None:
        args.out.write_text("".join(json.dumps(r) + "\n" for r in rows))
    if args.only is not None:
        return 0  # one side only: the parent process merges
    print(json.dumps({**_summary(rows), "rounds": args.rounds, "workers": args.workers,
                      "b": f"transted providers={args.providers}", "lemma_moves_top": usage},
                     ensure_ascii=False))
    return 0


class _Timer:
    """One metric, loaded in this process, and how a pair is scored and timed with it."""

    def __init__(self, name: str, args: argparse.Namespace) -> None:
        import transted
        extra = {} if args.per_state is None else {"lemmas.per_state": args.per_state}
        self.name = name
        self.metric = transted.load_metric("transted", providers=WITHOUT_LEMMAS) \
            if name == "a" else \
            transted.load_metric("transted", providers=args.providers, provider_options=extra)
        self.scoring = args.scoring
        self.collections = _Collections()

    def score(self, pair: Any) -> Any:
        from transted.running.executors.guard import score_guarded
        return score_guarded(self.metric, pair) if self.scoring == "batch" else \
            self.metric.score_pair(pair)

    def timed(self, pair: Any) -> dict[str, object]:
        name = self.name
        if self.scoring == "timeit":
            gc.disable()
        began = time.perf_counter()
        result = self.score(pair)
        _Due()
        row: dict[str, object] = {f"{name}_ms": (time.perf_counter() - began) * 1000}
        if self.scoring == "timeit":
            gc.enable()
            gc.collect(0)
        row[f"{name}_status"] = result.status
        row[f"{name}_verdict"] = result.verdict
        row[f"{name}_found"] = (result.details or {}).get("status") == "found"
        row[f"{name}_full_gc_ms"] = self.collections.take()
        return row

    def usage(self) -> dict[str, int]:
        for provider in getattr(self.metric, "providers", []):
            if getattr(provider, "name", "") == "lemmas":
                return dict(provider.usage.most_common(15))
        return {}

    def close(self) -> None:
        self.collections.close()


def _worker(name: str, args: argparse.Namespace, pairs: list[Any], warm: list[Any],
            conn: Any) -> None:
    timer = _Timer(name, args)
    for pair in warm:
        timer.score(pair)
    conn.send("ready")
    while (index := conn.recv()) is not None:
        conn.send(timer.timed(pairs[index]))
    conn.send(timer.usage())
    timer.close()


def _in_workers(args: argparse.Namespace, pairs: list[Any], warm: list[Any]
                ) -> tuple[list[dict[str, object]], dict[str, int]]:
    """Each metric in a worker process of its own (its own memos and heap, as a user runs
    one metric), the pairs handed to the two in turn — A then B, then B then A on the next
    pair — so that the machine's load at each moment falls on both alike: the ratio is taken
    within one run."""
    import multiprocessing
    context = multiprocessing.get_context("fork")
    ends = {}
    workers = []
    for name in ("a", "b"):
        parent, child = context.Pipe()
        worker = context.Process(target=_worker, args=(name, args, pairs, warm, child))
        worker.start()
        child.close()  # the worker's end: if it dies, recv here raises EOFError, not waits
        ends[name] = parent
        workers.append(worker)
    for name in ("a", "b"):
        if ends[name].recv() != "ready":
            raise RuntimeError(f"worker {name} did not start")
    rows = []
    for _ in range(args.rounds):
        for index, pair in enumerate(pairs):
            row: dict[str, object] = {"id": pair.id}
            for name in (("a", "b") if index % 2 == 0 else ("b", "a")):
                ends[name].send(index)
                row.update(ends[name].recv())
            rows.append(row)
    usage: dict[str, int] = {}
    for name in ("a", "b"):
        ends[name].send(None)
        answer = ends[name].recv()
        usage = answer if name == "b" else usage
    for worker in workers:
        worker.join()
    return rows, usage


class _Due:
    """Made as a timed pair ends: the collection its allocations made due runs inside this
    allocation (CPython collects in the allocation that passes the young generation's
    threshold; the batch guard re-enables the collector as the pair returns) and is charged to
    the pair whose objects it walks. Without it, the first tracked allocation after a pair was
    in the other metric's next pair, which paid for this one's survivors: in one shared process
    the default metric was charged the lemma metric's young collections. A class instance,
    not a list or dict: those are taken from free lists without counting as allocations."""


class _Collections:
    """The full (generation-2) collections that ran while a pair was scored, and their time."""

    def __init__(self) -> None:
        self._ms = 0.0
        self._began = 0.0
        gc.callbacks.append(self._observe)

    def _observe(self, phase: str, info: dict[str, int]) -> None:
        if info["generation"] != 2:
            return
        if phase == "start":
            self._began = time.perf_counter()
        else:
            self._ms += (time.perf_counter() - self._began) * 1000

    def take(self) -> float:
        ms, self._ms = self._ms, 0.0
        return round(ms, 1)

    def close(self) -> None:
        gc.callbacks.remove(self._observe)


def _summary(rows: list[dict[str, object]]) -> dict[str, object]:
    a = [float(r["a_ms"]) for r in rows]  # type: ignore[arg-type]
    b = [float(r["b_ms"]) for r in rows]  # type: ignore[arg-type]
    full = {x: [float(r.get(f"{x}_full_gc_ms", 0.0)) for r in rows]  # type: ignore[arg-type]
            for x in ("a", "b")}
    return {
        "pairs": len(rows), "a": f"transted providers={WITHOUT_LEMMAS}",
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
        "closed_only_by_a": [r["id"] for r in rows if r["a_found"] and not r["b_found"]],
        "gc": {x: {"pairs_with_a_full_collection": sum(v > 0 for v in full[x]),
                   "full_collections_ms": round(sum(full[x]), 1)} for x in ("a", "b")}}


def _best_of(args: argparse.Namespace) -> int:
    """The sequence in ``args.processes`` fresh processes; each pair's best A and best B."""
    one = ["--providers", args.providers, "--rounds", str(args.rounds)]
    one += [] if args.per_state is None else ["--per-state", str(args.per_state)]
    one += [] if args.limit is None else ["--limit", str(args.limit)]
    one += ["--warmup", str(args.warmup), "--scoring", args.scoring]
    runs: list[list[dict[str, object]]] = []
    with tempfile.TemporaryDirectory() as tmp:
        for k in range(args.processes):
            if not args.apart:
                runs.append(_run(one, Path(tmp) / f"run{k}.jsonl"))
                continue
            sides = {x: _run([*one, "--only", x], Path(tmp) / f"run{k}{x}.jsonl")
                     for x in (("a", "b") if k % 2 == 0 else ("b", "a"))}
            runs.append([{**a, **b} for a, b in zip(sides["a"], sides["b"], strict=True)])
    best = []
    for rows in zip(*runs, strict=True):
        row = dict(rows[0])
        for x in ("a", "b"):  # the fastest run's time, and its collections
            fastest = min(rows, key=lambda r, x=x: float(r[f"{x}_ms"]))  # type: ignore[arg-type, misc]
            row[f"{x}_ms"] = fastest[f"{x}_ms"]
            row[f"{x}_full_gc_ms"] = fastest.get(f"{x}_full_gc_ms", 0.0)
        best.append(row)
    if args.out is not None:
        args.out.write_text("".join(json.dumps(r) + "\n" for r in best))
    print(json.dumps({"best_of": args.processes, "apart": args.apart, **_summary(best)},
                     ensure_ascii=False))
    return 0


def _run(argv: list[str], out: Path) -> list[dict[str, object]]:
    subprocess.run([sys.executable, __file__, *argv, "--out", str(out)], check=True)
    return [json.loads(line) for line in out.read_text().splitlines()]


if __name__ == "__main__":
    sys.exit(main())
