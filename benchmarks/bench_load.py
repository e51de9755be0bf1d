"""Do results depend on machine load? The dev pairs scored as the machine is, then again with
a CPU burner on every core; the result files must be byte-identical, except pairs that end as
``status: "timeout"`` in one run (a wall-clock deadline reached: counted, never a silent change).

The dev pairs: tests/data/gted/proofnet.jsonl and the two strict dev files (333 pairs). Each run
scores in one process (``--jobs 1``) into its own file; the burners are busy-looping processes,
one per CPU, started before the second run and stopped after it.

Usage: ``.venv/bin/python benchmarks/bench_load.py [--metric transted] [--out DIR]``
"""

from __future__ import annotations

import argparse
import json
import multiprocessing
import os
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
DEV = [ROOT / "tests" / "data" / "gted" / "proofnet.jsonl",
       ROOT / "tests" / "data" / "strict" / "beq_human_dev.jsonl",
       ROOT / "tests" / "data" / "strict" / "proofnet_verified_dev.jsonl"]


def _burn(stop: multiprocessing.synchronize.Event) -> None:  # type: ignore[name-defined]
    while not stop.is_set():
        pass


def _score_all(metric_name: str, out: Path) -> float:
    from transted.metrics.registry import get_metric
    from transted.reading.pairs import read_pairs
    from transted.running.batch import score_pairs

    out.mkdir(parents=True, exist_ok=True)
    started = time.perf_counter()
    for data in DEV:
        score_pairs(read_pairs(data), get_metric(metric_name), out / data.name, resume=False,
                    jobs=1)
    return time.perf_counter() - started


def compare(a: Path, b: Path) -> dict[str, int]:
    """Lines identical, differing only by a timeout on either side, differing otherwise."""
    counts = {"pairs": 0, "identical": 0, "timeout": 0, "other": 0}
    for data in DEV:
        for x, y in zip((a / data.name).read_text(encoding="utf-8").splitlines(),
                        (b / data.name).read_text(encoding="utf-8").splitlines(), strict=True):
            counts["pairs"] += 1
            if x == y:
                counts["identical"] += 1
            elif "timeout" in (json.loads(x)["status"], json.loads(y)["status"]):
                counts["timeout"] += 1
            else:
                counts["other"] += 1
    return counts


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--metric", default="transted")
    parser.add_argument("--out", type=Path, default=None)
    args = parser.parse_args()
    out = args.out or Path(tempfile.mkdtemp(prefix="bench-load-"))
    cpus = os.cpu_count() or 1
    print(f"{cpus} CPUs; load average {os.getloadavg()[0]:.2f} before the first run")
    quiet = _score_all(args.metric, out / "as-is")
    print(f"as is: {quiet:.1f} s, load average {os.getloadavg()[0]:.2f} at its end")
    context = multiprocessing.get_context("fork")
    stop = context.Event()
    burners = [context.Process(target=_burn, args=(stop,), daemon=True) for _ in range(cpus)]
    for p in burners:
        p.start()
    try:
        time.sleep(2)
        busy = _score_all(args.metric, out / "busy")
        print(f"every core busy: {busy:.1f} s ({busy / quiet:.2f}x), load average "
              f"{os.getloadavg()[0]:.2f} at its end")
    finally:
        stop.set()
        for p in burners:
            p.join(5)
    counts = compare(out / "as-is", out / "busy")
    print(f"{counts['pairs']} pairs: {counts['identical']} byte-identical lines, "
          f"{counts['timeout']} differing by a timeout, {counts['other']} differing otherwise; "
          f"files in {out}")


if __name__ == "__main__":
    main()
