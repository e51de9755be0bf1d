"""What a fresh process pays for the Mathlib index (docs/MATHLIB_INDEX.md, "Storage").

Each figure is measured in a new Python process (median of ``--rounds``): importing
``transted.pipeline.opt.mathlib`` (on top of ``transted.pipeline.opt``, which every scored pair imports), opening
the index with its first lookup, 1,000 lookups of distinct names spread over the whole file
(cold: each inflates another block), the same 1,000 again (warm: cached records), and 1,000
statements split (``index.statement``) of theorems.

    python benchmarks/mathlib_index_lookups.py [--rounds 5]
"""

from __future__ import annotations

import argparse
import json
import statistics
import subprocess
import sys

SCRIPT = r"""
import json, time
import transted.pipeline.opt
t0 = time.perf_counter()
import transted.pipeline.opt.mathlib as m
t1 = time.perf_counter()
index = m.load_index()
index.declaration("Nat.choose")
t2 = time.perf_counter()
firsts = [f for (f,) in index._query("SELECT first FROM blocks")]
names = firsts[:: max(1, len(firsts) // 1000)][:1000]
t3 = time.perf_counter()
found = [index.declaration(n) for n in names]
t4 = time.perf_counter()
again = [index.declaration(n) for n in names]
t5 = time.perf_counter()
theorems = [d.name for d in found if d is not None and d.kind == "theorem"]
t6 = time.perf_counter()
for n in theorems:
    index.statement(n)
t7 = time.perf_counter()
print(json.dumps({"import_ms": (t1 - t0) * 1e3, "open_first_lookup_ms": (t2 - t1) * 1e3,
                  "cold_1000_ms": (t4 - t3) * 1e3, "warm_1000_ms": (t5 - t4) * 1e3,
                  "statements": len(theorems), "statements_ms": (t7 - t6) * 1e3}))
"""


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--rounds", type=int, default=5)
    args = parser.parse_args()
    runs = [json.loads(subprocess.run([sys.executable, "-c", SCRIPT], capture_output=True,
                                      text=True, check=True).stdout)
            for _ in range(args.rounds)]
    for key in runs[0]:
        print(f"{key}: {statistics.median(r[key] for r in runs):.1f}")


if __name__ == "__main__":
    main()
