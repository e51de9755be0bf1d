"""Old rule vs the verdict rule on the labelled dev files, per convention, with grouped CV.

    PYTHONPATH=. python benchmarks/verdict_eval.py [--metric transted] [--work .cache/verdict_eval]
        [--old-threshold 0.6644144144144144] [--folds 5] [--json]

Scores the strict files (tests/data/strict/*.jsonl, strictly labelled) and the GTED dev pairs
(tests/data/gted/proofnet.jsonl, leniently labelled) once (resumable, in --work) and reports,
per data set and convention, accuracy and Cohen's kappa of

* **old rule**: score >= threshold, definite evidence overriding — at the old shipped
  threshold (--old-threshold, a3b40ea's `thresholds.yaml`), at the oracle threshold of the
  data's own labels (in-sample), and with the threshold chosen by grouped cross-validation;
* **new verdict** (transted.pipeline.verdict.rules under the convention): evidence, then residual
  edits, then a fallback threshold — chosen on the data's own fallback pairs (in-sample: what
  the shipped rule is on the files it was derived from) and by grouped cross-validation;

with agreement per `decided_by` group. Folds group pairs by ProofNet exercise across files
(transted.studies.calibration.problems); every threshold is chosen by the shipped procedure
(transted.studies.calibration.procedure.derive_threshold, balanced accuracy over files).
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path
from typing import Any

import numpy as np

ROOT = Path(__file__).resolve().parents[1]
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

from transted.metrics.registry import get_metric  # noqa: E402
from transted.pipeline.verdict.rules import forced_by_evidence  # noqa: E402
from transted.reading.pairs import read_pairs  # noqa: E402
from transted.running.batch import score_pairs  # noqa: E402
from transted.studies.calibration.problems import problem_key  # noqa: E402
from transted.studies.calibration.procedure import derive_threshold  # noqa: E402
from transted.studies.evaluation.agreement import agreement_score  # noqa: E402
from transted.studies.evaluation.decided import (  # noqa: E402
    agreement_by_group,
    decided_groups,
    fallback_mask,
    forced_of,
)
from transted.studies.evaluation.threshold import (  # noqa: E402
    apply_forced,
    grouped_folds,  # noqa: E402
    predict,
)

FILES = {"beq_human_dev": ROOT / "tests/data/strict/beq_human_dev.jsonl",
         "proofnet_verified_dev": ROOT / "tests/data/strict/proofnet_verified_dev.jsonl",
         "gted_proofnet": ROOT / "tests/data/gted/proofnet.jsonl"}
SETS = {"strict files (pooled)": ["beq_human_dev", "proofnet_verified_dev"],
        "beq_human_dev": ["beq_human_dev"], "proofnet_verified_dev": ["proofnet_verified_dev"],
        "GTED dev (lenient labels)": ["gted_proofnet"]}


def _fig(y: np.ndarray, p: np.ndarray) -> dict[str, float]:
    a = agreement_score(y, p)
    return {"accuracy": round(a.accuracy, 3), "kappa": round(a.kappa, 3)}


def _derive(s: np.ndarray, y: np.ndarray, src: np.ndarray, mask: np.ndarray) -> float:
    use = mask if mask.any() else np.ones(len(s), dtype=bool)
    return derive_threshold(s[use], y[use], src[use])


def _cv(s, y, src, groups, forced, folds, seed=0) -> tuple[np.ndarray, list[float]]:
    fold_of = grouped_folds(y, groups, folds=folds, seed=seed)
    preds = np.zeros(len(s), dtype=bool)
    used = []
    mask = fallback_mask(forced)
    for f in np.unique(fold_of):
        held = fold_of == f
        t = _derive(s[~held], y[~held], src[~held], mask[~held])
        idx = np.flatnonzero(held)
        preds[held] = apply_forced(predict(s[held], t), [forced[i] for i in idx])[0]
        used.append(round(t, 4))
    return preds, used


def evaluate_set(results: list, pairs: list, sources: list[str], convention: str,
                 old_threshold: float, folds: int) -> dict[str, Any]:
    y = np.array([bool(p.label) for p in pairs])
    s = np.array([np.nan if r.score is None else r.score for r in results], dtype=float)
    src = np.array(sources)
    groups = [problem_key(p) for p in pairs]
    evidence = [forced_by_evidence((r.details or {}).get("evidence")) for r in results]
    everything = np.ones(len(s), dtype=bool)
    old = {"shipped": _fig(y, apply_forced(predict(s, old_threshold), evidence)[0])}
    t_old = _derive(s, y, src, everything)
    old["in_sample"] = {**_fig(y, apply_forced(predict(s, t_old), evidence)[0]),
                        "threshold": round(t_old, 4)}
    p_cv, used = _cv(s, y, src, groups, [e for e in evidence], folds)
    old["grouped_cv"] = {**_fig(y, p_cv), "thresholds": used}
    forced, by, _ = forced_of(results, convention)
    t_new = _derive(s, y, src, fallback_mask(forced))
    p_new = apply_forced(predict(s, t_new), forced)[0]
    new = {"in_sample": {**_fig(y, p_new), "threshold": round(t_new, 4)}}
    p_ncv, used_n = _cv(s, y, src, groups, forced, folds)
    new["grouped_cv"] = {**_fig(y, p_ncv), "thresholds": used_n}
    groups_by = decided_groups(by, s, binary=False)
    new["decided_by_in_sample"] = {g: {k: v for k, v in d.items() if k != "share"}
                                   for g, d in agreement_by_group(y, p_new, groups_by).items()}
    new["decided_by_cv"] = {g: {k: v for k, v in d.items() if k != "share"}
                            for g, d in agreement_by_group(y, p_ncv, groups_by).items()}
    return {"n": len(pairs), "equivalent": int(y.sum()), "n_problems": len(set(groups)),
            "old_rule": old, "new_verdict": new}


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--metric", default="transted")
    ap.add_argument("--work", type=Path, default=ROOT / ".cache/verdict_eval")
    ap.add_argument("--old-threshold", type=float, default=0.6644144144144144)
    ap.add_argument("--folds", type=int, default=5)
    ap.add_argument("--json", action="store_true")
    args = ap.parse_args(argv)
    metric = get_metric(args.metric)
    args.work.mkdir(parents=True, exist_ok=True)
    scored = {}
    for name, path in FILES.items():
        pairs = read_pairs(path)
        scored[name] = (pairs, score_pairs(pairs, metric, args.work / f"{metric.name}-{name}.jsonl"))
    out: dict[str, Any] = {"metric": str(metric.signature), "sets": {}}
    for set_name, members in SETS.items():
        pairs = [p for m in members for p in scored[m][0]]
        results = [r for m in members for r in scored[m][1]]
        sources = [m for m in members for _ in scored[m][0]]
        out["sets"][set_name] = {c: evaluate_set(results, pairs, sources, c, args.old_threshold,
                                                 args.folds) for c in ("strict", "lenient")}
    if args.json:
        print(json.dumps(out, ensure_ascii=False, indent=1))
        return 0
    print(f"signature: {out['metric']}\n")
    print("| data | convention | old @shipped | old in-sample | old grouped CV | new in-sample "
          "| new grouped CV |")
    print("|---|---|---|---|---|---|---|")
    for set_name, per in out["sets"].items():
        for c, r in per.items():
            o, n = r["old_rule"], r["new_verdict"]
            cells = [o["shipped"], o["in_sample"], o["grouped_cv"], n["in_sample"], n["grouped_cv"]]
            print(f"| {set_name} ({r['n']}) | {c} | " + " | ".join(
                f"{x['accuracy']:.3f} / {x['kappa']:.3f}" for x in cells) + " |")
    print("\nnew verdict per decided_by (grouped CV): pairs, correct, called equivalent")
    for set_name, per in out["sets"].items():
        for c, r in per.items():
            groups = r["new_verdict"]["decided_by_cv"]
            print(f"- {set_name}, {c}: " + "; ".join(
                f"{g} {d['n']} ({d['correct']} right, {d['predicted_equivalent']} eq)"
                for g, d in groups.items()))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
