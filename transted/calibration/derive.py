"""Re-derive ``transted/verdict/thresholds.yaml`` from the labelled data shipped in the repository.

Data: the expert-labelled dev pairs (``tests/data/gted/proofnet.jsonl``) choose the threshold
(:func:`transted.calibration.procedure.derive_threshold`); the Lean sensitivity suite generated
from ``tests/data/statements/*.jsonl`` (seeded, at most ``per_kind`` pairs per kind, the
``identical`` control row left out) is scored and reported at it. Scores stream to ``work/``
(one file per metric signature, :func:`transted.batch.score_pairs`), so a re-run of the same
computation only scores what is missing. Grouped cross-validation over the dev pairs (folds never
split a problem: pairs sharing a reference statement) shows how well a threshold chosen by the
same procedure carries to held-out problems.
"""

from __future__ import annotations

import hashlib
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import numpy as np

from transted.calibration.procedure import PROCEDURE, data_digest, derive_threshold
from transted.evaluation.labels import problem_group
from transted.evaluation.threshold import grouped_folds
from transted.pairs import Pair, read_pairs
from transted.verdict.rules import predict

__all__ = ["labelled_pool", "derive_thresholds", "write_thresholds"]

SUITE_SOURCE, DEV_SOURCE = "suite", "dev"


def labelled_pool(dev: str | Path, statements: Sequence[str | Path], *, seed: int = 0,
                  per_kind: int | None = 80) -> tuple[list[Pair], list[str]]:
    """The pooled labelled pairs and the source of each (``dev`` / ``suite``)."""
    from transted.sensitivity.lean.perturb import generate_suite, read_statements
    from transted.sensitivity.suite import sample_per_kind

    dev_pairs = read_pairs(dev)
    stmts = [s for path in statements for s in read_statements(path)]
    suite = generate_suite(stmts, seed=seed, identical=False)
    chosen = sample_per_kind(suite.pairs, per_kind, seed=seed)
    return dev_pairs + chosen, [DEV_SOURCE] * len(dev_pairs) + [SUITE_SOURCE] * len(chosen)


def _scores(metric: Any, pairs: list[Pair], work: Path) -> np.ndarray:
    """Scores of ``pairs`` (NaN where the metric failed), streamed to and resumed from
    ``work/<metric>-<signature digest>.jsonl`` by :func:`transted.batch.score_pairs`."""
    from transted.batch import score_pairs

    key = hashlib.sha256(str(metric.signature).encode()).hexdigest()[:10]
    path = work / f"{metric.name.replace(':', '_')}-{key}.jsonl"
    path.parent.mkdir(parents=True, exist_ok=True)
    results = score_pairs(pairs, metric, path)
    return np.array([np.nan if r.score is None else r.score for r in results], dtype=float)


def derive_thresholds(metrics: Sequence[str], *, dev: str | Path,
                      statements: Sequence[str | Path], work: str | Path, seed: int = 0,
                      per_kind: int | None = 80, folds: int = 5, version: str = "1"
                      ) -> dict[str, Any]:
    """The content of ``thresholds.yaml`` for ``metrics`` (registry names, default options).

    Returns a dict ``{"procedure", "data", "metrics": {name: {threshold, version, signature,
    n_dev, n_suite, cv}}}``; ``cv`` holds the grouped ``folds``-fold figures (mean over
    sources of balanced accuracy, and dev accuracy, of thresholds chosen without the fold) and
    ``suite`` the suite's figures at the shipped threshold.
    """
    from transted.metrics.registry import get_metric
    from transted.sensitivity.lean.perturb import GENERATOR_VERSION

    pairs, sources = labelled_pool(dev, statements, seed=seed, per_kind=per_kind)
    labels = np.array([bool(p.label) for p in pairs])
    src = np.array(sources)
    groups = [problem_group(p) for p in pairs]
    out: dict[str, Any] = {
        "procedure": PROCEDURE,
        "data": {"digest": data_digest([dev, *statements], GENERATOR_VERSION, str(seed),
                                       str(per_kind)),
                 "dev": Path(dev).name, "statements": [Path(s).name for s in statements],
                 "generator": GENERATOR_VERSION, "seed": seed, "per_kind": per_kind},
        "metrics": {},
    }
    for name in metrics:
        metric = get_metric(name)
        scores = _scores(metric, pairs, Path(work))
        dev_mask = src == DEV_SOURCE
        threshold = derive_threshold(scores[dev_mask], labels[dev_mask], src[dev_mask])
        out["metrics"][name] = {
            "threshold": threshold, "version": version, "signature": str(metric.base_signature),
            "n_dev": int(dev_mask.sum()), "n_suite": int((~dev_mask).sum()),
            "cv": _grouped_cv(scores[dev_mask], labels[dev_mask], src[dev_mask],
                              [g for g, d in zip(groups, dev_mask, strict=True) if d],
                              folds=folds, seed=seed),
            "suite": _at_threshold(scores[~dev_mask], labels[~dev_mask], threshold),
        }
    return out


def _grouped_cv(scores: np.ndarray, labels: np.ndarray, src: np.ndarray, groups: list[str],
                *, folds: int, seed: int) -> dict[str, Any]:
    from transted.calibration.procedure import source_balanced_accuracy

    fold_of = grouped_folds(labels, groups, folds=folds, seed=seed)
    preds = np.zeros(len(scores), dtype=bool)
    used = []
    for f in np.unique(fold_of):
        held = fold_of == f
        t = derive_threshold(scores[~held], labels[~held], src[~held])
        preds[held] = predict(scores[held], t)
        used.append(t)
    dev = src == DEV_SOURCE
    # balanced accuracy of the held-out verdicts, per source, then averaged
    as_scores = preds.astype(float)
    ba = float(source_balanced_accuracy(as_scores, labels, src, [0.5])[0])
    return {"folds": folds, "seed": seed, "balanced_accuracy": round(ba, 4),
            "dev_accuracy": round(float((preds[dev] == labels[dev]).mean()), 4),
            "threshold_range": [round(min(used), 4), round(max(used), 4)]}


def _at_threshold(scores: np.ndarray, labels: np.ndarray, threshold: float) -> dict[str, Any]:
    """The suite at the shipped threshold: share of faithful rewrites accepted, of meaning
    changes rejected, and their mean (balanced accuracy)."""
    verdicts = predict(scores, threshold)
    accepted = float(verdicts[labels].mean()) if labels.any() else float("nan")
    rejected = float((~verdicts[~labels]).mean()) if (~labels).any() else float("nan")
    return {"rewrites_accepted": round(accepted, 4), "changes_rejected": round(rejected, 4),
            "balanced_accuracy": round((accepted + rejected) / 2, 4)}


def write_thresholds(content: dict[str, Any], path: str | Path) -> None:
    import yaml

    header = ("# Default decision thresholds (procedure: transted.calibration.procedure); "
              "generated by\n# benchmarks/derive_thresholds.py — do not edit by hand.\n")
    Path(path).write_text(header + yaml.safe_dump(content, sort_keys=False, allow_unicode=True),
                          encoding="utf-8")
    from transted.verdict.rules import load_rules

    load_rules.cache_clear()
