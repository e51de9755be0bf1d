"""The most two processes can gain on this machine: a pure-Python loop, twice in one process
against once in each of two spawned processes. Read `bench_scale.py`'s speed-ups against it.

Usage: ``.venv/bin/python benchmarks/cpu_ceiling.py``
"""

from __future__ import annotations

import multiprocessing
import time

LOOP = 20_000_000


def work(n: int) -> int:
    total = 0
    for i in range(n):
        total += i * i % 7
    return total


def main() -> None:
    began = time.perf_counter()
    work(LOOP)
    work(LOOP)
    serial = time.perf_counter() - began
    with multiprocessing.get_context("spawn").Pool(2) as pool:
        pool.map(work, [1000, 1000])  # workers up before timing
        began = time.perf_counter()
        pool.map(work, [LOOP, LOOP])
        parallel = time.perf_counter() - began
    print(f"one process {serial:.2f} s, two processes {parallel:.2f} s: "
          f"ceiling {serial / parallel:.2f}x")


if __name__ == "__main__":
    main()
