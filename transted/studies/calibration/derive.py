"""Re-derive ``transted/pipeline/verdict/thresholds.yaml`` from the labelled data shipped in the repository.

Per metric and per label convention (:mod:`transted.pipeline.verdict.conventions`) the fallback
threshold is chosen by :func:`transted.studies.calibration.procedure.derive_threshold` on that
convention's expert-labelled files (``strict``: ``tests/data/strict/*.jsonl``; ``lenient``: the
GTED dev pairs), restricted to the pairs the verdict rule leaves to the threshold — the
*fallback* pairs (evidence, invalid candidates and residual edits decide the others; all pairs
when none falls back, and for a metric without residual edits every pair is a fallback pair).
Each file is a source of :func:`~transted.studies.calibration.procedure.source_balanced_accuracy`.

Grouped cross-validation shows how the whole verdict (rule + a threshold chosen without the
held-out problems) carries to new problems: folds group pairs by ProofNet exercise *across*
files (:func:`transted.studies.calibration.problems.problem_key`: the GTED and strict files share
exercises). The Lean sensitivity suite generated from ``tests/data/statements/*.jsonl`` (seeded,
at most ``per_kind`` pairs per kind, without the ``identical`` row) is scored and reported at
the shipped rule, never used to choose it. Scores stream to ``work/`` (one file per metric
signature and data set, :func:`transted.running.batch.score_pairs`), so a re-run only scores what is
missing; a metric is scored once (under ``strict``): the convention changes verdicts, not scores
or details, so each convention's verdicts are recomputed from the same results.
"""

from __future__ import annotations

import hashlib
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

import numpy as np
import yaml

from transted.metrics.base import MetricResult
from transted.metrics.registry import get_metric
from transted.pipeline.verdict.thresholds import load_decision_rules
from transted.reading.pairs import Pair, read_pairs
from transted.running.batch import score_pairs
from transted.studies.calibration.problems import problem_key
from transted.studies.calibration.procedure import (
    PROCEDURE,
    data_digest,
    derive_threshold,
    source_balanced_accuracy,
)
from transted.studies.evaluation.agreement import agreement_score
from transted.studies.evaluation.decided import (
    agreement_by_group,
    decided_groups,
    fallback_mask,
    forced_of,
)
from transted.studies.evaluation.threshold import apply_forced, grouped_folds, predict
from transted.studies.sensitivity.lean.perturb import (
    GENERATOR_VERSION,
    generate_suite,
    read_statements,
)
from transted.studies.sensitivity.suite import sample_per_kind

__all__ = ["suite_pairs", "derive_thresholds", "write_thresholds", "RULES_VERSION"]

RULES_VERSION = "2"
"""Version of the shipped rules (2: fallback thresholds per convention; 1: one threshold)."""


def suite_pairs(statements: Sequence[str | Path], *, seed: int = 0,
                per_kind: int | None = 80) -> list[Pair]:
    """The seeded sample of the Lean sensitivity suite (no ``identical`` row)."""

    stmts = [s for path in statements for s in read_statements(path)]
    suite = generate_suite(stmts, seed=seed, identical=False)
    return sample_per_kind(suite.pairs, per_kind, seed=seed)


def _results(metric: Any, pairs: list[Pair], work: Path, tag: str) -> list[MetricResult]:
    """``metric``'s results for ``pairs``, streamed to and resumed from ``work/``."""

    key = hashlib.sha256(f"{metric.signature}|{tag}".encode()).hexdigest()[:10]
    path = work / f"{metric.name.replace(':', '_')}-{tag}-{key}.jsonl"
    path.parent.mkdir(parents=True, exist_ok=True)
    return score_pairs(pairs, metric, path)


def _scores(results: Sequence[MetricResult]) -> np.ndarray:
    return np.array([np.nan if r.score is None else r.score for r in results], dtype=float)


def _threshold(scores: np.ndarray, labels: np.ndarray, sources: np.ndarray,
               forced: Sequence[bool | None]) -> float:
    """The procedure on the fallback pairs (all pairs when none falls back)."""
    mask = fallback_mask(forced)
    if not mask.any():
        mask = np.ones(len(scores), dtype=bool)
    return derive_threshold(scores[mask], labels[mask], sources[mask])


def _verdicts(scores: np.ndarray, forced: Sequence[bool | None], t: float) -> np.ndarray:
    return apply_forced(predict(scores, t), forced)[0]


def _figures(labels: np.ndarray, preds: np.ndarray, sources: np.ndarray) -> dict[str, Any]:
    a = agreement_score(labels, preds)
    ba = float(source_balanced_accuracy(preds.astype(float), labels, sources, [0.5])[0])
    return {"accuracy": round(a.accuracy, 4), "kappa": round(a.kappa, 4),
            "balanced_accuracy": round(ba, 4)}


def _grouped_cv(scores: np.ndarray, labels: np.ndarray, sources: np.ndarray,
                forced: list[bool | None], groups: list[str], *, folds: int, seed: int
                ) -> dict[str, Any]:
    fold_of = grouped_folds(labels, groups, folds=folds, seed=seed)
    preds = np.zeros(len(scores), dtype=bool)
    used = []
    for f in np.unique(fold_of):
        held = fold_of == f
        train = np.flatnonzero(~held)
        t = _threshold(scores[train], labels[train], sources[train], [forced[i] for i in train])
        held_idx = np.flatnonzero(held)
        preds[held] = _verdicts(scores[held], [forced[i] for i in held_idx], t)
        used.append(t)
    per_source = {str(s): _figures(labels[sources == s], preds[sources == s], sources[sources == s])
                  for s in np.unique(sources)}
    return {"folds": folds, "seed": seed, "groups": "proofnet-problem",
            **_figures(labels, preds, sources), "per_file": per_source,
            "threshold_range": [round(min(used), 4), round(max(used), 4)]}


