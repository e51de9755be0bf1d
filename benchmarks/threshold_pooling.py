"""Why the sensitivity suite does not choose the shipped threshold (docs/SENSITIVITY.md).

For each metric, from a `transted sensitivity` out dir and a `transted eval` out dir scored
with the same metric computation: the threshold that the pooled procedure (mean over the two
sources of balanced accuracy) picks, and the maximin one (best worst-source balanced
accuracy), each with the share of dev pairs it judges right.

    transted sensitivity tests/data/statements/*.jsonl -m transted -m ted --per-kind 20 --out S
    transted eval tests/data/gted/proofnet.jsonl -m transted -m ted --out D
    .venv/bin/python benchmarks/threshold_pooling.py S D transted ted
"""

from __future__ import annotations

import json
import sys
from pathlib import Path

import numpy as np

from transted.reading.pairs import read_pairs
from transted.studies.calibration.procedure import derive_threshold, source_balanced_accuracy
from transted.studies.evaluation.labels import gold_labels
from transted.studies.evaluation.threshold import candidate_thresholds, predict

DEV = "tests/data/gted/proofnet.jsonl"


def _scores(path: Path) -> dict[str, float]:
    rows = (json.loads(line) for line in path.read_text(encoding="utf-8").splitlines())
    return {r["id"]: np.nan if r["score"] is None else r["score"] for r in rows}


def main(argv: list[str]) -> int:
    sens, dev_out, *metrics = argv
    dev = read_pairs(DEV)
    dev_labels = gold_labels(dev)
    for name in metrics:
        suite = _scores(Path(sens) / "scores" / f"{name}.jsonl")
        ids = [i for i in suite if not i.endswith("#identical")]
        labels = [i.rsplit("#", 1)[1] in EQUIVALENT for i in ids]  # suite ids end in #<kind>
        dev_scores = _scores(Path(dev_out) / "scores" / f"{name}.jsonl")
        s = np.array([suite[i] for i in ids] + [dev_scores[p.id] for p in dev], dtype=float)
        y = np.array(labels + list(dev_labels))
        src = np.array(["suite"] * len(ids) + ["dev"] * len(dev))
        pooled = derive_threshold(s, y, src)
        candidates = candidate_thresholds(s)
        worst = np.minimum(*(source_balanced_accuracy(s[src == k], y[src == k], src[src == k],
                                                      candidates) for k in ("suite", "dev")))
        best = np.flatnonzero(np.isclose(worst, worst.max()))
        maximin = float(candidates[best[(len(best) - 1) // 2]])
        dev_s = s[src == "dev"]
        for label, t in (("pooled", pooled), ("maximin", maximin)):
            acc = float((predict(dev_s, t) == dev_labels).mean())
            print(f"{name:10s} {label:8s} t={t:.4f}  dev accuracy {acc:.3f}")
    return 0


EQUIVALENT = {  # the suite's faithful-rewrite kinds (transted.studies.sensitivity.lean.rewrites)
              "rename_bound", "reorder_hypotheses", "flip_relation", "ne_not_eq",
              "curry_conjoin", "notation", "namespace", "commute", "eq_symm"}

if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
