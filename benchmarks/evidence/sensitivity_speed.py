# ruff: noqa: E701, E702, E741, B023, E402, I001
"""Issue 13 measurement script (evidence); run from the repository root: PYTHONPATH=. python benchmarks/evidence/sensitivity_speed.py. Writes to /tmp/j/."""
import json
import statistics
import time

import numpy as np
import z3

from transted.studies.sensitivity.lean.perturb import generate_suite, read_statements
from transted.studies.sensitivity.suite import sample_per_kind
from transted.pipeline.evidence import RefuteOptions, pair_evidence
from transted.pipeline.opt import parse_statement

n=[0,0.0]
orig=z3.Solver.check
def chk(self,*a):
    t=time.perf_counter(); n[0]+=1
    try: return orig(self,*a)
    finally: n[1]+=time.perf_counter()-t
z3.Solver.check=chk
stmts = [s for p in ["tests/data/statements/minif2f.jsonl","tests/data/statements/proofnet.jsonl"] for s in read_statements(p)]
pairs = sample_per_kind(generate_suite(stmts, seed=0).pairs, 40, seed=0)
ms=[]; tot=0; timeouts=0
for p in pairs:
    r=parse_statement(p.reference.statement, header=p.reference.header); c=parse_statement(p.candidate.statement, header=p.candidate.header)
    t=time.perf_counter(); ev=pair_evidence(r,c,RefuteOptions()); d=time.perf_counter()-t
    ms.append(d*1000); tot+=d; timeouts += "timeout" in (ev.reason or "")
print(json.dumps({"n":len(pairs),"median_ms":statistics.median(ms),"p95_ms":float(np.percentile(ms,95)),"max_ms":max(ms),"z3_calls":n[0],"z3_share":n[1]/tot,"total_s":tot,"timeouts":timeouts}))
