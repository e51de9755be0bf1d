"""Start-up and the pool decision, as ratios measured in one run (issue 34, item 6).

    python benchmarks/bench_startup.py [--rounds 5] [--batch 200] [--python PY]

Start-up: ``python -c pass`` (the floor), ``transted --version``, and one scored ``ted`` pair
in a fresh process (``transted score REF CAND -m ted``), each run ``--rounds`` times
interleaved; the medians and their ratios to the floor (budget: ``--version`` under 0.3 s, a
``ted`` pair under 1 s). Then where a one-pair process spends its imports (``-X importtime``:
the slowest top-level imports, cumulative).

Pool decision: a ``--batch``-pair ``ted`` batch (the strict labelled pairs) scored with the
default placement (every core, the pool started only once the batch is projected past 5 s)
and with ``--jobs 1``, alternately, ``--rounds`` times; the median ratio default / jobs 1
(budget: within 10%).
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
REF = "theorem a (x : ℕ) : x + 0 = x := sorry"
CAND = "theorem b (y : ℕ) : 0 + y = y := sorry"
LABELLED = [ROOT / "tests/data/strict/beq_human_dev.jsonl",
            ROOT / "tests/data/strict/proofnet_verified_dev.jsonl"]


def _seconds(argv: list[str]) -> float:
    began = time.perf_counter()
    done = subprocess.run(argv, cwd=ROOT, capture_output=True, text=True)
    elapsed = time.perf_counter() - began
    if done.returncode != 0:
        raise SystemExit(f"failed ({done.returncode}): {' '.join(argv)}\n{done.stderr}")
    return elapsed


def startup(py: str, rounds: int) -> dict[str, float]:
    cases = {"python -c pass": [py, "-c", "pass"],
             "transted --version": [py, "-m", "transted", "--version"],
             "one ted pair": [py, "-m", "transted", "-q", "score", REF, CAND, "-m", "ted"]}
    times: dict[str, list[float]] = {name: [] for name in cases}
    for _ in range(rounds):
        for name, argv in cases.items():
            times[name].append(_seconds(argv))
    return {name: statistics.median(t) for name, t in times.items()}


def import_breakdown(py: str, top: int = 12) -> list[tuple[str, float]]:
    """The slowest imports of a one-pair process that no other listed one contains."""
    done = subprocess.run([py, "-X", "importtime", "-m", "transted", "-q", "score", REF, CAND,
                           "-m", "ted"], cwd=ROOT, capture_output=True, text=True)
    rows = []
    for line in done.stderr.splitlines():
        if not line.startswith("import time:") or "cumulative" in line:
            continue
        _, cumulative, name = line[len("import time:"):].split("|")
        depth = (len(name) - len(name.lstrip())) // 2
        rows.append((depth, name.strip(), int(cumulative) / 1e6))
    shallow = [(n, s) for d, n, s in rows if d <= 1]
    return sorted(shallow, key=lambda r: -r[1])[:top]


def batch_file(n: int, folder: Path) -> Path:
    lines = [line for path in LABELLED for line in path.read_text("utf-8").splitlines() if line]
    if len(lines) < n:
        raise SystemExit(f"only {len(lines)} labelled pairs for a {n}-pair batch")
    path = folder / "batch.jsonl"
    path.write_text("\n".join(lines[:n]) + "\n", encoding="utf-8")
    return path


def pool_decision(py: str, rounds: int, n: int) -> dict[str, object]:
    with tempfile.TemporaryDirectory() as tmp:
        data = batch_file(n, Path(tmp))
        times: dict[str, list[float]] = {"default": [], "jobs 1": []}
        for r in range(rounds):
            for name, extra in (("default", []), ("jobs 1", ["--jobs", "1"])):
                out = Path(tmp) / f"{name.replace(' ', '')}-{r}.jsonl"
                times[name].append(_seconds([py, "-m", "transted", "-q", "score", str(data),
                                             "-m", "ted", "--out", str(out), *extra]))
        ratios = [d / one for d, one in zip(times["default"], times["jobs 1"], strict=True)]
        return {"pairs": n, "default_s": statistics.median(times["default"]),
                "jobs1_s": statistics.median(times["jobs 1"]),
                "ratio": statistics.median(ratios), "ratios": ratios}


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--rounds", type=int, default=5)
    ap.add_argument("--batch", type=int, default=200)
    ap.add_argument("--python", default=sys.executable)
    args = ap.parse_args(argv)
    floor = startup(args.python, args.rounds)
    base = floor["python -c pass"]
    print(f"start-up (median of {args.rounds}, interleaved):")
    for name, seconds in floor.items():
        print(f"  {name:20s} {seconds:6.3f} s  {seconds / base:5.1f}x python -c pass")
    print("one ted pair, slowest top-level imports (cumulative s):")
    for name, seconds in import_breakdown(args.python):
        print(f"  {seconds:6.3f}  {name}")
    pool = pool_decision(args.python, args.rounds, args.batch)
    print(f"{pool['pairs']}-pair ted batch: default {pool['default_s']:.2f} s, --jobs 1 "
          f"{pool['jobs1_s']:.2f} s, ratio {pool['ratio']:.3f} "
          f"(per round: {', '.join(f'{r:.3f}' for r in pool['ratios'])})")  # type: ignore[union-attr]
    print(json.dumps({"startup": floor, "pool": pool}))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
