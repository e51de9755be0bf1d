"""What decided each verdict of an evaluation, and agreement per group.

A result's verdict is decided by evidence, the candidate's invalidity or the residual edits
before any threshold (:func:`transted.pipeline.verdict.rules.forced_decision`, under the metric's
convention); the threshold decides only the rest — the *fallback* pairs. So a threshold is
chosen, and cross-validated, on the fallback pairs only (:func:`fallback_threshold`,
:func:`fallback_cv`), and agreement is reported per ``decided_by`` group
(:func:`agreement_by_group`).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import numpy as np
from numpy.typing import NDArray

from transted.metrics.base import MetricResult
from transted.pipeline.verdict.rules import forced_decision
from transted.studies.evaluation.agreement import agreement_score
from transted.studies.evaluation.threshold import (
    apply_forced,
    cross_validated_predictions,
    predict,
    select_threshold,
)

__all__ = ["Forced", "forced_of", "fallback_mask", "fallback_threshold", "fallback_cv",
           "predictions_with", "decided_groups", "agreement_by_group", "mode_figures", "GROUPS"]

GROUPS = ("evidence", "invalid", "edits", "threshold", "binary", "error")
"""``decided_by`` groups of an evaluation; ``error``: no score and nothing else decided."""

Forced = tuple[list[bool | None], list[str | None], list[str | None]]
"""Per pair: the verdict decided before the threshold (True = equivalent, None = the
threshold decides), what decided it, and the fallback's reason."""


def forced_of(results: Sequence[MetricResult], convention: str) -> Forced:
    """:func:`~transted.pipeline.verdict.rules.forced_decision` of each result."""
    verdicts: list[bool | None] = []
    by: list[str | None] = []
    reasons: list[str | None] = []
    for r in results:
        d = forced_decision(r.details or {}, status=r.status, convention=convention)
        verdicts.append(None if d.verdict is None else d.verdict == "equivalent")
        by.append(d.decided_by)
        reasons.append(d.reason)
    return verdicts, by, reasons


def fallback_mask(forced: Sequence[bool | None]) -> NDArray[np.bool_]:
    """The pairs the threshold decides."""
    return np.array([f is None for f in forced], dtype=bool)


def fallback_threshold(scores: NDArray[np.float64], labels: NDArray[np.bool_],
                       forced: Sequence[bool | None], *, rule: str) -> float:
    """The oracle threshold of the fallback pairs (all pairs when none falls back: the
    threshold then decides nothing)."""
    mask = fallback_mask(forced)
    if not mask.any():
        mask = np.ones(len(scores), dtype=bool)
    return select_threshold(scores[mask], labels[mask], rule=rule)


def predictions_with(scores: NDArray[np.float64], forced: Sequence[bool | None],
                     threshold: float) -> tuple[NDArray[np.bool_], int]:
    """Forced verdicts, the threshold for the rest; and how many were forced."""
    return apply_forced(predict(scores, threshold), forced)


def fallback_cv(scores: NDArray[np.float64], labels: NDArray[np.bool_],
                forced: Sequence[bool | None], groups: Sequence[str], *, rule: str,
                folds: int, seed: int) -> tuple[NDArray[np.bool_], NDArray[np.float64]]:
    """Grouped cross-validation of the threshold on the fallback pairs (each fallback pair
    classified with a threshold chosen on the other problems' fallback pairs); forced pairs
    keep their verdict. Returns the predictions and the thresholds used (of fallback pairs)."""
    mask = fallback_mask(forced)
    preds = apply_forced(np.zeros(len(scores), dtype=bool), forced)[0]
    idx = np.flatnonzero(mask)
    sub_groups = [groups[int(i)] for i in idx]
    if len(idx) < 2 or len(set(sub_groups)) < 2:
        t = fallback_threshold(scores, labels, forced, rule=rule)
        preds[idx] = predict(scores[idx], t)
        return preds, np.full(max(len(idx), 1), t)
    k = folds if folds <= len(set(sub_groups)) else 0
    sub, used = cross_validated_predictions(scores[idx], labels[idx], rule=rule, folds=k,
                                            seed=seed, groups=sub_groups)
    preds[idx] = sub
    return preds, used


def decided_groups(forced_by: Sequence[str | None], scores: NDArray[np.float64], *,
                   binary: bool) -> list[str]:
    """Per pair, the group that decided its verdict (:data:`GROUPS`)."""
    out = []
    for by, s in zip(forced_by, scores, strict=True):
        if binary and not np.isnan(s):
            out.append("binary")
        elif by is not None:
            out.append(by)
        else:
            out.append("error" if np.isnan(s) else "threshold")
    return out


def agreement_by_group(labels: NDArray[np.bool_], predictions: NDArray[np.bool_],
                       groups: Sequence[str]) -> dict[str, dict[str, Any]]:
    """``{group: {n, share, correct, accuracy, kappa, equivalent}}`` for the groups present
    (kappa is None where undefined: one class only)."""
    out: dict[str, dict[str, Any]] = {}
    g = np.array(groups)
    for name in GROUPS:
        mask = g == name
        if not mask.any():
            continue
        a = agreement_score(labels[mask], predictions[mask])
        out[name] = {"n": int(mask.sum()), "share": float(mask.mean()),
                     "correct": int((labels[mask] == predictions[mask]).sum()),
                     "accuracy": a.accuracy,
                     "kappa": _defined(a.kappa),
                     "predicted_equivalent": int(predictions[mask].sum())}
    return out


def _defined(value: float | None) -> float | None:
    """None for an undefined figure (nan): JSON and the YAML files have no nan, and nan is not
    equal to itself, so a re-derived file would never equal the shipped one."""
    return None if value is None or np.isnan(value) else value


def mode_figures(scores: NDArray[np.float64], labels: NDArray[np.bool_],
                 forced: Sequence[bool | None], groups: Sequence[str], *, rule: str,
                 folds: int, seed: int, default: float | None,
                 default_in_sample: bool | None) -> dict[str, dict[str, Any]]:
    """The rule's oracle, grouped-cv and (with a shipped ``default``) default figures."""
    def figures(preds: NDArray[np.bool_], t: float) -> dict[str, Any]:
        a = agreement_score(labels, preds)
        return {"threshold": t, "accuracy": a.accuracy, "kappa": a.kappa}

    t = fallback_threshold(scores, labels, forced, rule=rule)
    out = {"oracle": figures(predictions_with(scores, forced, t)[0], t)}
    if len(set(groups)) >= 2:
        preds, used = fallback_cv(scores, labels, forced, groups, rule=rule, folds=folds,
                                  seed=seed)
        out["cv"] = figures(preds, float(np.median(used)))
    if default is not None:
        out["default"] = {**figures(predictions_with(scores, forced, default)[0], default),
                          "in_sample": default_in_sample}
    return out