def _labelled(files: Sequence[str | Path]) -> tuple[list[Pair], np.ndarray, np.ndarray, list[str]]:
    pairs: list[Pair] = []
    sources: list[str] = []
    for f in files:
        got = read_pairs(f)
        pairs += got
        sources += [Path(f).name] * len(got)
    labels = np.array([bool(p.label) for p in pairs])
    return pairs, labels, np.array(sources), [problem_key(p) for p in pairs]


def _sha(path: str | Path) -> str:
    return hashlib.sha256(Path(path).read_bytes()).hexdigest()[:12]


def derive_thresholds(metrics: Sequence[str | tuple[str, Mapping[str, Any]]], *,
                      labelled: Mapping[str, Sequence[str | Path]],
                      statements: Sequence[str | Path], work: str | Path, seed: int = 0,
                      per_kind: int | None = 80, folds: int = 5) -> dict[str, Any]:
    """The content of ``thresholds.yaml`` for ``metrics`` (registry names with their default
    options, or ``(name, options)``: a rule is kept per signature, so a metric may have one
    rule per option set shipped, e.g. ``transted`` with and without ``providers=…lemmas…``).

    ``labelled`` maps each convention to its expert-labelled files. Returns ``{"procedure",
    "data", "rules": [{metric, convention, threshold, version, signature, data, n_labelled,
    n_fallback, in_sample, cv, suite}]}``: ``in_sample`` is the rule at the shipped threshold
    on the files it was derived from (with agreement per ``decided_by``), ``cv`` the grouped
    ``folds``-fold figures, ``suite`` the sensitivity suite at the shipped rule.
    """

    work = Path(work)
    every_file = [f for files in labelled.values() for f in files]
    suite = suite_pairs(statements, seed=seed, per_kind=per_kind)
    suite_labels = np.array([bool(p.label) for p in suite])
    out: dict[str, Any] = {
        "procedure": PROCEDURE,
        "problem_key": "ProofNet exercise from the reference's theorem name "
                       "(transted.studies.calibration.problems)",
        "data": {"digest": data_digest([*every_file, *statements], GENERATOR_VERSION, str(seed),
                                       str(per_kind)),
                 "labelled": {c: [Path(f).name for f in files] for c, files in labelled.items()},
                 "statements": [Path(s).name for s in statements],
                 "generator": GENERATOR_VERSION, "seed": seed, "per_kind": per_kind},
        "rules": [],
    }
    for spec in metrics:
        name, options = (spec, {}) if isinstance(spec, str) else (spec[0], dict(spec[1]))
        scorer = get_metric(name, **options)
        suite_results = _results(scorer, suite, work, "suite")
        for convention, files in labelled.items():
            pairs, labels, sources, groups = _labelled(files)
            results = _results(scorer, pairs, work, "-".join(Path(f).stem for f in files))
            scores = _scores(results)
            forced, by, _ = forced_of(results, convention)
            t = _threshold(scores, labels, sources, forced)
            preds = _verdicts(scores, forced, t)
            suite_forced = forced_of(suite_results, convention)[0]
            suite_preds = _verdicts(_scores(suite_results), suite_forced, t)
            out["rules"].append({
                "metric": name, "convention": convention, "threshold": t,
                "version": RULES_VERSION,
                "signature": str(get_metric(name, **{**options, "convention": convention})
                                 .base_signature),
                "data": [_sha(f) for f in files],
                "n_labelled": len(pairs), "n_fallback": int(fallback_mask(forced).sum()),
                "in_sample": {**_figures(labels, preds, sources),
                              "decided_by": _rounded(agreement_by_group(
                                  labels, preds, decided_groups(by, scores, binary=False)))},
                "cv": _grouped_cv(scores, labels, sources, forced, groups, folds=folds,
                                  seed=seed),
                "suite": _suite_figures(suite_preds, suite_labels),
            })
    return out


def _rounded(groups: dict[str, dict[str, Any]]) -> dict[str, dict[str, Any]]:
    return {g: {k: (round(v, 4) if isinstance(v, float) else v) for k, v in d.items()}
            for g, d in groups.items()}


def _suite_figures(verdicts: np.ndarray, labels: np.ndarray) -> dict[str, Any]:
    """The suite at the shipped rule: share of faithful rewrites accepted, of meaning changes
    rejected, and their mean (balanced accuracy)."""
    accepted = float(verdicts[labels].mean()) if labels.any() else float("nan")
    rejected = float((~verdicts[~labels]).mean()) if (~labels).any() else float("nan")
    return {"n": int(len(labels)), "rewrites_accepted": round(accepted, 4),
            "changes_rejected": round(rejected, 4),
            "balanced_accuracy": round((accepted + rejected) / 2, 4)}


def write_thresholds(content: dict[str, Any], path: str | Path) -> None:
    header = ("# Shipped fallback thresholds per metric and convention (procedure: "
              "transted.studies.calibration.procedure);\n# generated by benchmarks/derive_thresholds.py "
              "— do not edit by hand.\n")
    Path(path).write_text(header + yaml.safe_dump(content, sort_keys=False, allow_unicode=True),
                          encoding="utf-8")

    load_decision_rules.cache_clear()
