# ruff: noqa: E701, E702, E741, B023, E402, I001
"""Issue 13 measurement script (evidence); run from the repository root: PYTHONPATH=. python benchmarks/evidence/validate_suite.py. Writes to /tmp/j/."""
import json
from pathlib import Path
Path("/tmp/j").mkdir(exist_ok=True)
import time

from transted.studies.sensitivity.validator import EvidenceValidator
from transted.studies.sensitivity.lean.perturb import generate_suite, read_statements

stmts = [s for p in ["tests/data/statements/minif2f.jsonl","tests/data/statements/proofnet.jsonl"] for s in read_statements(p)]
v = EvidenceValidator()
seen = []
def wrapped(pair):
    keep, reason = v(pair)
    if not keep:
        seen.append({"id": pair.id, "reason": reason, "ref": pair.reference.statement, "cand": pair.candidate.statement})
    return keep, reason
t = time.perf_counter()
suite = generate_suite(stmts, seed=0, validators=[wrapped])
out = {"n_validated": len(suite.pairs), "seconds": time.perf_counter() - t, **v.counts(), "examples": seen}
json.dump(out, open("/tmp/j/validate_suite2.json", "w"), indent=1, ensure_ascii=False)
print(len(suite.pairs), sum(n for (_, _), n in v.discarded.items()), len(v.generator_bugs), flush=True)
