# ruff: noqa: E701, E702, E741, B023, E402, I001
"""Issue 13 measurement script (evidence); run from the repository root: PYTHONPATH=. python benchmarks/evidence/dev_set.py. Writes to /tmp/j/."""
import json
import statistics
import time
from pathlib import Path

import numpy as np

import transted.pipeline.evidence.decide as decide_mod
import transted.pipeline.evidence.refute as refute_mod
import transted.pipeline.evidence.smt as smt
from transted.studies.evaluation.harness import EvalConfig, collect, evaluate_metric
from transted.studies.evaluation.labels import LabelledPairs
from transted.metrics.registry import get_metric
from transted.reading.pairs import read_pairs

SOLVER = [0.0]
def timed(f):
    def g(*a, **k):
        t = time.perf_counter()
        try:
            return f(*a, **k)
        finally:
            SOLVER[0] += time.perf_counter() - t
    return g
for mod in (refute_mod, decide_mod):
    mod.check_sat = timed(smt.check_sat); mod.prove = timed(smt.prove)

DEV = Path("tests/data/gted/proofnet.jsonl")
pairs = read_pairs(DEV)
data = LabelledPairs.of(pairs, name=str(DEV))
labels = data.labels
out = Path("/tmp/j/dev"); out.mkdir(parents=True, exist_ok=True)
cfgs = {"transted+evidence": dict(), "transted-evidence": dict(evidence=False), "transted-offline-only": dict(evidence=False, providers="offline"), "ted": None}
report = {}
for name, opts in cfgs.items():
    metric = get_metric("ted") if opts is None else get_metric("transted", **opts)
    SOLVER[0] = 0.0
    t0 = time.perf_counter()
    times = []
    results = []
    for p in pairs:
        t = time.perf_counter()
        results.append(metric.score_pair(p))
        times.append((time.perf_counter() - t) * 1000)
    total = time.perf_counter() - t0
    entry = {"median_ms": statistics.median(times), "p95_ms": float(np.percentile(times, 95)),
             "solver_share": SOLVER[0] / total, "total_s": total}
    if opts is not None:
        from transted.pipeline.evidence import pair_evidence  # result lines carry no timings: time it here

        evms = []
        for p in pairs:
            try:
                ref, cand = metric.ted.trees(p)
            except Exception:  # unparseable pair: no evidence time
                continue
            evms.append(pair_evidence(ref, cand, metric.evidence_options).ms)
        entry["evidence_median_ms"] = statistics.median(evms); entry["evidence_p95_ms"] = float(np.percentile(evms, 95))
    for mode in ("oracle", "cv"):
        ev = collect(name, str(metric.signature), results, binary=False)
        evaluate_metric(ev, data, EvalConfig(threshold_mode=mode, n_boot=200))
        a = ev.agreement
        entry[mode] = {"threshold": ev.threshold, "accuracy": a.accuracy, "kappa": a.kappa,
                       "n_evidence": ev.n_evidence}
        entry["evidence_counts"] = ev.evidence_stats["evidence_counts"]
        entry["evidence_precision"] = ev.evidence_stats["evidence_precision"]
    if opts is not None:
        entry["definite"] = [{"id": p.id, "label": bool(l), "evidence": r.details["evidence"],
                              "detail": r.details["evidence_detail"], "score": r.score,
                              "graded": r.details["graded_score"],
                              "ref": p.reference.statement, "cand": p.candidate.statement}
                             for p, l, r in zip(pairs, labels, results, strict=False)
                             if r.details.get("evidence") in ("proved", "refuted")]
    report[name] = entry
    print(name, json.dumps({k: v for k, v in entry.items() if k != "definite"}, ensure_ascii=False), flush=True)
json.dump(report, open("/tmp/j/dev2.json", "w"), indent=1, ensure_ascii=False)
