# ruff: noqa: E701, E702, E741, B023, E402, I001
"""Issue 13 measurement script (evidence); run from the repository root: PYTHONPATH=. python benchmarks/evidence/sensitivity_scores.py. Writes to /tmp/j/."""
import json
from pathlib import Path
Path("/tmp/j").mkdir(exist_ok=True)
import time

from transted.studies.sensitivity.lean.perturb import generate_suite, read_statements
from transted.studies.sensitivity.suite import sample_per_kind
from transted.metrics.registry import get_metric

stmts = [s for p in ["tests/data/statements/minif2f.jsonl","tests/data/statements/proofnet.jsonl"] for s in read_statements(p)]
suite = generate_suite(stmts, seed=0)
pairs = sample_per_kind(suite.pairs, 40, seed=0)
rows = []
for name, opts in (("ev", {}), ("noev", {"evidence": False}), ("ted", None)):
    m = get_metric("ted") if opts is None else get_metric("transted", **opts)
    t = time.perf_counter()
    for p in pairs:
        r = m.score_pair(p)
        rows.append({"cfg": name, "id": p.id, "kind": p.meta["perturbation"]["kind"], "label": p.label,
                     "score": r.score, "evidence": r.details.get("evidence"),
                     "graded": r.details.get("graded_score"), "error": r.error})
    print(name, len(pairs), time.perf_counter() - t, flush=True)
json.dump(rows, open("/tmp/j/sens.json", "w"), ensure_ascii=False)
