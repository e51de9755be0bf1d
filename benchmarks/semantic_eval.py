"""Meaning-aware distance, measured: hand-made pairs and the dev set under unit vs semantic cost.

Run: ``python benchmarks/semantic_eval.py [--pairs-only] [--limit N]`` from the repository root.

Configurations: normalisation off/on (:mod:`transted.pipeline.opt.normalize`) × cost ``unit`` (ASSESS) /
``semantic`` (:mod:`transted.pipeline.ted.semantic` + hypotheses as units, :mod:`transted.pipeline.ted.hypotheses`),
for ``ted`` and offline ``transted``. Dev set: accuracy and Cohen's κ with the oracle threshold
(tuned on the labels: optimistic), leave-one-out CV and grouped CV (leave one ProofNet exercise
out, so no candidate of a held-out exercise informs its threshold). Weights are never fitted.

The search takes its distance through :mod:`transted.pipeline.search.distance` (unit cost) until that seam
takes a cost model; for ``transted`` under ``semantic`` this script routes the search's two
distance calls to the semantic statement distance (a measurement shim, nothing else is changed).
"""

from __future__ import annotations

import statistics
import sys
import time
from pathlib import Path

import numpy as np

from transted.errors import TranstedError
from transted.metrics.transted import DEFAULT_PROVIDERS
from transted.pipeline.config import PipelineConfig
from transted.pipeline.opt import OptOptions
from transted.pipeline.run import PairPipeline
from transted.pipeline.search.engine import SearchConfig
from transted.pipeline.search.providers.registry import (
    ProviderContext,
    make_providers,
    parse_provider_names,
)
from transted.reading.pairs import Pair, Statement, read_pairs
from transted.studies.evaluation.agreement import agreement_score
from transted.studies.evaluation.labels import gold_labels
from transted.studies.evaluation.threshold import (
    cross_validated_predictions,
    predict,
    select_threshold,
)

DEV = Path(__file__).resolve().parent.parent / "tests" / "data" / "gted" / "proofnet.jsonl"

HAND = [  # (reference, candidate, truth) — the table, as full statements
    ("theorem t (x : ℝ) (h : 1 < x) : Real.sqrt x < x",
     "theorem t (x : ℝ) (h : 1 < x) : Real.sqrt x ≤ x", "different"),
    ("theorem t (n : ℕ) (h : n % 5 = 3) : 2 * n % 5 = 1",
     "theorem t (n : ℕ) (h : n % 5 = 3) : 2 * n % 5 = 2", "different"),
    ("theorem t (a b : ℝ) (ha : 0 < a) (hb : 0 < b) : a / b + b / a ≥ 2",
     "theorem t (a b : ℝ) (ha : 0 < a) : a / b + b / a ≥ 2", "different"),
    ("theorem t (n : ℕ) (h : Even n) : (n + 1) % 2 = 1",
     "theorem t (n : ℕ) (h : n % 2 = 0) : (n + 1) % 2 = 1", "same"),
    ("theorem t (x : ℝ) : 3 * x = 6 ↔ x = 2",
     "theorem t (x : ℝ) : x + x + x = 6 ↔ x = 2", "same"),
    ("theorem t (s : Finset ℕ) (h : s.Nonempty) : 0 < s.card",
     "theorem t (s : Finset ℕ) (h : Finset.Nonempty s) : 0 < Finset.card s", "same"),
    ("theorem t : ∃ x < (1:ℝ), x ^ 2 = 4",
     "theorem t : ∃ x : ℝ, x < 1 ∧ x ^ 2 = 4", "same"),
    ("theorem t (x : ℝ) (n : ℕ) : Real.sin x ≤ 1",
     "theorem t (x : ℝ) (n : ℕ) : Nat.choose n 2 ≤ n ^ 2", "unrelated"),
]


