# ruff: noqa: E701, E702, E741, B023, E402, I001
"""Issue 13 measurement script (evidence); run from the repository root: PYTHONPATH=. python benchmarks/evidence/decide_cost.py. Writes to /tmp/j/."""
import json
import statistics
import time

import numpy as np

from transted.studies.sensitivity.lean.perturb import generate_suite, read_statements
from transted.studies.sensitivity.suite import sample_per_kind
from transted.metrics.registry import get_metric

stmts = [s for p in ["tests/data/statements/minif2f.jsonl"] for s in read_statements(p)]
pairs = sample_per_kind(generate_suite(stmts, seed=0).pairs, 8, seed=0)
for prov in ("offline", "offline,decide"):
    m = get_metric("transted", providers=prov, evidence=False)
    ms = []; found = 0
    for p in pairs:
        t = time.perf_counter(); r = m.score_pair(p); ms.append((time.perf_counter() - t) * 1000)
        found += r.details.get("status") == "found"
    print(prov, len(pairs), json.dumps({"median": statistics.median(ms), "p95": float(np.percentile(ms, 95)), "total_s": sum(ms)/1000, "found": found}), flush=True)
