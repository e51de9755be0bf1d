"""Batch throughput on every core and on Ray, against one process, in one run.

The 93 GTED ProofNet dev pairs are replicated to >= 2,000 pairs (ids ``<id>#<k>``) and
scored with ``transted`` and ``ted`` by: one process (``--jobs 1``), a local pool of 2
workers (``--jobs 2``), and Ray's local mode with 2 CPUs (``--executor ray``). Each
configuration runs in its own subprocess (clean memory figures); start-up (spawning workers,
``ray.init``, building each worker's metric on a warm-up batch) is timed apart from pairs/s.
``jobs2cold`` is the pool as a user meets it: no warm-up, its start-up inside the timed run
(the driver scores pairs itself while the workers start).
Every run's output must be byte-identical to the one-process output apart from pairs that
ended as ``status: "timeout"`` (a wall-clock deadline reached) in one of them; those are counted.

Peak memory per worker: the largest ru_maxrss among the workers (local: RUSAGE_CHILDREN
after the pool is shut down; Ray: each actor's own ru_maxrss).

Usage: ``.venv/bin/python benchmarks/bench_scale.py [--pairs 2046] [--metrics transted,ted]``
"""

from __future__ import annotations

import argparse
import json
import os
import resource
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
DATA = ROOT / "tests" / "data" / "gted" / "proofnet.jsonl"
CONFIGS = ("jobs1", "jobs2", "jobs2cold", "ray2")


def _replicated(n: int) -> list:
    from transted.reading.pairs import read_pairs

    base = read_pairs(DATA)
    return [p.model_copy(update={"id": f"{p.id}#{k // len(base)}"})
            for k, p in ((k, base[k % len(base)]) for k in range(n))]


def run_one(config: str, metric_name: str, n: int, out: Path) -> dict:
    """One configuration in this process; returns its figures."""
    from transted.metrics.registry import get_metric
    from transted.running.batch import score_pairs
    from transted.running.executors import LocalExecutor, RayExecutor

    pairs = _replicated(n)
    warm = [p.model_copy(update={"id": f"warm-{p.id}"}) for p in pairs[:8]]
    t0 = time.perf_counter()
    executor = None
    if config in ("jobs2", "jobs2cold"):
        executor = LocalExecutor(2)
    elif config == "ray2":
        executor = RayExecutor(workers=2)
        executor.connect()
    if executor is not None and config != "jobs2cold":  # start-up, not per pair
        score_pairs(warm, get_metric(metric_name), out.with_suffix(".warm"), resume=False,
                    executor=executor)
    startup = time.perf_counter() - t0
    t0 = time.perf_counter()
    score_pairs(pairs, get_metric(metric_name), out, resume=False, executor=executor)
    elapsed = time.perf_counter() - t0
    if executor is None:
        peak_kib = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
    elif config == "ray2":
        import resource as r

        peak_kib = max(executor.ray.get([
            a.__ray_call__.remote(lambda self: r.getrusage(r.RUSAGE_SELF).ru_maxrss)
            for a in executor._actors]))
        executor.close()
    else:
        executor.close()
        peak_kib = resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss
    return {"config": config, "metric": metric_name, "pairs": n, "startup_s": startup,
            "seconds": elapsed, "pairs_per_s": n / elapsed, "peak_worker_mib": peak_kib / 1024}


def _capped_or_diff(reference: Path, other: Path) -> tuple[int, int]:
    """(lines differing where either run timed out, lines differing otherwise)."""
    capped = other_diff = 0
    for a, b in zip(reference.read_text().splitlines(), other.read_text().splitlines(),
                    strict=True):
        if a == b:
            continue
        ra, rb = json.loads(a), json.loads(b)
        if "timeout" in (ra["status"], rb["status"]):
            capped += 1
        else:
            other_diff += 1
    return capped, other_diff


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--pairs", type=int, default=2046)
    parser.add_argument("--metrics", default="transted,ted")
    parser.add_argument("--configs", default=",".join(CONFIGS))
    parser.add_argument("--one", nargs=3, metavar=("CONFIG", "METRIC", "OUT"),
                        help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.one:
        config, metric_name, out = args.one
        print(json.dumps(run_one(config, metric_name, args.pairs, Path(out))))
        return
    load = os.getloadavg()
    print(f"{os.cpu_count()} CPUs, load average {load[0]:.2f} {load[1]:.2f} {load[2]:.2f} "
          f"at start; {args.pairs} pairs")
    env = {**os.environ, "PYTHONPATH": os.pathsep.join(filter(None, [
        str(ROOT), os.environ.get("PYTHONPATH")]))}
    with tempfile.TemporaryDirectory() as tmp:
        for metric_name in args.metrics.split(","):
            rows = {}
            for config in args.configs.split(","):
                out = Path(tmp) / f"{metric_name}-{config}.jsonl"
                proc = subprocess.run([sys.executable, __file__, "--pairs", str(args.pairs),
                                       "--one", config, metric_name, str(out)],
                                      capture_output=True, text=True, env=env, check=True)
                rows[config] = json.loads(proc.stdout.strip().splitlines()[-1])
            base = rows.get("jobs1")
            print(f"\n{metric_name}: {'config':9} {'pairs/s':>8} {'speed-up':>8} "
                  f"{'start s':>8} {'peak MiB/worker':>15} {'capped':>6} {'other diff':>10}")
            for config, row in rows.items():
                ratio = row["pairs_per_s"] / base["pairs_per_s"] if base else float("nan")
                capped, other = (_capped_or_diff(Path(tmp) / f"{metric_name}-jobs1.jsonl",
                                                 Path(tmp) / f"{metric_name}-{config}.jsonl")
                                 if base else (0, 0))
                print(f"{'':{len(metric_name) + 2}}{config:9} {row['pairs_per_s']:8.1f} "
                      f"{ratio:7.2f}x {row['startup_s']:8.1f} {row['peak_worker_mib']:15.0f} "
                      f"{capped:6d} {other:10d}")
            if "jobs2" in rows and "ray2" in rows:
                print(f"{'':{len(metric_name) + 2}}ray2 / jobs2 = "
                      f"{rows['ray2']['pairs_per_s'] / rows['jobs2']['pairs_per_s']:.2f}")
    load = os.getloadavg()
    print(f"\nload average {load[0]:.2f} {load[1]:.2f} {load[2]:.2f} at end")


if __name__ == "__main__":
    main()