class Scorer:
    """``ted`` or offline ``transted`` (search only, no evidence) under one (normalise, cost)
    configuration of the pair pipeline."""

    def __init__(self, metric: str, normalize: bool, cost: str):
        self.metric, self.cost, self.normalize = metric, cost, normalize
        search = SearchConfig() if metric == "transted" else None
        providers = (make_providers(parse_provider_names(DEFAULT_PROVIDERS), ProviderContext())
                     if search is not None else [])
        self.pipeline = PairPipeline(PipelineConfig(tree=OptOptions(normalize=normalize),
                                                    cost=cost, search=search), providers)

    @property
    def name(self) -> str:
        norm = "norm" if self.normalize else "raw"
        return f"{self.metric}/{norm}/{self.cost}"

    def score(self, pair: Pair) -> float:
        p = self.pipeline
        try:
            sides = p.read(pair)
        except TranstedError:
            return float("nan")  # a parse error: the metric fails on the pair, as `ted` does
        distance = p.measure(sides)
        if self.metric == "ted":
            return distance.similarity
        result = p.search(pair, sides, distance, p.budget())
        return max(0.0, 1.0 - result.distance / distance.norm)


def configurations() -> list[Scorer]:
    return [Scorer(m, n, c) for m in ("ted", "transted") for n in (False, True)
            for c in ("unit", "semantic")]


def hand_table() -> None:
    scorers = configurations()
    print("| pair | truth | " + " | ".join(s.name for s in scorers) + " |")
    print("|---|---|" + "---|" * len(scorers))
    for i, (ref, cand, truth) in enumerate(HAND, 1):
        pair = Pair(id=f"hand/{i}", reference=Statement(statement=ref),
                    candidate=Statement(statement=cand))
        cells = [f"{s.score(pair):.3f}" for s in scorers]
        print(f"| {i} | {truth} | " + " | ".join(cells) + " |")


def grouped_cv(scores: np.ndarray, labels: np.ndarray, groups: list[str]) -> np.ndarray:
    preds = np.zeros(len(scores), dtype=bool)
    for g in sorted(set(groups)):
        held = np.array([x == g for x in groups])
        t = select_threshold(scores[~held], labels[~held])
        preds[held] = predict(scores[held], t)
    return preds


def dev_table(limit: int | None) -> None:
    pairs = read_pairs(DEV)[:limit]
    labels = gold_labels(pairs)
    groups = [p.id.split("/")[1] for p in pairs]
    print(f"\n{len(pairs)} dev pairs (a pair a metric fails on counts as NaN: never positive), {int(labels.sum())} labelled equivalent, "
          f"{len(set(groups))} exercises (CV groups)")
    print("| config | oracle t | oracle acc | oracle κ | LOO-CV acc | LOO-CV κ | "
          "grouped-CV acc | grouped-CV κ | median ms | p95 ms |")
    print("|---|---|---|---|---|---|---|---|---|---|")
    for s in configurations():
        times, scores = [], []
        for p in pairs:
            start = time.perf_counter()
            scores.append(s.score(p))
            times.append(1000 * (time.perf_counter() - start))
        arr = np.array(scores)
        t = select_threshold(arr, labels)
        oracle = agreement_score(labels, predict(arr, t))
        loo = agreement_score(labels, cross_validated_predictions(arr, labels)[0])
        grp = agreement_score(labels, grouped_cv(arr, labels, groups))
        p95 = float(np.percentile(times, 95))
        print(f"| {s.name} | {t:.3f} | {oracle.accuracy:.3f} | {oracle.kappa:.3f} | "
              f"{loo.accuracy:.3f} | {loo.kappa:.3f} | {grp.accuracy:.3f} | {grp.kappa:.3f} | "
              f"{statistics.median(times):.1f} | {p95:.1f} |")


def main(argv: list[str]) -> None:
    limit = int(argv[argv.index("--limit") + 1]) if "--limit" in argv else None
    hand_table()
    if "--pairs-only" not in argv:
        dev_table(limit)


if __name__ == "__main__":
    main(sys.argv[1:])
